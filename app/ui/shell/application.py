"""`hearth` with no subcommand: one instance, the window, the tray, the hotkey, quick ask.

The window is shown before anything slow happens: the model loads, conversations are read
and the hotkey is registered after the first paint, all off the GUI thread where it counts."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from app.core.root import HearthParts

STARTED = time.perf_counter()  # as early as this module is imported (bench_startup.py)
PROBE_ENV = "HEARTH_STARTUP_PROBE"  # set: print seconds-to-window when exposed, then quit


def parse_args(argv: list[str]) -> argparse.Namespace:
    """`hearth`'s options; with none (the usual launch) the parser's defaults without building
    it: argparse looks up its own translations at every help text it adds (gettext, locale),
    ~3-5 ms before the window."""
    if not argv:
        return argparse.Namespace(toggle=False, show=False, hidden=False, unknown="")
    return _parse(argv)


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="hearth", description="Hearth, your local assistant.")
    parser.add_argument("--toggle", action="store_true",
                        help="show or hide Quick ask in the running Hearth (bind it to a key)")
    parser.add_argument("--show", action="store_true", help="bring the main window forward")
    parser.add_argument("--hidden", action="store_true", help="start in the tray")
    args, rest = parser.parse_known_args(argv)
    args.unknown = _not_for_qt(rest)
    return args


def _not_for_qt(rest: list[str]) -> str:
    """Qt takes options like `-platform xcb` or `-style fusion`; anything else is a mistake
    (most often a mistyped subcommand), and starting the window would hide it."""
    expecting_value = False  # after "-platform" comes its value
    for arg in rest:
        if arg.startswith("--"):
            return arg
        if arg.startswith("-"):
            expecting_value = True
        elif expecting_value:
            expecting_value = False
        else:
            return arg
    return ""


def run_app(argv: list[str], hearth_factory: Callable[[], HearthParts]) -> int:
    """Entry point used by app.main when `hearth` runs without a subcommand."""
    args = parse_args(argv)
    if args.unknown:
        sys.stderr.write(f"hearth: unknown command or option {args.unknown!r}; "
                         "see `hearth --help`\n")
        return 2
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or hearth_application([sys.argv[0], *argv])
    assert isinstance(app, QApplication)
    app.setApplicationName("Hearth")
    app.setOrganizationName("Hearth")
    app.setDesktopFileName("hearth")
    from app.ui.gui_gc import GuiThreadCollector

    GuiThreadCollector(app)  # a widget in a reference cycle is never freed on a worker thread
    from app.core.paths import Paths
    from app.ui.shell.single_instance import SingleInstance, hold_app_mutex, instance_key

    data = Paths.from_env().data
    single = SingleInstance(instance_key(str(data)), data)
    # The first one listens only after its first frame (_run): a launch in between keeps
    # trying to connect for a while (send).
    if not single.claim():
        forwarded = single.send(["--toggle"] if args.toggle else ["--show"])
        if not forwarded:
            sys.stderr.write("hearth: another Hearth is starting or stuck; try again.\n")
        return 0 if forwarded else 1
    hold_app_mutex()  # setup waits while it exists; the OS closes it when Hearth ends
    try:
        return _run(app, args, hearth_factory, single)
    finally:
        single.release()


def hearth_application(argv: list[str]) -> QApplication:
    """A QApplication in Fusion that says when a Quit reaches it (the Dock's Quit, Cmd+Q,
    logout).

    Desktop needs to hear that before the windows close; an application-wide event filter
    would also hear it, but it runs Python for every event of every widget, and converting
    those widgets for it made PySide6 create ~125 enum classes before the first frame."""
    from PySide6.QtCore import QEvent, Signal
    from PySide6.QtWidgets import QApplication

    class HearthApplication(QApplication):
        quit_requested = Signal()
        # Fusion from the command line: ThemeManager's setStyle("Fusion") would hand back the
        # style object, and wrapping it makes PySide6 create QStyle's 11 enum classes.
        fusion_from_start = True

        def event(self, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Quit:
                self.quit_requested.emit()
            return super().event(event)

    return HearthApplication([*argv, "-style=Fusion"])  # last: it wins, as setStyle did


def _run(app: QApplication, args: argparse.Namespace, hearth_factory: Callable[[], HearthParts],
         single: Any) -> int:
    from app.ui.shell.desktop import Desktop

    desktop = Desktop(app, hearth_factory())
    single.message.connect(desktop.handle_message)
    desktop.start(hidden=args.hidden and desktop.tray is not None,
                  toggle=args.toggle)
    from PySide6.QtCore import QTimer

    # Queued behind the first frame, like the desktop's own steps after it.
    QTimer.singleShot(0, single, lambda: _listen(single))
    if os.environ.get(PROBE_ENV):
        desktop.window.shown.connect(lambda: _probe(app))
    _quit_on_signals(app)
    try:
        return int(app.exec())
    finally:
        desktop.shutdown()


def _listen(single: Any) -> None:
    """Later launches reach this one from now on (their --toggle, --show)."""
    if not single.listen():
        sys.stderr.write("hearth: cannot listen for other launches; a second `hearth` will "
                         "not reach this one.\n")


def _quit_on_signals(app: QApplication) -> None:
    """Ctrl+C in a terminal or a TERM from the session ends Hearth cleanly (stores closed).

    Python only runs signal handlers between bytecodes, and Qt's loop runs none while idle:
    a slow timer lets the handler run within half a second."""
    import signal

    from PySide6.QtCore import QTimer

    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, lambda *_args: app.quit())
    timer = QTimer(app)
    timer.timeout.connect(lambda: None)
    timer.start(500)


def _probe(app: QApplication) -> None:
    """bench_startup.py: the window is exposed; report the time since import and quit."""
    from PySide6.QtCore import QTimer

    # Wall-clock time too: the benchmark compares it with when it spawned the process; and the
    # CPU time spent so far, which a busy machine inflates far less than the wall clock.
    sys.stdout.write(f"HEARTH_WINDOW_SHOWN {time.time():.4f} "
                     f"{time.perf_counter() - STARTED:.4f} {time.process_time():.4f}\n")
    sys.stdout.flush()
    QTimer.singleShot(0, app.quit)
