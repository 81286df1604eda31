"""The Routines page (add, edit, pause, run now, run history, delete), a routine run's
pending-approval card in its conversation (nothing changes until Approve), the to-do list
beside the calendar grid, and the app's routine check announcing a run that opens its chat."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtCore import QDate, QDateTime, Qt, QTime
from PySide6.QtWidgets import QMessageBox, QPushButton

from app.core.routines import Schedule
from app.ui.i18n import ui_locale
from app.ui.pages.calendar.view import CalendarView
from app.ui.shell.services import Services
from skills.common.clock import local_timezone_name
from tests.ui.scripts import TITLE, WAIT_MS, answer, tool_call
from tests.ui.test_chinese_everywhere import chinese, english_on  # noqa: F401 - a fixture


def routines_page(qtbot: Any, window: Any) -> Any:
    nav = next(b for b in window.sidebar.findChildren(QPushButton) if b.text() == "Routines")
    qtbot.mouseClick(nav, Qt.MouseButton.LeftButton)  # reachable from the sidebar
    page = window.pages.currentWidget()
    assert page.objectName() == "routinesPage"
    assert window.ctx.ops.wait(WAIT_MS)
    return page


def press(box: QMessageBox, text: str) -> None:
    next(b for b in box.buttons() if b.text() == text).click()


def settle(qtbot: Any, ctx: Any) -> None:
    """A write, then the read it starts, then the read's answer shown."""
    for _ in range(3):
        assert ctx.ops.wait(WAIT_MS)
        qtbot.wait(10)


def test_add_edit_pause_run_and_delete_a_routine(ctx: Any, window: Any, qtbot: Any,
                                                 backend: Any) -> None:
    page = routines_page(qtbot, window)
    qtbot.waitUntil(lambda: "No routines yet" in page.status.text(), timeout=WAIT_MS)
    assert page.table.rowCount() == 0
    dialog = page.new_routine()
    assert dialog.width() >= dialog.fontMetrics().horizontalAdvance("x") * 60  # room to write
    assert "e.g." in dialog.ask.placeholderText()  # what to write there, for a first routine
    dialog.name.setText("Morning")
    dialog.ask.setPlainText("What is on today?")
    dialog.when.setDateTime(QDateTime(QDate.currentDate().addDays(-1), QTime(7, 30)))
    dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    assert dialog.isVisible() and "has passed" in dialog.next_runs.text()  # once, yesterday
    dialog.when.setDateTime(QDateTime(QDate.currentDate().addDays(1), QTime(7, 30)))
    assert dialog.next_runs.text().startswith("Runs once: ")  # one run, not "Next runs"
    tomorrow = QDate.currentDate().addDays(1)
    dialog.when.setDateTime(QDateTime(tomorrow, QTime(7, 30)))
    dialog.repeat.setCurrentIndex(2)  # every weekday
    assert dialog.next_runs.text().startswith("Next runs:")
    assert dialog.next_runs.text().count(",") == 2  # its next three run times
    dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=WAIT_MS)
    assert page.table.item(0, 1).text() == "Every weekday at 07:30"
    page.table.selectRow(0)
    qtbot.mouseClick(page.pause_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.table.item(0, 2).text() == "Paused", timeout=WAIT_MS)
    assert page.pause_button.text() == "Resume"
    assert ctx.hearth.routines.all()[0].paused  # saved, not only shown
    edit = page.edit_routine()
    edit.name.setText("Early")
    edit.buttons.button(edit.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: page.table.item(0, 0).text() == "Early", timeout=WAIT_MS)
    backend.queue(answer("Look.", "A dentist at 10:00."))
    page.table.selectRow(0)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.history.count() == 1, timeout=WAIT_MS)
    assert page.history.item(0).text().endswith("Done")
    item = page.history.item(0)
    page.history.itemActivated.emit(item)  # a run opens its conversation
    run = ctx.hearth.routines.runs()[0]
    assert window.chat.conversation_id == run.conversation_id
    window.show_page("routines")
    page.table.selectRow(0)
    box = page.delete_routine()
    assert "Its conversations stay" in box.text()
    press(box, "Delete")
    settle(qtbot, ctx)
    assert ctx.hearth.routines.all() == []
    qtbot.waitUntil(lambda: page.table.rowCount() == 0, timeout=WAIT_MS)
    assert ctx.hearth.history.get_conversation(run.conversation_id) is not None


