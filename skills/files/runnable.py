"""Whether opening a file would run a program: executables, launchers and scripts, any platform.

"Open in its default application" hands a launcher (.desktop, .lnk, .command, .app ...) or a
script to something that runs it, so open_file refuses these and shows them in the file manager
instead. The check looks at the name, the executable bit and the first bytes, because each
platform decides by a different one of those, and a file can lie in any single one.
"""

from __future__ import annotations

import os
import stat

# Names every desktop runs, launches or installs rather than shows (lower case, no dot).
RUNNABLE_EXTENSIONS = frozenset({
    # Linux and other freedesktop systems
    "desktop", "appimage", "run", "bin", "sh", "bash", "zsh", "csh", "ksh", "fish", "deb",
    "rpm", "flatpakref", "snap",
    # macOS
    "app", "command", "tool", "workflow", "action", "scpt", "scptd", "applescript", "terminal",
    "pkg", "mpkg", "dylib", "kext", "prefpane", "webloc", "inetloc", "fileloc",
    # Windows
    "exe", "com", "bat", "cmd", "msi", "msp", "mst", "msc", "scr", "pif", "cpl", "lnk", "url",
    "reg", "hta", "ps1", "psm1", "psd1", "vbs", "vbe", "js", "jse", "wsf", "wsh", "wsc", "sct",
    "inf", "gadget", "application", "appref-ms", "library-ms", "settingcontent-ms", "scf",
    "dll", "sys", "msix", "appx", "appxbundle", "msixbundle",
    # interpreters any platform may be set to run on double-click
    "py", "pyw", "pyz", "pyc", "pl", "rb", "php", "jar", "jnlp", "lua", "tcl", "vb", "ws",
})

# First bytes of programs and launchers: ELF, PE/DOS, Mach-O (both ends, fat), shebang.
_MAGIC = (b"\x7fELF", b"MZ", b"\xfe\xed\xfa\xce", b"\xfe\xed\xfa\xcf", b"\xce\xfa\xed\xfe",
          b"\xcf\xfa\xed\xfe", b"\xca\xfe\xba\xbe", b"#!")
_LAUNCHER_TEXT = (b"[desktop entry]", b"[internetshortcut]", b"[shell]")
_SNIFF_BYTES = 512


def runnable_reason(path: str) -> str | None:
    """Why opening `path` would run something (a short phrase), or None when it is a document."""
    name = os.path.basename(path.rstrip("/\\"))
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if extension in RUNNABLE_EXTENSIONS:
        return f"a .{extension} file is a program, launcher or script"
    try:
        info = os.stat(path)
    except OSError:
        return None  # opening it fails anyway, with its own message
    if stat.S_ISDIR(info.st_mode):
        return None
    if not stat.S_ISREG(info.st_mode):
        return "it is not a regular file"
    # The executable bit alone is no sign (FAT and NTFS mounts set it on every file), but an
    # executable file with no extension is what desktops hand to the kernel to run.
    executable = info.st_mode & (stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    if os.name != "nt" and executable and not extension:
        return "it is an executable file"
    return _sniffed(path)


def _sniffed(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError:
        return None
    if head.startswith(_MAGIC):
        return "its contents are a program or script"
    lowered = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if lowered.startswith(_LAUNCHER_TEXT):
        return "its contents are a launcher"
    return None
