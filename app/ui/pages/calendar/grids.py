"""Month and time grids, painted (thousands of events stay cheap): double-click to create or
edit, right-click for Edit / Delete, drag to move, drag an event's handle (its bottom few pixels)
to resize."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QFont,
    QFontMetrics,
    QMouseEvent,
    QPainter,
    QPaintEvent,
)
from PySide6.QtWidgets import QMenu, QWidget

if TYPE_CHECKING:
    from skills.calendar.model import Occurrence, When

SNAP_MIN = 15
HOUR_PX = 44
GUTTER = 56
DAY_HEADER = 26
RESIZE_EDGE = 4  # the resize handle: this many pixels at the end, whatever the block's height


def chip_inner(rect: QRectF) -> QRectF:
    """Where a chip's words may go: clear of its coloured bar on the left and its edges."""
    return rect.adjusted(6, 1, -3, -1)


def chip_lines(metrics: QFontMetrics, rect: QRectF, text: str) -> list[tuple[QRectF, str]]:
    """Where each line of a chip's text goes, elided to its width: one line a piece (title,
    time, place), as many as the chip's height holds, so a narrow week column keeps the title
    whole instead of "17:00 Den…"."""
    inner = chip_inner(rect)
    placed: list[tuple[QRectF, str]] = []
    for number, line in enumerate(text.split("\n")):
        top = inner.top() + number * metrics.lineSpacing()
        if number and top + metrics.height() > inner.bottom() + 1:
            break
        placed.append((QRectF(inner.left(), top, inner.width(), metrics.height()),
                       metrics.elidedText(line, Qt.TextElideMode.ElideRight,
                                          int(inner.width()))))
    return placed


def timed_text(occ: Occurrence) -> str:
    """A timed chip's lines in the day and week grids: title, start, place."""
    lines = [occ.event.title, f"{local(occ.start):%H:%M}", occ.event.location]
    return "\n".join(filter(None, lines))


def month_text(occ: Occurrence, metrics: QFontMetrics, width: float) -> str:
    """A month chip: "17:00 Dentist" where it fits, else the title alone (a day's chips
    stand in time order), never "17:00 Den…"."""
    title = occ.event.title
    timed = f"{local(occ.start):%H:%M} {title}"
    return title if occ.event.all_day or metrics.horizontalAdvance(timed) > width else timed


def local(value: When) -> datetime:
    """A datetime on this computer's clock; a date (an all-day bound) at its local midnight."""
    if isinstance(value, datetime):
        return value.astimezone()
    return datetime.combine(value, time()).astimezone()


def day_of(occ: Occurrence) -> date:
    return local(occ.start).date()


@dataclass
class Hit:
    """Where one occurrence was painted, for the mouse."""

    rect: QRectF
    occ: Occurrence
    ends_here: bool = True  # the part an event ends in (a multi-day one has one per day)

    def on_handle(self, pos: QPoint) -> bool:
        """Whether `pos` is on the resize handle at the bottom of the event's last part."""
        return self.ends_here and 0 <= self.rect.bottom() - pos.y() <= RESIZE_EDGE


