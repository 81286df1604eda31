"""`hearth ask --json | head`: a reader that stops early ends the command quietly, as any
Unix filter would, not with a Python traceback on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.model_output import answer


def test_a_closed_pipe_ends_ask_json_without_a_traceback(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps([answer("Hello there, " * 50), "Greeting"]), encoding="utf-8")
    read, write = os.pipe()
    os.close(read)  # `head` has already read what it wanted and gone
    env = {**os.environ, "HEARTH_HOME": str(tmp_path / "home")}
    try:
        done = subprocess.run(
            [sys.executable, "-c", "import sys; from app.main import main; sys.exit(main())",
             "ask", "hello", "--engine", "scripted", "--script", str(script), "--think",
             "--json"],
            stdout=write, stderr=subprocess.PIPE, env=env, timeout=120, check=False)
    finally:
        os.close(write)
    err = done.stderr.decode()
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert "Exception ignored" not in err, err
    assert done.returncode == 141  # as any filter whose reader left (128 + SIGPIPE)
