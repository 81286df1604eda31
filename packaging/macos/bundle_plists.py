"""The .app's property lists: Info.plist's keys, and the login agent that starts Hearth hidden.

The spec (hearth.spec) takes info_plist() for BUNDLE; build.sh runs this file on the built app
to write Contents/Library/LaunchAgents/<id>.login.plist before signing:
    python packaging/macos/bundle_plists.py packaging/dist/Hearth.app
Why an agent: SMAppService.mainAppService starts the bundle with no arguments, so at login the
window opened; an agent registered with SMAppService.agentServiceWithPlistName passes --hidden."""

from __future__ import annotations

import plistlib
import sys
from pathlib import Path

BUNDLE_ID = "app.hearth.Hearth"
EXECUTABLE = "Contents/MacOS/Hearth"


def login_agent_name(bundle_id: str = BUNDLE_ID) -> str:
    """The agent's file name; app/ui/shell/autostart.py registers the same name."""
    return f"{bundle_id}.login.plist"


def info_plist(version: str, min_macos: str) -> dict[str, object]:
    return {
        "CFBundleName": "Hearth",
        "CFBundleDisplayName": "Hearth",
        "CFBundleShortVersionString": version,
        "CFBundleVersion": version,
        # The oldest macOS whose mlx/mlx-metal wheels macos/build.sh installs (MLX needs 14).
        "LSMinimumSystemVersion": min_macos,
        "NSHighResolutionCapable": True,
        "LSApplicationCategoryType": "public.app-category.productivity",
        "NSHumanReadableCopyright": "Apache-2.0",
        # macOS 15 blocks connections to the local network (a remote engine on another
        # computer) without asking, unless the app says why it wants them.
        "NSLocalNetworkUsageDescription": (
            "Hearth connects to a model server on your local network only when you choose one "
            "as its engine (Settings > Engine > Remote server)."),
    }


def login_agent(bundle_id: str = BUNDLE_ID) -> dict[str, object]:
    """Runs the bundle's own executable with --hidden at login, in the user's GUI session."""
    return {
        "Label": f"{bundle_id}.login",
        "BundleProgram": EXECUTABLE,  # relative to the .app: survives moving the app
        "ProgramArguments": [EXECUTABLE, "--hidden"],
        "RunAtLoad": True,
        "LimitLoadToSessionType": "Aqua",
        "ProcessType": "Interactive",
        "AssociatedBundleIdentifiers": [bundle_id],
    }


def install_login_agent(app: Path, bundle_id: str = BUNDLE_ID) -> Path:
    folder = app / "Contents" / "Library" / "LaunchAgents"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / login_agent_name(bundle_id)
    path.write_bytes(plistlib.dumps(login_agent(bundle_id)))
    return path


if __name__ == "__main__":
    print(install_login_agent(Path(sys.argv[1]), *(sys.argv[2:3] or [BUNDLE_ID])))