def test_run_now_lists_its_chat_and_without_a_model_says_why_first(
        ctx: Any, window: Any, qtbot: Any, backend: Any) -> None:
    """"Run now" made a chat the sidebar did not list until something else reloaded it; with
    no model loaded it recorded a bare "Failed" run (the reason only in the CLI's words)."""
    due_a_moment_ago(ctx, "Morning", "What is on today?", rule="FREQ=DAILY")
    page = routines_page(qtbot, window)
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=WAIT_MS)
    page.table.selectRow(0)
    backend.queue(answer("Look.", "A dentist at 10:00."), TITLE)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(window.sidebar.conversations) == 1, timeout=WAIT_MS)
    (run,) = ctx.hearth.routines.runs()
    assert window.sidebar.conversations[0].id == run.conversation_id
    ctx.hearth.runner.unload().result(WAIT_MS / 1000)
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    assert page.status.text() == "No model is loaded yet."
    assert len(ctx.hearth.routines.runs()) == 1  # no failed run added


def test_a_runs_note_is_shown_as_text(ctx: Any, window: Any, qtbot: Any) -> None:
    """A failed run's note holds the server's own words, which may look like HTML."""
    due_a_moment_ago(ctx, "Morning", "What is on today?")
    (routine,) = ctx.hearth.routines.all()
    now = datetime.now(ZoneInfo("UTC"))
    run = ctx.hearth.routines.claim(routine.id, now, now, manual=True)
    ctx.hearth.routines.update_run(run.id, status="failed",
                                   note='<img src="x"><b>502</b> Bad Gateway')
    page = routines_page(qtbot, window)
    qtbot.waitUntil(lambda: page.history.count() == 1, timeout=WAIT_MS)
    tip = page.history.item(0).toolTip()
    assert "&lt;img" in tip and "<img" not in tip and "&lt;b&gt;502" in tip


def test_a_routine_runs_calendar_change_waits_on_a_card_until_approved(
        ctx: Any, window: Any, qtbot: Any, backend: Any) -> None:
    now = datetime.now(ZoneInfo("UTC"))
    routine = ctx.hearth.routines.add("Plan", "Book lunch with Anna tomorrow", Schedule(
        datetime(2030, 1, 1, 8), local_timezone_name()), now)
    backend.queue(tool_call("add_event", title="Lunch with Anna", start="2030-01-02T12:00"),
                  answer("Held.", "It waits for your approval."))
    run = ctx.hearth.scheduler.run_now(routine.id)
    assert run.status == "waiting_approval"
    window.open_conversation(run.conversation_id)
    qtbot.waitUntil(lambda: len(window.chat.pending.cards) == 1, timeout=WAIT_MS)
    card = window.chat.pending.cards[0]
    assert card.isVisible() and "Lunch with Anna" in card.text.text()
    assert ctx.hearth.calendar.all_events() == []  # nothing changed yet
    qtbot.mouseClick(card.approve, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.chat.pending.cards, timeout=WAIT_MS)
    assert [e.title for e in ctx.hearth.calendar.all_events()] == ["Lunch with Anna"]
    settle(qtbot, ctx)
    said = [m.content for m in ctx.hearth.history.messages(run.conversation_id)]
    assert said[-1].startswith("Approved:")


