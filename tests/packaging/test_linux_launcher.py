"""The Linux launcher: install.sh from the unpacked folder puts Hearth in the application menu
with an absolute Exec= (the old entry said `Exec=hearth`, which works only if the folder is on
the session's PATH) and its icon."""

from __future__ import annotations

import configparser
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.packaging.test_autostart import _spec_args

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="XDG application menus")


def test_install_sh_writes_an_absolute_exec_and_the_icon_and_remove_takes_them(
        tmp_path: Path) -> None:
    folder = tmp_path / "My Apps" / "Hearth"  # a space in the path, as people unpack to
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "packaging" / "linux" / "install.sh", folder)
    stand_in = folder / "hearth"  # the bundle's executable, here this checkout
    stand_in.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m app.main "$@"\n')
    stand_in.chmod(stand_in.stat().st_mode | stat.S_IEXEC)
    data = tmp_path / "share"
    env = {**os.environ, "XDG_DATA_HOME": str(data), "HEARTH_HOME": str(tmp_path / "home"),
           "PATH": "/usr/bin:/bin"}  # the session PATH does not have the folder
    subprocess.run(["bash", str(folder / "install.sh")], check=True, env=env, timeout=300,
                   capture_output=True)
    entry_path = data / "applications" / "hearth.desktop"
    entry = configparser.ConfigParser(interpolation=None)
    entry.read(entry_path)
    section = entry["Desktop Entry"]
    command = _spec_args(section["Exec"])
    assert Path(command[0]).is_absolute() and Path(command[0]).exists()
    icon = Path(section["Icon"])
    assert icon.is_absolute() and icon.read_bytes().startswith(b"<")  # the SVG
    ran = subprocess.run([*command, "--version"], capture_output=True, text=True, env=env,
                         timeout=120, cwd=tmp_path)
    assert ran.stdout.startswith("hearth ")  # what the menu starts is Hearth
    if shutil.which("desktop-file-validate"):
        proc = subprocess.run(["desktop-file-validate", str(entry_path)], capture_output=True,
                              text=True)
        assert proc.returncode == 0, proc.stdout
    subprocess.run(["bash", str(folder / "install.sh"), "--remove"], check=True, env=env,
                   timeout=300, capture_output=True)
    assert not entry_path.exists() and not icon.exists()
