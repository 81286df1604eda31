"""The bundle smoke test's network checks, run on this checkout through a stand-in executable:
an HTTPS download from a CA only the trust store knows, `hearth serve` answering a chat request,
`hearth mcp serve` listing its tools to an MCP client (packaging/smoke_network.py)."""

from __future__ import annotations

import stat
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import smoke_network  # noqa: E402
import smoke_test  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a shell stand-in")


@pytest.fixture
def exe(tmp_path: Path) -> Path:
    """`hearth` from this checkout, started the way the bundle's executable is."""
    path = tmp_path / "bin" / "hearth"
    path.parent.mkdir()
    path.write_text(f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m app.main "$@"\n')
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_the_https_download_check_passes_and_fails_on_an_untrusted_ca(
        exe: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root on Linux (this machine) the CA is only in a private /etc/ssl/cert.pem with the
    compiled-in OpenSSL folder hidden; elsewhere it comes as SSL_CERT_FILE."""
    import contextlib

    monkeypatch.delenv("HEARTH_SMOKE_TRUST_OS", raising=False)
    assert smoke_network.check_https_download(exe, tmp_path / "home",
                                              smoke_test.bundle_env) == []
    monkeypatch.setattr(smoke_network, "_trusted",
                        lambda _ca: contextlib.nullcontext(([], {})))  # trusted nowhere
    untrusted = smoke_network.check_https_download(exe, tmp_path / "other",
                                                   smoke_test.bundle_env)
    assert untrusted and "CERTIFICATE_VERIFY_FAILED" in untrusted[0]


def test_the_serve_check_gets_a_chat_answer_on_loopback(exe: Path, tmp_path: Path,
                                                        tiny_model: Any) -> None:
    assert smoke_network.check_serve(exe, tmp_path / "home", tiny_model.gguf_path,
                                     smoke_test.bundle_env) == []


def test_the_mcp_serve_check_lists_tools(exe: Path, tmp_path: Path) -> None:
    assert smoke_network.check_mcp_serve(exe, tmp_path / "home", smoke_test.bundle_env) == []