def test_the_todo_list_beside_the_grid(ctx: Any, qtbot: Any) -> None:
    view = CalendarView(ctx)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    todos = view.todos
    assert todos.isVisible() and todos.geometry().left() > view.stack.geometry().right()
    todos.title.setText("Renew passport")
    todos.has_due.setChecked(True)
    todos.due.setDateTime(QDateTime(QDate(2030, 1, 4), QTime(17, 0)))
    field = todos.due.lineEdit()  # the due time is read whole, not cut at the arrow
    assert field.fontMetrics().horizontalAdvance(field.text()) < field.width(), field.width()
    qtbot.mouseClick(todos.add_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: todos.list.count() == 1, timeout=WAIT_MS)
    (stored,) = ctx.hearth.calendar.todos.all()
    assert stored.title == "Renew passport" and stored.due.hour == 17
    assert "Renew passport" in todos.list.item(0).text()
    due_line = todos.list.item(0).text().splitlines()[1]  # the month in words, never 04/01
    assert "Jan" in due_line and "2030" in due_line and "17:00" in due_line, due_line
    todos.list.item(0).setCheckState(Qt.CheckState.Checked)  # the checkbox completes it
    qtbot.waitUntil(lambda: todos.list.count() == 0, timeout=WAIT_MS)
    assert ctx.hearth.calendar.todos.all() == []
    todos.show_done.setChecked(True)
    qtbot.waitUntil(lambda: todos.list.count() == 1, timeout=WAIT_MS)
    assert todos.list.item(0).checkState() == Qt.CheckState.Checked
    assert ctx.hearth.calendar.todos.all(include_done=True)[0].done
    press(todos.delete(stored.uid), "Delete")
    qtbot.waitUntil(lambda: todos.list.count() == 0, timeout=WAIT_MS)
    assert ctx.hearth.calendar.todos.all(include_done=True) == []


def test_an_overdue_to_do_says_so_and_a_done_one_is_struck_through(ctx: Any, qtbot: Any) -> None:
    from PySide6.QtGui import QPalette

    from skills.calendar.todos import Todo

    tz = local_timezone_name()
    now = datetime.now(ZoneInfo(tz))
    todos = ctx.hearth.calendar.todos
    todos.add(Todo("", "Call the plumber", now - timedelta(hours=1), tz))
    todos.add(Todo("", "Pay rent", (now - timedelta(days=2)).date(), tz))  # a day, not a time
    todos.add(Todo("", "Book flights", (now + timedelta(days=3)).date(), tz))
    todos.add(Todo("", "Water plants", now - timedelta(days=1), tz, done=True))
    view = CalendarView(ctx)
    qtbot.addWidget(view)
    view.show()
    listed = view.todos
    listed.show_done.setChecked(True)
    qtbot.waitUntil(lambda: listed.list.count() == 4, timeout=WAIT_MS)
    items = {listed.list.item(i).text().splitlines()[0]: listed.list.item(i)
             for i in range(listed.list.count())}
    accent = listed.palette().color(QPalette.ColorRole.Accent)
    for title in ("Call the plumber", "Pay rent"):
        assert items[title].text().splitlines()[1].startswith("overdue since "), title
        assert items[title].foreground().color() == accent
    upcoming, done = items["Book flights"], items["Water plants"]
    assert upcoming.text().splitlines()[1].startswith("due ")
    assert upcoming.foreground().color() != accent and not upcoming.font().strikeOut()
    assert done.text().splitlines()[1].startswith("due ")  # done: no longer late
    assert done.font().strikeOut() and done.foreground().color() != accent


def due_a_moment_ago(ctx: Any, title: str, ask: str, ago: timedelta = timedelta(seconds=30),
                     made: timedelta = timedelta(minutes=5), rule: str = "") -> datetime:
    """A routine due `ago` (on time: within the scheduler's grace), made `made` ago; its due
    time on this computer's clock."""
    zone = local_timezone_name()
    now = datetime.now(ZoneInfo(zone))
    due = (now - ago).replace(second=0, microsecond=0, tzinfo=None)
    ctx.hearth.routines.add(title, ask, Schedule(due, zone, rule), now - made)
    return due


