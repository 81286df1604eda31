"""Which version an import kept of an event changed in Hearth, in the UI's language: the one
place a KeptWhy code becomes words here (the CLI's English is Kept.reason)."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QCoreApplication, QLocale

from app.ui.dates import medium_date_time
from skills.calendar.report import Kept, KeptWhy


def _sentence(kept: Kept) -> str:
    translate = QCoreApplication.translate
    if kept.why is KeptWhy.NOT_NEWER:
        return (translate("KeptReason", "%1: kept as you deleted it in Hearth (the file's copy "
                                        "is not newer)") if kept.deleted else
                translate("KeptReason", "%1: kept as you changed it in Hearth (the file's copy "
                                        "is not newer)"))
    if kept.why is KeptWhy.TOOK_FILES:
        return (translate("KeptReason", "%1: deleted in Hearth, changed in the file; took the "
                                        "file's version") if kept.deleted else
                translate("KeptReason", "%1: changed in Hearth and in the file; took the file's "
                                        "version"))
    if kept.why is KeptWhy.KEPT_BOTH:
        return translate("KeptReason", "%1: changed in Hearth and in the file; kept both")
    return (translate("KeptReason", "%1: deleted in Hearth, changed in the file; kept it "
                                    "deleted") if kept.deleted else
            translate("KeptReason", "%1: changed in Hearth and in the file; kept yours"))


def _what(kept: Kept, locale: QLocale) -> str:
    translate = QCoreApplication.translate
    if not kept.when:
        return translate("KeptReason", "'%1'").replace("%1", kept.title)
    when = medium_date_time(locale, datetime.fromisoformat(kept.when))
    return translate("KeptReason", "'%1' on %2").replace("%1", kept.title).replace("%2", when)


def kept_reason(kept: Kept, locale: QLocale) -> str:
    text = _sentence(kept).replace("%1", _what(kept, locale))
    if kept.chosen:
        text = QCoreApplication.translate("KeptReason", "%1 (you chose)").replace("%1", text)
    return text
