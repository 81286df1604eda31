"""Fail the build unless MLX in Hearth.app will find its Metal kernels the way its version looks.

Usage: python packaging/macos/check_mlx.py Hearth.app [--mlx-version 0.32.4]

How MLX 0.32.x finds `mlx.metallib` (mlx/backend/metal/device.cpp, load_default_library, and
mlx/backend/common/utils.cpp, current_binary_dir, at tags v0.32.0-v0.32.1):
1. a path set with the C++ `metal::set_metallib_path()` (not exposed to Python, so never here);
2. `<dir>/mlx.metallib`, then 3. `<dir>/Resources/mlx.metallib`, where <dir> is the folder of the
   image that holds libmlx's code, as `dladdr` reports it: the libmlx.dylib that dyld loaded
   for `mlx/core*.so`;
4. a SwiftPM bundle's default.metallib, 5. `<dir>/Resources/default.metallib`, 6. the build
   machine's compile-time path, none of which exists in an app bundle.
So the bundle must hold exactly one libmlx.dylib, core*.so must resolve its `@rpath/libmlx.dylib`
to that file through its own LC_RPATH entries (dyld's order), and mlx.metallib must sit beside
it. A second copy of libmlx at the top of Contents/Frameworks (what broke mlx 0.32 bundles
elsewhere) would be loaded instead, with no metallib beside it: "Failed to load the default
metallib". The file is read directly (Mach-O load commands), so this check also runs, and is
tested, off a Mac."""

from __future__ import annotations

import argparse
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

SUPPORTED = ((0, 32),)  # MLX minor versions whose loading rules are the ones above
LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB, LC_RPATH = 0xC, 0x80000018, 0x8000001F, \
    0x8000001C
DYLIB_LOADS = {LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB}
MH_MAGIC_64 = 0xFEEDFACF
FAT_MAGIC = 0xCAFEBABE
CPU_TYPE_ARM64 = 0x0100000C


@dataclass
class MachO:
    """The load commands of one Mach-O image (the arm64 slice of a fat file)."""

    dylibs: list[str] = field(default_factory=list)
    rpaths: list[str] = field(default_factory=list)


def _c_string(blob: bytes, start: int) -> str:
    end = blob.find(b"\0", start)
    return blob[start:end if end >= 0 else len(blob)].decode("utf-8", "replace")


def _thin(blob: bytes, base: int) -> MachO:
    magic, = struct.unpack_from("<I", blob, base)
    if magic != MH_MAGIC_64:
        raise ValueError("not a 64-bit little-endian Mach-O image")
    ncmds, = struct.unpack_from("<I", blob, base + 16)
    found, offset = MachO(), base + 32
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", blob, offset)
        name_at, = struct.unpack_from("<I", blob, offset + 8)
        if cmd in DYLIB_LOADS:
            found.dylibs.append(_c_string(blob, offset + name_at))
        elif cmd == LC_RPATH:
            found.rpaths.append(_c_string(blob, offset + name_at))
        offset += size
    return found


def read_macho(path: Path) -> MachO:
    blob = path.read_bytes()
    magic, = struct.unpack_from(">I", blob, 0)
    if magic != FAT_MAGIC:
        return _thin(blob, 0)
    count, = struct.unpack_from(">I", blob, 4)
    for index in range(count):
        cpu, _sub, offset, _size, _align = struct.unpack_from(">5I", blob, 8 + 20 * index)
        if cpu == CPU_TYPE_ARM64:
            return _thin(blob, offset)
    raise ValueError("no arm64 slice")


def _expand(path: str, loader: Path, executable_dir: Path) -> Path:
    path = path.replace("@loader_path", str(loader.parent))
    return Path(path.replace("@executable_path", str(executable_dir)))


def resolve(install_name: str, image: Path, macho: MachO, executable_dir: Path) -> Path | None:
    """The file dyld opens for `install_name` loaded by `image` (None: not found)."""
    if install_name.startswith("@rpath/"):
        rest = install_name[len("@rpath/"):]
        candidates = [_expand(rpath, image, executable_dir) / rest for rpath in macho.rpaths]
    else:
        candidates = [_expand(install_name, image, executable_dir)]
    return next((c for c in candidates if c.exists()), None)


def check_app(app: Path) -> list[str]:
    contents = app / "Contents"
    real_libs = {p.resolve() for p in contents.rglob("libmlx.dylib")}
    problems = []
    if len(real_libs) != 1:
        listed = ", ".join(sorted(str(p.relative_to(contents.resolve())) for p in real_libs))
        return [f"expected exactly one libmlx.dylib in the app, found {len(real_libs)}: {listed}"]
    cores = sorted(p for p in contents.rglob("core*.so") if p.parent.name == "mlx")
    if not cores:
        return ["no mlx/core*.so in the app"]
    for core in cores:
        macho = read_macho(core)
        wanted = [d for d in macho.dylibs if d.endswith("/libmlx.dylib")]
        if not wanted:
            problems.append(f"{core.name} does not link libmlx.dylib")
            continue
        loaded = resolve(wanted[0], core, macho, contents / "MacOS")
        if loaded is None:
            problems.append(f"{core.name}: {wanted[0]} resolves to no file through "
                            f"its rpaths {macho.rpaths}")
        elif loaded.resolve() not in real_libs:
            problems.append(f"{core.name} would load {loaded}, not the bundled libmlx")
        else:
            problems += _metallib_beside(loaded)
    return problems


def _metallib_beside(loaded: Path) -> list[str]:
    # dladdr may report the path dyld opened or its real path: both folders must serve.
    folders = {loaded.parent, loaded.resolve().parent}
    missing = [d for d in folders
               if not any((d / rel).is_file() for rel in ("mlx.metallib",
                                                          "Resources/mlx.metallib"))]
    return [f"mlx.metallib is not beside the loaded libmlx in {d}" for d in sorted(missing)]


def check_version(version: str) -> list[str]:
    major_minor = tuple(int(part) for part in version.split(".")[:2])
    if major_minor in SUPPORTED:
        return []
    return [f"mlx {version} is not a version whose metallib lookup this check was written for "
            f"(supported: {', '.join('.'.join(map(str, v)) + '.x' for v in SUPPORTED)}): "
            "read its device.cpp, update SUPPORTED and the pin in pyproject.toml"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("app", type=Path)
    parser.add_argument("--mlx-version", help="the mlx version that was bundled")
    args = parser.parse_args(argv)
    problems = check_version(args.mlx_version) if args.mlx_version else []
    problems += check_app(args.app)
    for problem in problems:
        print(f"FAIL {problem}")
    print("mlx layout ok" if not problems else f"mlx layout: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
