"""Library, calendar, files and routines pages, built on first visit (their modules load only
then)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from app.ui.context import UiContext


def make_library_page(ctx: UiContext, parent: QWidget | None = None) -> QWidget:
    from app.ui.pages.library import LibraryView

    return LibraryView(ctx, parent)


def make_calendar_page(ctx: UiContext, parent: QWidget | None = None) -> QWidget:
    from app.ui.pages.calendar.view import CalendarView

    return CalendarView(ctx, parent)


def make_files_page(ctx: UiContext, parent: QWidget | None = None) -> QWidget:
    from app.ui.pages.files import FilesView

    return FilesView(ctx, parent)


def make_routines_page(ctx: UiContext, parent: QWidget | None = None) -> QWidget:
    from app.ui.pages.routines import RoutinesView

    return RoutinesView(ctx, parent)
