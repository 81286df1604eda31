"""One TLS path (issue 25): downloads and the remote engine verify through the OS trust store.

A frozen bundle's OpenSSL looks for certificates only in the folder compiled into it (the build
machine's), which does not exist on macOS, Windows, Fedora, Arch or openSUSE: urllib's default
context then holds 0 certificates. These tests serve HTTPS on 127.0.0.1 with a certificate from a
CA made here, trusted only where the operating system keeps its store, never in OpenSSL's
compiled-in folder."""

from __future__ import annotations

import hashlib
import json
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpcore2._ssl
import pytest

from app.core.model_download import Downloader, DownloadError, RemoteFile
from backends.errors import RemoteError
from backends.https import trust_report
from backends.remote import RemoteBackend
from tests.backends.test_remote import WAIT, FakeServer, chunk, sse
from tests.support.fake_hub import FakeHub
from tests.support.tls import LocalCA, make_ca


@pytest.fixture
def ca(tmp_path: Path) -> LocalCA:
    return make_ca(tmp_path / "ca")


@pytest.fixture
def bundle_on_fedora(ca: LocalCA, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This process as a frozen bundle on Fedora sees it: OpenSSL's compiled-in certificate
    file and folder do not exist, and the system's bundle (where the distribution keeps it)
    holds the test CA; no SSL_CERT_* variable is set."""
    missing = str(tmp_path / "bundled-openssl-dir")
    real = ssl.get_default_verify_paths()
    monkeypatch.setattr(ssl, "get_default_verify_paths", lambda: ssl.DefaultVerifyPaths(
        None, None, real.openssl_cafile_env, f"{missing}/cert.pem", real.openssl_capath_env,
        f"{missing}/certs"))
    monkeypatch.setattr(httpcore2._ssl, "CA_FILE_CANDIDATES", [str(ca.ca_pem)])
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)


@pytest.fixture
def engine_server(ca: LocalCA) -> Iterator[FakeServer]:
    """test_remote's fake OpenAI-compatible server, speaking HTTPS."""
    fake = FakeServer()
    fake.socket = ca.server_context().wrap_socket(fake.socket, server_side=True)
    thread = threading.Thread(target=fake.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield fake
    fake.shutdown()
    fake.server_close()
    thread.join(WAIT)


@pytest.fixture
def https_hub(ca: LocalCA) -> Iterator[FakeHub]:
    hub = FakeHub(size=1 << 20, delay=0, tls=ca.server_context()).start()
    yield hub
    hub.stop()


def _remote(hub: FakeHub) -> RemoteFile:
    return RemoteFile("model.gguf", f"{hub.url}/x/resolve/main/model.gguf", len(hub.payload),
                      hub.sha256)


@pytest.mark.usefixtures("bundle_on_fedora")
def test_a_model_downloads_over_https_trusted_by_the_systems_store(
        https_hub: FakeHub, tmp_path: Path) -> None:
    folder = Downloader(tmp_path / "models").run([_remote(https_hub)])
    assert hashlib.sha256((folder / "model.gguf").read_bytes()).hexdigest() == https_hub.sha256


@pytest.mark.usefixtures("bundle_on_fedora")
def test_selftest_reports_where_tls_certificates_come_from() -> None:
    report = trust_report()
    assert report.ok and report.certificates == 1  # the test CA, from the system's bundle
    assert report.source == "certificate file"


def test_selftest_fails_when_tls_verification_has_no_certificates(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.main import main

    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setattr(httpcore2._ssl, "CA_FILE_CANDIDATES", [])
    monkeypatch.setenv("SSL_CERT_DIR", str(empty))  # an empty store: no CA to verify with
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    code = main(["selftest", "--json", "--no-window"])
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 1
    assert "no certificates" in report["checks"]["tls certificates"]


def test_an_untrusted_server_is_refused_and_nothing_is_kept(https_hub: FakeHub,
                                                            tmp_path: Path) -> None:
    with pytest.raises(DownloadError, match="could not connect.*CERTIFICATE_VERIFY_FAILED"):
        Downloader(tmp_path / "models").run([_remote(https_hub)])
    assert list((tmp_path / "models").iterdir()) == []


@pytest.mark.usefixtures("bundle_on_fedora")
def test_the_remote_engine_speaks_https_trusted_by_the_systems_store(
        engine_server: FakeServer) -> None:
    server = engine_server
    server.replies.append(sse(chunk("r</think>Bonjour", finish="stop")))
    backend = RemoteBackend(server.url.replace("http://", "https://"))
    backend.load()
    events: list[Any] = list(backend.stream([{"role": "user", "content": "Hi"}],
                                            _options(), lambda: False))
    assert events[-1].finish_reason == "stop"
    assert server.requests[0]["path"] == "/v1/models"


def test_the_remote_engine_names_a_certificate_it_cannot_verify(
        engine_server: FakeServer) -> None:
    with pytest.raises(RemoteError, match="secure connection .* failed: CERTIFICATE_VERIFY"):
        RemoteBackend(engine_server.url.replace("http://", "https://")).load()


def _options() -> Any:
    from backends.base import GenerateOptions

    return GenerateOptions()


@pytest.mark.usefixtures("bundle_on_fedora")
def test_selftest_fetch_downloads_over_https_and_checks_the_sha256(
        https_hub: FakeHub, capsys: pytest.CaptureFixture[str]) -> None:
    """What the bundle's smoke test runs (packaging/smoke_test.py), here from source."""
    from app.main import main

    url = _remote(https_hub).url
    good = main(["selftest", "--json", "--no-window", "--fetch", url, "--fetch-sha256",
                 https_hub.sha256])
    checks = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["checks"]
    assert good == 0 and checks["https download"] == "ok"
    bad = main(["selftest", "--json", "--no-window", "--fetch", url, "--fetch-sha256", "0" * 64])
    checks = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["checks"]
    assert bad == 1 and "ChecksumMismatch" in checks["https download"]


def test_an_unreadable_system_store_is_a_sentence_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, https_hub: FakeHub) -> None:
    """Seen on the frozen bundle with an empty distribution bundle file: `selftest` died with
    OpenSSL's NO_CERTIFICATE_OR_CRL_FOUND instead of reporting it."""
    empty = tmp_path / "ca-bundle.crt"
    empty.write_text("")
    monkeypatch.setenv("SSL_CERT_FILE", str(empty))
    assert not trust_report().ok and "could not be read" in trust_report().source
    with pytest.raises(DownloadError, match="trusted certificates could not be read"):
        Downloader(tmp_path / "models").run([_remote(https_hub)])
    with pytest.raises(RemoteError, match="Cannot connect securely"):
        RemoteBackend(https_hub.url).load()
