"""/health while the model loads, and `hearth serve` failing to start with a readable line."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from pathlib import Path

from app.core.runner import ModelRunner
from app.core.server.service import ApiServer, ServerConfig
from tests.server.served import ROOT


def test_health_is_503_with_retry_after_while_loading_then_ok() -> None:
    runner = ModelRunner()
    loading = [True]
    server = ApiServer(runner, ServerConfig(api_key=lambda: "k" * 20, port=0),
                       loading=lambda: loading[0])
    server.start()
    try:
        def health() -> tuple[int, dict[str, str], dict[str, str]]:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            conn.request("GET", "/health")
            response = conn.getresponse()
            body = json.loads(response.read())
            conn.close()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, body

        status, headers, body = health()
        assert status == 503 and headers["retry-after"] == "2" and body["status"] == "loading"
        loading[0] = False
        status, _, body = health()
        assert status == 503 and body["status"] == "no_model"
        from backends.scripted import ScriptedBackend

        runner.load(ScriptedBackend()).result(30)
        status, _, body = health()
        assert status == 200 and body == {"status": "ok", "model": "scripted", "queue": 0}
    finally:
        server.stop()
        runner.close()


def test_a_port_in_use_is_refused_as_busy(tmp_path: Path) -> None:
    import socket

    (tmp_path / "script.json").write_text('["hi"]', encoding="utf-8")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "app.main", "serve", "--engine", "scripted", "--script",
             str(tmp_path / "script.json"), "--port", str(taken.getsockname()[1])],
            capture_output=True, text=True, timeout=120, cwd=ROOT,
            env={"HEARTH_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT),
                 "PATH": "/usr/bin:/bin"})
    finally:
        taken.close()
    assert done.returncode == 9, done.stderr  # busy
    assert "Cannot listen on 127.0.0.1" in done.stderr and "Traceback" not in done.stderr


def test_serve_with_a_missing_model_fails_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.main", "serve", "--port", "0", "--model",
         str(tmp_path / "missing.gguf")], capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={"HEARTH_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT),
             "PATH": "/usr/bin:/bin"})
    assert done.returncode == 4, done.stderr  # model_bad
    assert "missing.gguf" in done.stderr and "Traceback" not in done.stderr
