"""The calendar page's re-import: edits made in Hearth are kept and said so; an event the file
changed too is asked about in a dialog (keep mine / take the file's / keep both)."""

from __future__ import annotations

from datetime import date
from typing import Any

from app.ui.pages.calendar.conflicts import ConflictDialog
from tests.calendar.test_local_edits import edit_in_hearth, export, week
from tests.ui.scripts import WAIT_MS
from tests.ui.test_chinese_everywhere import chinese, english_on  # noqa: F401 - a fixture


def test_reimport_keeps_edits_and_asks_when_both_changed(ctx: Any, window: Any, qtbot: Any,
                                                         tmp_path: Any) -> None:
    window.show_page("calendar")
    calendar = window.pages.currentWidget()
    calendar.first = date(2026, 1, 5)
    store = ctx.hearth.calendar
    calendar.import_file(str(export(tmp_path)))
    qtbot.waitUntil(lambda: calendar.status.text().startswith("Imported: 5 new"),
                    timeout=WAIT_MS)
    edited = edit_in_hearth(store)

    calendar.import_file(str(export(tmp_path)))
    qtbot.waitUntil(lambda: "changed in Hearth" in calendar.status.text(), timeout=WAIT_MS)
    assert calendar.status.text() == ("Imported: 0 new, 0 updated, 1 unchanged; 4 events you "
                                      "changed in Hearth: see details")
    assert "'Lunch with Sam & Jo': kept as you changed it" in calendar.status.toolTip()
    assert week(store) == edited

    newer = export(tmp_path, call_sequence=2, call_title="Call the bank (new number)")
    calendar.import_file(str(newer))
    qtbot.waitUntil(lambda: getattr(calendar, "conflict_dialog", None) is not None
                    and calendar.conflict_dialog.isVisible(), timeout=WAIT_MS)
    dialog: ConflictDialog = calendar.conflict_dialog
    assert week(store) == edited  # nothing changes before the answer
    (box,) = dialog.boxes
    assert [box.itemText(i) for i in range(box.count())] == [
        "Keep mine", "Take the file's", "Keep both"]
    assert box.currentText() == "Keep mine"  # the default loses nothing
    box.setCurrentIndex(2)
    dialog.import_button.click()
    qtbot.waitUntil(lambda: "1 new" in calendar.status.text(), timeout=WAIT_MS)
    titles = [t for t, *_ in week(store)]
    assert "Call the bank" in titles and "Call the bank (new number)" in titles


def test_the_conflict_question_speaks_chinese(qtbot: Any, chinese: Any) -> None:  # noqa: F811
    from skills.calendar.local_edits import Conflict

    dialog = ConflictDialog([Conflict("a", "", "和小山吃午饭", "午饭", "", False),
                             Conflict("b", "", "", "给银行打电话", "", True)], "工作.ics", None)
    qtbot.addWidget(dialog)
    dialog.show()
    assert english_on(dialog) == {}
    assert "保留我的" in [dialog.boxes[0].itemText(i) for i in range(dialog.boxes[0].count())]
    assert dialog.boxes[1].count() == 2  # deleted in Hearth: keep it deleted, or take the file's


def test_what_a_reimport_kept_is_told_in_chinese(ctx: Any, window: Any, qtbot: Any,
                                                 tmp_path: Any, chinese: Any) -> None:  # noqa: F811
    """Which version was kept crosses as a code: a Chinese window words it in Chinese (the
    store's English sentences were shown as they were), the CLI keeps its English."""
    from app.ui.i18n import ui_locale
    from app.ui.pages.calendar.import_words import kept_reason
    from skills.calendar.report import Kept, KeptWhy
    from tests.ui.test_chinese_everywhere import english_in

    ctx.translations = chinese
    window.show_page("calendar")
    calendar = window.pages.currentWidget()
    calendar.first = date(2026, 1, 5)
    calendar.import_file(str(export(tmp_path)))
    qtbot.waitUntil(lambda: "5" in calendar.status.text(), timeout=WAIT_MS)
    edit_in_hearth(ctx.hearth.calendar)
    calendar.import_file(str(export(tmp_path)))
    qtbot.waitUntil(lambda: "Lunch with Sam & Jo" in calendar.status.toolTip(), timeout=WAIT_MS)
    tip = calendar.status.toolTip()
    assert "“Lunch with Sam & Jo”：保留你在 Hearth 中的修改" in tip, tip
    assert "kept as you" not in tip

    locale = ui_locale(chinese)
    worded = {(why, deleted, chosen): kept_reason(Kept("u", why, "午饭", "2026-01-06T12:00",
                                                       deleted, chosen), locale)
              for why in KeptWhy for deleted in (False, True) for chosen in (False, True)}
    assert {k: t for k, t in worded.items() if set(english_in(t)) - {"Hearth"}} == {}
    english = Kept("u", KeptWhy.KEPT_YOURS, "Lunch", "2026-01-06T12:00", True, True).reason
    assert english == "'Lunch' on 2026-01-06T12:00: deleted in Hearth, changed in the file; " \
                      "kept it deleted (you chose)"
