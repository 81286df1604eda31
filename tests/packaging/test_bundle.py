"""The Linux bundle: PyInstaller builds it from packaging/hearth.spec and it passes the smoke test.

About 2.5 minutes on a 2-core box (build ~2 min, smoke test ~25 s); PyInstaller's work folder
is cached in tests/.cache: a rerun with no module changed skips the analysis (~3 s to build),
one that changed any module analyses everything again."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "tests" / ".cache"
SMOKE = ROOT / "packaging" / "smoke_test.py"

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="macOS and Windows bundles are built and smoke-tested in CI")


def test_linux_bundle_builds_and_passes_the_smoke_test(tiny_model: Any, tmp_path: Path) -> None:
    pytest.importorskip("PyInstaller")
    dist = tmp_path / "dist"
    try:
        build = subprocess.run(
            [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
             "--distpath", str(dist), "--workpath", str(CACHE / "pyinstaller-work"),
             str(ROOT / "packaging" / "hearth.spec")],
            capture_output=True, text=True, cwd=ROOT, timeout=1200)
        assert build.returncode == 0, build.stderr[-3000:]
        smoke = subprocess.run(
            [sys.executable, str(SMOKE), str(dist), "--model-dir",
             str(tiny_model.gguf_path.parent)],
            capture_output=True, text=True, cwd=ROOT, timeout=900)
        assert smoke.returncode == 0, smoke.stdout[-3000:] + smoke.stderr[-2000:]
        assert "smoke test passed" in smoke.stdout
    finally:
        shutil.rmtree(dist, ignore_errors=True)  # ~300 MB: do not leave it in pytest's tmp


def test_smoke_test_rejects_test_files_caches_weights_and_oversize(tmp_path: Path) -> None:
    """The content check itself: a bundle with leftovers, or too big, fails with their names."""
    sys.path.insert(0, str(SMOKE.parent))
    try:
        import smoke_test
    finally:
        sys.path.remove(str(SMOKE.parent))
    bundle = tmp_path / "Hearth"
    (bundle / "_internal" / "tests").mkdir(parents=True)
    (bundle / "_internal" / "app" / "__pycache__").mkdir(parents=True)
    (bundle / "_internal" / "model.gguf").write_bytes(b"GGUF")
    (bundle / "_internal" / "conftest.py").write_text("")
    (bundle / "hearth").write_bytes(b"\0" * 2 * 2**20)
    problems = smoke_test.check_contents(bundle, max_mb=1)
    text = "\n".join(problems)
    for leftover in ("tests", "__pycache__", "model.gguf", "conftest.py", "over the 1 MB limit"):
        assert leftover in text
    clean = tmp_path / "clean"
    (clean / "_internal").mkdir(parents=True)
    (clean / "hearth").write_bytes(b"\0" * 1024)
    assert smoke_test.check_contents(clean, max_mb=1) == []
