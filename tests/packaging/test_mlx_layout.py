"""packaging/macos/check_mlx.py: MLX finds its metallib only beside the libmlx that dyld loads.

The app trees here hold real Mach-O load commands (written by `_macho`), so the checker reads
them exactly as it reads a built Hearth.app on a Mac."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LC_LOAD_DYLIB, LC_RPATH = 0xC, 0x8000001C


def _command(cmd: int, text: str, header: int) -> bytes:
    name = text.encode() + b"\0"
    size = (header + len(name) + 7) // 8 * 8
    fixed = struct.pack("<III", cmd, size, header) + b"\0" * (header - 12)
    return (fixed + name).ljust(size, b"\0")


def _macho(dylibs: list[str], rpaths: list[str] = ()) -> bytes:  # type: ignore[assignment]
    commands = [_command(LC_LOAD_DYLIB, d, 24) for d in dylibs]
    commands += [_command(LC_RPATH, r, 12) for r in rpaths]
    body = b"".join(commands)
    header = struct.pack("<IiiIIIII", 0xFEEDFACF, 0x0100000C, 0, 6, len(commands), len(body),
                         0, 0)
    return header + body


def _fat(thin: bytes) -> bytes:
    offset = 4096
    header = struct.pack(">II", 0xCAFEBABE, 1) + struct.pack(">5I", 0x0100000C, 0, offset,
                                                             len(thin), 12)
    return header.ljust(offset, b"\0") + thin


def _app(tmp_path: Path, rpaths: list[str], fat: bool = False, metallib: bool = True,
         top_copy: bool = False) -> Path:
    app = tmp_path / "Hearth.app"
    frameworks = app / "Contents" / "Frameworks"
    lib = frameworks / "mlx" / "lib"
    lib.mkdir(parents=True)
    (app / "Contents" / "MacOS").mkdir()
    (lib / "libmlx.dylib").write_bytes(_macho(["/usr/lib/libc++.1.dylib"]))
    if metallib:
        resources = app / "Contents" / "Resources" / "mlx" / "lib"
        resources.mkdir(parents=True)
        (resources / "mlx.metallib").write_bytes(b"MTLB")
        # PyInstaller keeps data in Resources and links it into Frameworks beside the binaries.
        (lib / "mlx.metallib").symlink_to(resources / "mlx.metallib")
    if top_copy:
        (frameworks / "libmlx.dylib").write_bytes(_macho([]))
    core = _macho(["@rpath/libmlx.dylib", "/usr/lib/libSystem.B.dylib"], rpaths)
    (frameworks / "mlx" / "core.cpython-311-darwin.so").write_bytes(_fat(core) if fat else core)
    return app


def test_the_wheel_layout_passes(tmp_path: Path, check_mlx: Any) -> None:
    app = _app(tmp_path, ["@loader_path/lib"])
    assert check_mlx.check_app(app) == []
    assert check_mlx.main([str(app), "--mlx-version", "0.32.4"]) == 0


def test_a_fat_core_is_read_at_its_arm64_slice(tmp_path: Path, check_mlx: Any) -> None:
    assert check_mlx.check_app(_app(tmp_path, ["@loader_path/lib"], fat=True)) == []


def test_a_second_libmlx_at_the_top_of_frameworks_fails(tmp_path: Path, check_mlx: Any) -> None:
    problems = check_mlx.check_app(_app(tmp_path, ["@loader_path/.."], top_copy=True))
    assert problems and "exactly one libmlx.dylib" in problems[0]


def test_rpaths_that_reach_no_libmlx_fail(tmp_path: Path, check_mlx: Any) -> None:
    problems = check_mlx.check_app(_app(tmp_path, ["@loader_path/../nowhere"]))
    assert problems and "resolves to no file" in problems[0]


def test_a_missing_metallib_fails(tmp_path: Path, check_mlx: Any,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    app = _app(tmp_path, ["@loader_path/lib"], metallib=False)
    assert check_mlx.main([str(app)]) == 1
    assert "mlx.metallib is not beside the loaded libmlx" in capsys.readouterr().out


def test_an_mlx_version_with_unread_loading_rules_fails(check_mlx: Any) -> None:
    assert check_mlx.check_version("0.32.4") == []
    assert "not a version whose metallib lookup" in check_mlx.check_version("0.33.0")[0]


def test_the_pin_matches_the_versions_the_check_knows(check_mlx: Any) -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = [d for d in project["dependencies"] if d.startswith("mlx")]
    assert any("mlx>=0.32" in d.replace(" ", "") and "<0.33" in d for d in pins), pins
