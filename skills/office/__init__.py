"""Office work: exact answers over spreadsheets and folders, and new documents the user approves."""

from __future__ import annotations

from skills.base import Skill
from skills.office.access import OfficeAccess, default_output_folder
from skills.office.digest import DigestCache, Digester, DigestFolder, DigestJob
from skills.office.drafts import undo
from skills.office.read_tools import InspectSheet, QuerySheets
from skills.office.sheets import Limits
from skills.office.workbooks import WorkbookCache
from skills.office.write_tools import CleanSheet, ConvertSheet, WriteReport, WriteSlides

OFFICE_PREFIX = "office_"

__all__ = ["OFFICE_PREFIX", "DigestCache", "DigestJob", "Digester", "Limits", "OfficeAccess", "WorkbookCache",
           "default_output_folder",
           "office_skills", "undo"]


def office_skills(access: OfficeAccess, cache: WorkbookCache | None = None,
                  limits: Limits | None = None, digester: Digester | None = None) -> list[Skill]:
    """The office tools, read tools first; the folder digest where a model can summarise."""
    cache = cache or WorkbookCache(limits)
    found: list[Skill] = [InspectSheet(access, limits), QuerySheets(access, cache)]
    if digester is not None:
        found.append(DigestFolder(access, digester))
    found += [ConvertSheet(access, limits), CleanSheet(access, limits),
              WriteReport(access, limits, digester), WriteSlides(access, limits)]
    return found
