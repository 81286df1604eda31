"""Start at login, one switch on every platform: the OS's own registration is the only record.

- Windows: the HKCU `...\\CurrentVersion\\Run` value "Hearth", the same one the installer's
  "Start Hearth in the tray when I sign in" task writes (so the two always agree).
- macOS 13+: `SMAppService.agentServiceWithPlistName` over the agent inside the bundle
  (packaging/macos/bundle_plists.py writes it; the item appears in System Settings > General >
  Login Items). Not `mainAppService`: it starts the app without arguments, so the window opened
  at login. A user LaunchAgent where that API is missing or there is no bundle (from source).
- Linux and other XDG desktops: `~/.config/autostart/hearth.desktop`.
Each starts Hearth with `--hidden` (tray only). Nothing here touches Qt, so it is tested as is."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Protocol

from app.core.desktop_entry import app_command, exec_line

APP_ID = "app.hearth.Hearth"
RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"


class Autostart(Protocol):
    def enabled(self) -> bool: ...

    def set(self, enabled: bool) -> None:
        """Register or unregister; raises OSError with a readable message on failure."""


def launch_command() -> list[str]:
    """What the login session runs: the frozen app, or this Python running Hearth's module."""
    return app_command("--hidden")


class XdgAutostart:
    """A desktop entry in $XDG_CONFIG_HOME/autostart (freedesktop Desktop Application Autostart)."""

    def __init__(self, config_home: Path | None = None) -> None:
        base = config_home or Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
        self.path = base / "autostart" / "hearth.desktop"

    def enabled(self) -> bool:
        return self.path.is_file()

    def set(self, enabled: bool) -> None:
        if not enabled:
            self.path.unlink(missing_ok=True)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        command = exec_line(launch_command())  # a path with a space works, as the spec says
        # Written beside it, then renamed into place: the session starting (or a crash) never
        # meets a half-written entry.
        staged = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            staged.write_text(
                "[Desktop Entry]\nType=Application\nName=Hearth\n"
                "Comment=Your private assistant, in the tray\n"
                f"Exec={command}\nIcon=hearth\nTerminal=false\n"
                "X-GNOME-Autostart-enabled=true\n", encoding="utf-8")
            os.replace(staged, self.path)
        except BaseException:
            staged.unlink(missing_ok=True)  # a full disk leaves nothing behind
            raise


class WindowsRunKey:
    def enabled(self) -> bool:
        if sys.platform != "win32":  # only chosen there; tells the type checker which winreg
            return False
        import winreg

        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
                winreg.QueryValueEx(key, "Hearth")
        except OSError:
            return False
        return True

    def set(self, enabled: bool) -> None:
        if sys.platform != "win32":
            raise OSError("the Run key exists on Windows only")
        import subprocess
        import winreg

        with winreg.CreateKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
            if enabled:
                winreg.SetValueEx(key, "Hearth", 0, winreg.REG_SZ,
                                  subprocess.list2cmdline(launch_command()))
            else:
                try:
                    winreg.DeleteValue(key, "Hearth")
                except FileNotFoundError:
                    pass


class MacLoginItem:
    """SMAppService for the signed .app; a LaunchAgent plist when running from source."""

    def __init__(self, agents: Path | None = None) -> None:
        self.agent = (agents or Path.home() / "Library" / "LaunchAgents") / f"{APP_ID}.plist"

    def _service(self) -> Any:
        if not getattr(sys, "frozen", False):
            return None  # SMAppService registers the *bundle*; a source run has none
        try:
            from ServiceManagement import SMAppService
        except ImportError:
            return None
        return SMAppService.agentServiceWithPlistName_(f"{_bundle_id()}.login.plist")

    def _forget_main_app_item(self) -> None:
        """Earlier builds registered the app itself (started without --hidden): drop that."""
        from ServiceManagement import SMAppService

        legacy = SMAppService.mainAppService()
        if legacy.status() == 1:
            legacy.unregisterAndReturnError_(None)

    def enabled(self) -> bool:
        service = self._service()
        if service is not None:
            return bool(service.status() == 1)  # SMAppServiceStatusEnabled
        return self.agent.is_file()

    def set(self, enabled: bool) -> None:
        service = self._service()
        if service is not None:
            self._forget_main_app_item()
            done, error = (service.registerAndReturnError_(None) if enabled
                           else service.unregisterAndReturnError_(None))
            if not done:
                raise OSError(f"macOS refused the login item: {error}")
            return
        if not enabled:
            self.agent.unlink(missing_ok=True)
            return
        import plistlib  # macOS only, and not before the window

        self.agent.parent.mkdir(parents=True, exist_ok=True)
        self.agent.write_bytes(plistlib.dumps({
            "Label": APP_ID, "ProgramArguments": launch_command(), "RunAtLoad": True,
            "ProcessType": "Interactive"}))


def _bundle_id() -> str:
    try:
        from Foundation import NSBundle
    except ImportError:
        return APP_ID
    return str(NSBundle.mainBundle().bundleIdentifier() or APP_ID)


def platform_autostart() -> Autostart:
    if sys.platform == "win32":
        return WindowsRunKey()
    if sys.platform == "darwin":
        return MacLoginItem()
    return XdgAutostart()


def hide_dock_icon(hidden: bool) -> None:
    """macOS: a tray-only start shows no Dock icon (accessory app) until a window opens."""
    if sys.platform != "darwin":
        return
    try:
        from AppKit import NSApplication
    except ImportError:
        return
    regular, accessory = 0, 1  # NSApplicationActivationPolicyRegular / ...Accessory
    NSApplication.sharedApplication().setActivationPolicy_(accessory if hidden else regular)
