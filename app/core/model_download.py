"""Resumable, verified model downloads (no Qt here: runs on a worker thread, testable alone).

huggingface_hub finds each file's URL, size and sha256 (hf_hub_url + get_hf_file_metadata);
the bytes come through our own ranged GET into `<name>.part`, so pause, a crash or a restart
resumes where it stopped (`Range: bytes=N-`). The finished file is checked against its sha256
before it takes its final name: a bad download is never used. The GET goes through the same
client and OS trust store as everything else (backends/https.py): urllib's default context
holds no certificates in a frozen bundle on macOS and most non-Debian Linux."""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.model_catalog import Build

if TYPE_CHECKING:
    import httpx2

CHUNK = 1 << 20
TIMEOUT_S = 30
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class DownloadError(Exception):
    """A readable reason the download stopped; the user can retry."""


class ChecksumMismatch(DownloadError):
    """The finished bytes are not the published file; the partial file was deleted."""


class Paused(Exception):
    """pause() was called; the .part file stays for a later resume."""


@dataclass(frozen=True)
class RemoteFile:
    name: str  # path inside the repo (and inside the target folder)
    url: str
    size: int | None
    sha256: str  # "" when the server gives no sha256 (small non-LFS files)


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    bytes_per_second: float
    file: str


def resolve(build: Build, endpoint: str) -> list[RemoteFile]:
    """Ask the Hub (or the configured endpoint) for URLs, sizes and sha256 of the build's files."""
    from huggingface_hub import HfApi, get_hf_file_metadata, hf_hub_url

    names = [build.filename] if build.kind == "gguf" else sorted(
        HfApi(endpoint=endpoint).list_repo_files(build.repo))
    files = []
    for name in names:
        url = hf_hub_url(build.repo, name, endpoint=endpoint)
        meta = get_hf_file_metadata(url)
        etag = (meta.etag or "").strip('"').lower()
        files.append(RemoteFile(name, meta.location or url, meta.size,
                                etag if _SHA256.match(etag) else ""))
    return files


class Downloader:
    """Downloads files into a folder; `pause()` from any thread stops between chunks."""

    def __init__(self, folder: Path, on_progress: Callable[[Progress], None] | None = None,
                 headers: dict[str, str] | None = None) -> None:
        self.folder = folder
        self._on_progress = on_progress or (lambda _p: None)
        self._headers = headers or {}
        self._stop = threading.Event()
        self._window: list[tuple[float, int]] = []

    def pause(self) -> None:
        self._stop.set()

    @property
    def paused(self) -> bool:
        return self._stop.is_set()

    def run(self, files: list[RemoteFile]) -> Path:
        """Download (or resume) every file; returns the folder. Raises Paused or DownloadError."""
        # Imported here, on the worker thread: the manager's module loads on the GUI thread.
        from backends import https

        self.folder.mkdir(parents=True, exist_ok=True)
        total = sum(f.size or 0 for f in files)
        done_before = 0
        try:
            http = https.client(TIMEOUT_S, self._headers, env_proxies=True)
        except https.TrustStoreUnreadable as exc:
            raise DownloadError(f"Cannot download: {exc}") from exc
        with http:
            for remote in files:
                final = self.folder / remote.name
                if not (final.exists() and remote.size is not None
                        and final.stat().st_size == remote.size):
                    self._fetch(http, remote, final, done_before, total)
                done_before += remote.size or final.stat().st_size
        return self.folder

    def _fetch(self, http: httpx2.Client, remote: RemoteFile, final: Path, before: int,
               total: int) -> None:
        part = final.with_name(final.name + ".part")
        part.parent.mkdir(parents=True, exist_ok=True)
        have = part.stat().st_size if part.exists() else 0
        if remote.size is not None and have > remote.size:
            part.unlink()  # larger than the file can be: start over
            have = 0
        hasher = _hash_existing(part, have)
        have, hasher = self._stream(http, remote, part, have, hasher, before, total)
        if remote.size is not None and have != remote.size:
            raise DownloadError(f"{remote.name}: the server sent {have:,} of {remote.size:,} "
                                "bytes; try again")
        if remote.sha256 and hasher.hexdigest() != remote.sha256:
            part.unlink(missing_ok=True)
            raise ChecksumMismatch(f"{remote.name} did not match its published checksum, so it "
                                   "was deleted; download it again")
        part.replace(final)

    def _stream(self, http: httpx2.Client, remote: RemoteFile, part: Path, have: int,
                hasher: hashlib._Hash, before: int, total: int) -> tuple[int, hashlib._Hash]:
        import httpx2

        if remote.size is not None and have == remote.size:
            return have, hasher
        # The file's own bytes (no gzip on the wire): those are what the sha256 covers.
        headers = {"Accept-Encoding": "identity"} | ({"Range": f"bytes={have}-"} if have else {})
        request = http.build_request("GET", remote.url, headers=headers)
        try:
            response = http.send(request, stream=True, follow_redirects=True)
        except httpx2.HTTPError as exc:
            raise DownloadError(f"{remote.name}: could not connect ({_reason(exc)})") from exc
        try:
            if response.status_code >= 400:
                raise DownloadError(f"{remote.name}: the server answered "
                                    f"{response.status_code} {response.reason_phrase}")
            if have and response.status_code != 206:
                have = 0  # the server ignored Range: it sends everything again
                hasher = hashlib.sha256()
            chunks = response.iter_raw(CHUNK)
            have = self._copy(chunks, part, have, hasher, remote.name, before, total)
        finally:
            response.close()  # mid-body (a pause): the connection is dropped
        return have, hasher

    def _copy(self, chunks: Iterator[bytes], part: Path, have: int, hasher: hashlib._Hash,
              name: str, before: int, total: int) -> int:
        import httpx2

        mode = "ab" if have else "wb"
        self._window = [(time.monotonic(), before + have)]  # speed counts from here
        with part.open(mode) as out:
            while True:
                if self._stop.is_set():
                    raise Paused()
                try:
                    chunk = next(chunks, b"")
                except httpx2.HTTPError as exc:
                    raise DownloadError(f"{name}: the connection dropped ({_reason(exc)}); "
                                        "retry to continue where it stopped") from exc
                if not chunk:
                    return have
                out.write(chunk)
                hasher.update(chunk)
                have += len(chunk)
                self._report(before + have, total, name)

    def _report(self, done: int, total: int, name: str) -> None:
        now = time.monotonic()
        self._window.append((now, done))
        # Speed over the last ~3 seconds: steady, yet quick to show a stall.
        while len(self._window) > 2 and now - self._window[0][0] > 3.0:
            self._window.pop(0)
        t0, d0 = self._window[0]
        speed = (done - d0) / (now - t0) if now > t0 else 0.0
        self._on_progress(Progress(done, total, speed, name))


def _hash_existing(part: Path, size: int) -> hashlib._Hash:
    """Resuming: the sha256 covers the whole file, so hash what is already on disk first."""
    hasher = hashlib.sha256()
    if size:
        with part.open("rb") as handle:
            for block in iter(lambda: handle.read(CHUNK), b""):
                hasher.update(block)
    return hasher


def _reason(exc: BaseException) -> str:
    from backends.https import root_cause

    cause = root_cause(exc)
    return str(getattr(cause, "reason", None) or cause)