def announced(qtbot: Any, services: Services) -> tuple[str, str, str]:
    """What the app's routine check (its timer's work, off the GUI thread) announces."""
    with qtbot.waitSignal(services.routine_ran, timeout=WAIT_MS * 4) as ran:
        services.check_routines()
    title, text, key = ran.args
    return title, text, key


def test_the_app_runs_a_due_routine_and_announces_it(ctx: Any, qtbot: Any,
                                                     backend: Any) -> None:
    due_a_moment_ago(ctx, "Water", "Remind me to water the plants")
    backend.queue(answer("Ok.", "Time to water the plants."), TITLE)
    services = Services(ctx)
    title, text, key = announced(qtbot, services)
    (run,) = ctx.hearth.routines.runs()
    assert (title, text) == ("Water", "The answer is ready.")
    assert key == f"conversation:{run.conversation_id}"
    settle(qtbot, ctx)
    services.check_routines()
    settle(qtbot, ctx)
    assert len(ctx.hearth.routines.runs()) == 1  # once
    services.stop()


@pytest.mark.parametrize("case", ["over_budget", "repeating", "missed"])
def test_the_announcement_says_how_the_run_went(ctx: Any, qtbot: Any, backend: Any,
                                                monkeypatch: Any, case: str) -> None:
    """A run's note also says why it stopped ("stopped after 1 seconds…"): a run on time that
    overran its budget was announced "Missed while Hearth was not running; ran now."; an
    answer Hearth cut for repeating itself was announced "The answer is ready."."""
    if case == "over_budget":
        monkeypatch.setattr(ctx.hearth.scheduler.runner, "budget", timedelta(seconds=1))
        monkeypatch.setattr(backend, "_delay", 0.05)  # a long answer at a slow pace: minutes
        backend.queue(answer("Think.", "word " * 5000), TITLE)
    elif case == "repeating":
        backend.queue(answer("Ok.", "Good morning! " + "Have a nice day. " * 80), TITLE)
    else:
        backend.queue(answer("Ok.", "Water the plants."), TITLE)
    if case == "missed":  # due long before now, made before it was due
        due_a_moment_ago(ctx, "Plants", "Remind me to water the plants",
                         ago=timedelta(minutes=10), made=timedelta(minutes=20))
    else:
        due_a_moment_ago(ctx, "Plants", "Remind me to water the plants")
    services = Services(ctx)
    _title, text, _key = announced(qtbot, services)
    assert text == {
        "over_budget": "Stopped at its time budget.",
        "repeating": "The answer was stopped because it kept repeating itself.",
        "missed": "Missed while Hearth was not running; ran now. The answer is ready."}[case]
    (run,) = ctx.hearth.routines.runs()
    assert run.status == {"over_budget": "timed_out", "repeating": "cut",
                          "missed": "done"}[case]
    settle(qtbot, ctx)
    services.stop()


