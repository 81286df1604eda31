"""packaging/macos/check_minos.py: a binary built for a newer macOS than the app promises fails."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

OTOOL = """Load command 3
          cmd LC_LOAD_DYLIB
      cmdsize 56
         name @rpath/libmlx.dylib (offset 24)
   time stamp 2 Thu Jan  1 00:00:02 1970
      current version 0.32.4
compatibility version 0.0.0
Load command 9
      cmd LC_BUILD_VERSION
  cmdsize 32
 platform 1
    minos {minos}
      sdk 15.2
"""


def _fake_app(tmp_path: Path, minos: dict[str, str], check_minos: Any,
              monkeypatch: pytest.MonkeyPatch) -> Path:
    app = tmp_path / "Hearth.app"
    for rel in minos:
        path = app / "Contents" / "Frameworks" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\xcf\xfa\xed\xfe" + b"\0" * 16)  # 64-bit Mach-O magic
    (app / "Contents" / "Resources").mkdir(parents=True)
    (app / "Contents" / "Resources" / "hearth.qss").write_text("QWidget {}")  # not Mach-O

    def otool(cmd: list[str], **_kw: Any) -> subprocess.CompletedProcess[str]:
        name = Path(cmd[-1]).relative_to(app / "Contents" / "Frameworks").as_posix()
        return subprocess.CompletedProcess(cmd, 0, OTOOL.format(minos=minos[name]), "")

    monkeypatch.setattr(check_minos.subprocess, "run", otool)
    return app


def test_a_binary_for_a_newer_macos_fails_the_build(
        tmp_path: Path, check_minos: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    app = _fake_app(tmp_path, {"mlx/lib/libmlx.dylib": "15.0", "llama_cpp/lib/libllama.dylib":
                               "14.0"}, check_minos, monkeypatch)
    assert check_minos.main(["check_minos.py", str(app), "14.0"]) == 1
    out = capsys.readouterr().out
    assert "mlx/lib/libmlx.dylib needs macOS 15.0" in out  # minos, not the dylib's version
    assert "libllama" not in out


def test_binaries_for_the_minimum_or_older_pass(
        tmp_path: Path, check_minos: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _fake_app(tmp_path, {"mlx/lib/libmlx.dylib": "14.0", "libpython3.11.dylib": "11.0"},
                    check_minos, monkeypatch)
    assert check_minos.main(["check_minos.py", str(app), "14.0"]) == 0