class _Grid(QWidget):
    new_requested = Signal(object, object)  # (start, end): local datetimes, or dates
    edit_requested = Signal(object)  # occurrence
    delete_requested = Signal(object)  # occurrence
    move_requested = Signal(object, object, object)  # (occurrence, new start, new end)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.occurrences: list[Occurrence] = []
        self.hits: list[Hit] = []
        self.colors: dict[str, QColor] = {}
        self._press: tuple[Hit, QPoint, str] | None = None  # (hit, where, "move"|"resize")
        self._drag_to: QPoint | None = None
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._colours = (QColor(), QColor())
        self.edit_text = "Edit…"
        self.delete_text = "Delete…"

    def hit_at(self, pos: QPoint) -> Hit | None:
        for hit in reversed(self.hits):
            if hit.rect.contains(pos.toPointF()):
                return hit
        return None

    def start_at(self, pos: QPoint) -> datetime | None:
        """Where a new event double-clicked at `pos` starts; None off the days."""
        return None

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        # On an event: edit it; on empty time: a new one-hour event there.
        pos = event.position().toPoint()
        hit = self.hit_at(pos)
        if hit is not None:
            self.edit_requested.emit(hit.occ)
            return
        start = self.start_at(pos)
        if start is not None:
            self.new_requested.emit(start, start + timedelta(hours=1))

    def palette_color(self, role: str) -> QColor:
        pal = self.palette()
        roles = {"text": pal.text(), "dim": pal.placeholderText(), "base": pal.base(),
                 "mid": pal.mid(), "accent": pal.highlight(), "window": pal.window(),
                 "alt": pal.alternateBase()}
        return roles[role].color()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802
        hit = self.hit_at(event.pos())
        if hit is None:
            return
        menu = QMenu(self)
        menu.addAction(self.edit_text, lambda: self.edit_requested.emit(hit.occ))
        menu.addAction(self.delete_text, lambda: self.delete_requested.emit(hit.occ))
        menu.popup(event.globalPos())

    def _chip(self, painter: QPainter, rect: QRectF, occ: Occurrence, text: str,
              in_view: float = 0.0) -> None:
        """A chip; its words start at `in_view` where the chip begins above it (scrolled under
        the day names: the second day of a night ferry would show an empty block)."""
        # Hundreds of chips a paint: colours are looked up once per paint (see paintEvent).
        accent, text_colour = self._colours
        cancelled = bool(getattr(occ.event, "cancelled", False))
        fill = QColor(accent)
        fill.setAlpha(25 if cancelled else 60)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        painter.drawRoundedRect(rect, 4, 4)
        painter.setBrush(accent)
        painter.drawRect(QRectF(rect.left(), rect.top(), 3, rect.height()))
        painter.setPen(text_colour)
        if cancelled:  # struck through, as other calendars show a cancelled event
            font = painter.font()
            font.setStrikeOut(True)
            painter.setFont(font)
        metrics = painter.fontMetrics()
        words = QRectF(rect)
        if rect.top() < in_view < rect.bottom() - metrics.height():
            words.setTop(in_view)
        for place, line in chip_lines(metrics, words, text):
            painter.drawText(place, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, line)
        if cancelled:
            font.setStrikeOut(False)
            painter.setFont(font)

    def _painter(self) -> QPainter:
        """A painter for this paint event, antialiased, with the chip colours of the theme."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._colours = (self.palette_color("accent"), self.palette_color("text"))
        return painter


class MonthGrid(_Grid):
    """Six weeks from the week holding the 1st; each day lists what fits, then "+n more"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.month = date.today().replace(day=1)
        self.first_weekday = 1  # Monday (Qt.DayOfWeek numbering)
        self.day_names: list[str] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        self.more_text = "+%1 more"
        self._by_day: dict[date, list[Occurrence]] = {}
        self.setMinimumSize(420, 360)

    def set_month(self, month: date, occurrences: list[Occurrence]) -> None:
        self.month = month.replace(day=1)
        self.occurrences = occurrences
        by_day: dict[date, list[Occurrence]] = {}
        for occ in occurrences:
            first, last = day_of(occ), local(occ.end).date()
            if not isinstance(occ.end, datetime):
                last -= timedelta(days=1)  # an all-day end is exclusive
            elif local(occ.end).time() == time() and last > first:
                last -= timedelta(days=1)
            day = first
            while day <= last and (day - first).days < 42:
                by_day.setdefault(day, []).append(occ)
                day += timedelta(days=1)
        self._by_day = by_day
        self.update()

    def first_day(self) -> date:
        back = (self.month.isoweekday() - self.first_weekday) % 7
        return self.month - timedelta(days=back)

    def cell_rect(self, index: int) -> QRectF:
        width = self.width() / 7
        height = (self.height() - DAY_HEADER) / 6
        return QRectF((index % 7) * width, DAY_HEADER + (index // 7) * height, width, height)

    def day_at(self, pos: QPoint) -> date | None:
        if pos.y() < DAY_HEADER:
            return None
        col = int(pos.x() / (self.width() / 7))
        row = int((pos.y() - DAY_HEADER) / ((self.height() - DAY_HEADER) / 6))
        if not (0 <= col < 7 and 0 <= row < 6):
            return None
        return self.first_day() + timedelta(days=row * 7 + col)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = self._painter()
        self.hits = []
        line = painter.fontMetrics().height() + 3
        dim, text, mid = (self.palette_color(r) for r in ("dim", "text", "mid"))
        width = self.width() / 7
        for col in range(7):
            painter.setPen(dim)
            painter.drawText(QRectF(col * width, 0, width, DAY_HEADER),
                             Qt.AlignmentFlag.AlignCenter, self.day_names[col])
        today = date.today()
        for index in range(42):
            day = self.first_day() + timedelta(days=index)
            rect = self.cell_rect(index)
            painter.setPen(mid)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect)
            number = QRectF(rect.left() + 4, rect.top() + 2, rect.width() - 8, line)
            if day == today:
                painter.setBrush(self.palette_color("accent"))
                painter.setPen(Qt.PenStyle.NoPen)
                painter.drawEllipse(QRectF(number.right() - line, number.top(), line, line))
                painter.setPen(self.palette().highlightedText().color())
            else:
                painter.setPen(text if day.month == self.month.month else dim)
            painter.drawText(QRectF(number.right() - line, number.top(), line, line),
                             Qt.AlignmentFlag.AlignCenter, str(day.day))
            items = self._by_day.get(day, [])
            room = max(0, int((rect.height() - line - 4) // line))
            shown = items if len(items) <= room else items[:max(0, room - 1)]
            y = rect.top() + line + 2
            for occ in shown:
                chip = QRectF(rect.left() + 3, y, rect.width() - 6, line - 2)
                self._chip(painter, chip, occ, month_text(occ, painter.fontMetrics(),
                                                          chip_inner(chip).width()))
                self.hits.append(Hit(chip, occ))
                y += line
            if len(items) > len(shown):
                painter.setPen(dim)
                painter.drawText(QRectF(rect.left() + 6, y, rect.width() - 8, line),
                                 Qt.AlignmentFlag.AlignLeft,
                                 self.more_text.replace("%1", str(len(items) - len(shown))))
        if self._press is not None and self._drag_to is not None:
            target = self.day_at(self._drag_to)
            if target is not None:
                index = (target - self.first_day()).days
                painter.setPen(self.palette_color("accent"))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(self.cell_rect(index).adjusted(1, 1, -1, -1))
        painter.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        hit = self.hit_at(event.position().toPoint())
        if event.button() == Qt.MouseButton.LeftButton and hit is not None:
            self._press = (hit, event.position().toPoint(), "move")
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._press is not None:
            self._drag_to = event.position().toPoint()
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        press, self._press, self._drag_to = self._press, None, None
        self.update()
        if press is None:
            return
        hit, origin, _mode = press
        target = self.day_at(event.position().toPoint())
        if target is None or (event.position().toPoint() - origin).manhattanLength() < 8:
            return
        shift = timedelta(days=(target - day_of(hit.occ)).days)
        if shift:
            self.move_requested.emit(hit.occ, hit.occ.start + shift, hit.occ.end + shift)

    def start_at(self, pos: QPoint) -> datetime | None:
        day = self.day_at(pos)
        return datetime.combine(day, time(9)).astimezone() if day is not None else None


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time()).astimezone()


def _part(occ: Occurrence, day: date) -> tuple[datetime, datetime, Occurrence] | None:
    """The part of a timed occurrence on `day` (start, end, occ), or None when it has none."""
    start, end = local(occ.start), local(occ.end)
    first, last = _midnight(day), _midnight(day + timedelta(days=1))
    if start >= last or (end <= first and not (start == end == first)):
        return None
    return max(start, first), min(end, last), occ


class TimeGrid(_Grid):
    """One or several days by the hour; all-day events in a strip on top."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.first = date.today()
        self.days = 7
        self.day_label: Callable[[date], str] = lambda d: d.isoformat()
        self._ghost: QRectF | None = None
        self.header_at = 0  # the scrolled-to y: day names and all-day events stay in view
        self.setMinimumHeight(DAY_HEADER * 2 + 24 * HOUR_PX)

    def hit_at(self, pos: QPoint) -> Hit | None:
        hit = super().hit_at(pos)
        covered = pos.y() < self.header_at + DAY_HEADER * 2
        if hit is not None and covered and not hit.occ.event.all_day:
            return None  # under the day names: not clickable there
        return hit

    def follow_scroll(self, value: int) -> None:
        self.header_at = value
        self.update()

    def set_days(self, first: date, days: int, occurrences: list[Occurrence]) -> None:
        self.first, self.days, self.occurrences = first, days, occurrences
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802
        size = super().sizeHint()
        size.setHeight(self.minimumHeight())
        return size

    # geometry
    @property
    def top(self) -> int:
        return DAY_HEADER * 2  # day names, then the all-day strip

    def column_width(self) -> float:
        return (self.width() - GUTTER) / max(1, self.days)

    def y_of(self, moment: datetime) -> float:
        return self.top + (moment.hour + moment.minute / 60) * HOUR_PX

    def moment_at(self, pos: QPoint) -> datetime | None:
        if pos.x() < GUTTER or pos.y() < max(self.top, self.header_at + DAY_HEADER * 2):
            return None
        col = int((pos.x() - GUTTER) / self.column_width())
        if not 0 <= col < self.days:
            return None
        minutes = (pos.y() - self.top) / HOUR_PX * 60
        minutes = max(0, min(24 * 60 - SNAP_MIN, round(minutes / SNAP_MIN) * SNAP_MIN))
        day = self.first + timedelta(days=col)
        return datetime.combine(day, time()).astimezone() + timedelta(minutes=minutes)

    def _layout(self) -> list[Hit]:
        """Rectangles per timed occurrence and day it covers (a multi-day event is drawn in
        each of its days, as the month and the agenda list it); overlapping ones share their
        day's width."""
        hits: list[Hit] = []
        width = self.column_width()
        for col in range(self.days):
            day = self.first + timedelta(days=col)
            todays = sorted((part for o in self.occurrences if not o.event.all_day
                             if (part := _part(o, day)) is not None), key=lambda p: p[0])
            lanes: list[datetime] = []
            placed: list[tuple[datetime, datetime, Occurrence, int]] = []
            for start, end, occ in todays:
                lane = next((i for i, last in enumerate(lanes) if last <= start), len(lanes))
                if lane == len(lanes):
                    lanes.append(end)
                else:
                    lanes[lane] = end
                placed.append((start, end, occ, lane))
            count = max(1, len(lanes))
            for start, end, occ, lane in placed:
                bottom = self.y_of(end) if end.date() == day else self.top + 24 * HOUR_PX
                x = GUTTER + col * width + lane * width / count
                hits.append(Hit(QRectF(x + 1, self.y_of(start), width / count - 3,
                                       max(14.0, bottom - self.y_of(start) - 1)), occ,
                                ends_here=local(occ.end) <= _midnight(day + timedelta(days=1))))
        for occ in self.occurrences:
            if occ.event.all_day:
                col = (day_of(occ) - self.first).days
                if 0 <= col < self.days:
                    hits.append(Hit(QRectF(GUTTER + col * width + 2,
                                           self.header_at + DAY_HEADER + 3,
                                           width - 4, DAY_HEADER - 6), occ))
        return hits

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = self._painter()
        dim, mid, text = (self.palette_color(r) for r in ("dim", "mid", "text"))
        width = self.column_width()
        small = QFont(painter.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.85))
        for hour in range(24):
            y: float = self.top + hour * HOUR_PX
            painter.setPen(mid)
            painter.drawLine(GUTTER, int(y), self.width(), int(y))
            painter.setPen(dim)
            painter.setFont(small)
            painter.drawText(QRectF(0, y - 2, GUTTER - 6, 16), Qt.AlignmentFlag.AlignRight,
                             f"{hour:02d}:00")
        painter.setFont(self.font())
        for col in range(self.days):
            x = GUTTER + col * width
            painter.setPen(mid)
            painter.drawLine(int(x), 0, int(x), self.height())
        now = datetime.now().astimezone()
        if 0 <= (now.date() - self.first).days < self.days:
            col = (now.date() - self.first).days
            painter.setPen(self.palette_color("accent"))
            y = self.y_of(now)
            painter.drawLine(int(GUTTER + col * width), int(y), int(GUTTER + (col + 1) * width),
                             int(y))
        self.hits = self._layout()
        timed = [h for h in self.hits if not h.occ.event.all_day]
        for hit in timed:
            self._chip(painter, hit.rect, hit.occ, timed_text(hit.occ),
                       in_view=self.header_at + DAY_HEADER * 2)
            if hit.ends_here and hit.rect.height() >= 3 * RESIZE_EDGE:
                painter.setPen(Qt.PenStyle.NoPen)  # the resize handle, where it is grabbed
                painter.setBrush(self._colours[0])
                mid_x = hit.rect.center().x()
                painter.drawRoundedRect(QRectF(mid_x - 8, hit.rect.bottom() - RESIZE_EDGE + 1,
                                               16, 2), 1, 1)
        self._paint_header(painter, width, text, mid)
        for hit in self.hits:
            if hit.occ.event.all_day:
                self._chip(painter, hit.rect, hit.occ, hit.occ.event.title)
        if self._ghost is not None:
            painter.setPen(self.palette_color("accent"))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(self._ghost, 4, 4)
        painter.end()

    def _paint_header(self, painter: QPainter, width: float, text: QColor, mid: QColor) -> None:
        """Day names and the all-day strip, drawn over the hours at the scrolled-to top."""
        band = QRectF(0, self.header_at, self.width(), DAY_HEADER * 2)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.palette_color("window"))
        painter.drawRect(band)
        painter.setPen(mid)
        painter.drawLine(0, int(band.bottom()), self.width(), int(band.bottom()))
        today = date.today()
        for col in range(self.days):
            day = self.first + timedelta(days=col)
            painter.setPen(self.palette_color("accent") if day == today else text)
            painter.drawText(QRectF(GUTTER + col * width, self.header_at, width, DAY_HEADER),
                             Qt.AlignmentFlag.AlignCenter, self.day_label(day))

    # mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        pos = event.position().toPoint()
        hit = self.hit_at(pos)
        if event.button() == Qt.MouseButton.LeftButton and hit is not None and not (
                hit.occ.event.all_day):
            mode = "resize" if hit.on_handle(pos) else "move"
            self._press = (hit, pos, mode)
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        pos = event.position().toPoint()
        if self._press is None:
            hit = self.hit_at(pos)
            near_edge = hit is not None and hit.on_handle(pos)
            self.setCursor(Qt.CursorShape.SizeVerCursor if near_edge else
                           Qt.CursorShape.ArrowCursor)
            return
        planned = self._planned(pos)
        if planned is not None:
            start, end = planned
            col = (start.date() - self.first).days
            width = self.column_width()
            bottom = self.y_of(end) if end.date() == start.date() else self.top + 24 * HOUR_PX
            self._ghost = QRectF(GUTTER + col * width + 1, self.y_of(start), width - 3,
                                 max(14.0, bottom - self.y_of(start)))
            self.update()

    def _planned(self, pos: QPoint) -> tuple[datetime, datetime] | None:
        assert self._press is not None
        hit, origin, mode = self._press
        moment = self.moment_at(pos)
        if moment is None or (pos - origin).manhattanLength() < 6:
            return None
        start, end = local(hit.occ.start), local(hit.occ.end)
        if mode == "resize":  # the end moves up or down in its own day, never to another
            day = (end - timedelta(microseconds=1)).date()
            moment = datetime.combine(day, moment.timetz()).astimezone()
            return start, max(start + timedelta(minutes=SNAP_MIN), moment)
        grabbed = self.moment_at(origin) or start
        shift = moment - grabbed
        shift = timedelta(minutes=round(shift.total_seconds() / 60 / SNAP_MIN) * SNAP_MIN)
        return start + shift, end + shift

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._press is None:
            return
        planned = self._planned(event.position().toPoint())
        hit = self._press[0]
        self._press, self._ghost = None, None
        self.update()
        if planned is not None and planned != (local(hit.occ.start), local(hit.occ.end)):
            self.move_requested.emit(hit.occ, planned[0], planned[1])

    def start_at(self, pos: QPoint) -> datetime | None:
        return self.moment_at(pos)