def test_the_routines_page_and_its_cards_in_chinese(ctx: Any, window: Any, qtbot: Any,
                                                    backend: Any, chinese: Any) -> None:  # noqa: F811
    ctx.translations = chinese
    now = datetime.now(ZoneInfo("UTC"))
    routine = ctx.hearth.routines.add("晨报", "今天有什么安排？", Schedule(
        datetime(2030, 1, 1, 7, 30), local_timezone_name(), "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        now)
    backend.queue(tool_call("add_event", title="午餐", start="2030-01-02T12:00"),
                  answer("Held.", "等待批准。"))
    ctx.hearth.scheduler.run_now(routine.id)
    window.show_page("routines")
    page = window.pages.currentWidget()
    qtbot.waitUntil(lambda: page.table.rowCount() == 1 and len(page.pending.cards) == 1,
                    timeout=WAIT_MS)
    assert page.table.item(0, 1).text() == "每个工作日 07:30"
    page.table.selectRow(0)
    qtbot.waitUntil(lambda: page.history.count() == 1, timeout=WAIT_MS)
    assert page.history.item(0).text().endswith("等待你批准")
    assert page.pending.cards[0].approve.text() == "批准"
    found = english_on(page)
    # The card quotes the held change as the tool describes it (the model's own words).
    assert [text for text in found if "午餐" not in text] == []
    dialog = page.edit_routine()
    assert english_on(dialog) == {}
    dialog.reject()


def test_a_routine_notification_opens_its_conversation(ctx: Any, app_desktop: Any) -> None:
    conversation = ctx.hearth.history.create_conversation(title="Morning")
    ctx.hearth.history.add_message(conversation.id, "user", "What is on today?")
    app_desktop.services.routine_ran.emit("Morning", "The answer is ready.",
                                      f"conversation:{conversation.id}")
    (shown,) = app_desktop.notifier.recent
    assert (shown.title, shown.key) == ("Morning", f"conversation:{conversation.id}")
    app_desktop.notifier.opened.emit(shown.key)  # the notification's Open (or a click on it)
    assert app_desktop.window.isVisible()
    assert app_desktop.window.chat.conversation_id == conversation.id


def test_the_open_routines_page_shows_what_ran_on_its_own_time(
        ctx: Any, qtbot: Any, backend: Any, app_desktop: Any) -> None:
    """The page stays open while a routine runs by itself: its next run moves on and its run
    history has the run; a routine made meanwhile (in a chat) is there on coming back."""
    from app.ui.pages.routine_editor import when_text

    window = app_desktop.window
    window.show()
    page = routines_page(qtbot, window)
    qtbot.waitUntil(lambda: "No routines yet" in page.status.text(), timeout=WAIT_MS)
    due = due_a_moment_ago(ctx, "Water", "Remind me to water the plants", rule="FREQ=DAILY")
    backend.queue(answer("Ok.", "Time to water the plants."), TITLE)
    announced(qtbot, app_desktop.services)  # what the timer does while the page is open
    following = when_text(ui_locale(ctx.translations), due + timedelta(days=1))
    qtbot.waitUntil(lambda: page.table.rowCount() == 1
                    and page.table.item(0, 2).text() == following, timeout=WAIT_MS)
    assert page.history.count() == 1  # nothing chosen: every routine's runs, named
    assert page.history.item(0).text().startswith("Water · ")
    assert page.history.item(0).text().endswith("Done")
    window.show_page("chat")
    ctx.hearth.routines.add("Post", "Check the post", Schedule(
        due + timedelta(days=2), local_timezone_name()), datetime.now(ZoneInfo("UTC")))
    # (as the chat's add_routine tool makes one)
    window.show_page("routines")
    qtbot.waitUntil(lambda: page.table.rowCount() == 2, timeout=WAIT_MS)


def test_a_to_do_falling_due_while_the_calendar_is_open_turns_overdue(ctx: Any, qtbot: Any
                                                                      ) -> None:
    from skills.calendar.todos import Todo

    tz = local_timezone_name()
    due = datetime.now(ZoneInfo(tz)).replace(second=0, microsecond=0) + timedelta(hours=2)
    ctx.hearth.calendar.todos.add(Todo("", "Call the plumber", due, tz))
    view = CalendarView(ctx)
    qtbot.addWidget(view)
    listed = view.todos
    listed.clock = lambda: due - timedelta(minutes=1)
    view.show()
    qtbot.waitUntil(lambda: listed.list.count() == 1, timeout=WAIT_MS)
    assert listed.list.item(0).text().splitlines()[1].startswith("due ")
    assert view.minute.isActive()  # the page keeps time while it is on screen
    rebuilt: list[None] = []
    listed.changed.connect(lambda: rebuilt.append(None))
    view.minute.timeout.emit()  # a minute on, still before it: nothing is redrawn
    assert rebuilt == []
    listed.clock = lambda: due + timedelta(minutes=1)
    view.minute.timeout.emit()  # the minute it falls due
    assert listed.list.item(0).text().splitlines()[1].startswith("overdue since ")
    view.hide()
    assert not view.minute.isActive()
