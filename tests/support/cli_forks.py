"""The real CLI, each command in a fresh process of its own, without paying its imports again.

Every `hearth` start builds the parser, which imports each command group (the assistant, the
stores, sqlite-utils): ~1.5 s on a 2-core box, most of what a quick command costs. A server
imports that once, then forks one child per command: the child is a process of its own (its
environment, rlimits, stdin, stdout and stderr pipes, exit status and interpreter shutdown),
started from the state every start reaches anyway (Linux; elsewhere each command starts as
`hearth` does). Only one command runs at a time; tests of concurrent starts spawn their own."""

from __future__ import annotations

import json
import os
import resource
import select
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from tests.support.processes import end_line_server

ROOT = Path(__file__).resolve().parents[2]

SERVER = r"""
import json, os, resource, select, signal, sys, threading
from app.main import build_parser, main
build_parser()  # imports every command group
assert threading.active_count() == 1, "forking needs a process without threads"

def child(request, out, err):
    os.environ.clear()
    os.environ.update(request["env"])
    limit = request["file_limit"]
    if limit is not None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # as the launch line: a write fails, not kills
    null = os.open(os.devnull, os.O_RDONLY)
    for fd, target in ((null, 0), (out, 1), (err, 2)):
        os.dup2(fd, target)
        os.close(fd)
    sys.exit(main(request["argv"]))  # unwinds to the top: the interpreter shuts down as usual

def serve():
    for line in sys.stdin:
        request = json.loads(line)
        # Pipes, as subprocess.run gives them (a file would fall under the file-size limit).
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            os.close(out_r)
            os.close(err_r)
            child(request, out_w, err_w)
        os.close(out_w)
        os.close(err_w)
        with open(request["pid_file"], "w") as file:  # for a client that gives up on it
            file.write(str(pid))
        chunks = {out_r: [], err_r: []}
        reading = [out_r, err_r]
        while reading:  # until both ends close, as subprocess.run reads
            for fd in select.select(reading, [], [])[0]:
                data = os.read(fd, 1 << 16)
                if data:
                    chunks[fd].append(data)
                else:
                    os.close(fd)
                    reading.remove(fd)
        _, status = os.waitpid(pid, 0)
        text = {name: b"".join(chunks[fd]).decode(errors="replace")
                for name, fd in (("stdout", out_r), ("stderr", err_r))}
        print(json.dumps({"returncode": os.waitstatus_to_exitcode(status), **text}), flush=True)

serve()
"""
# A plain start: macOS may abort a child forked after system frameworks loaded (the Security
# framework, through truststore), so there each command starts as `hearth` does.
LAUNCH = ("import signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
          "from app.main import main; sys.exit(main(sys.argv[1:]))")


class ForkingCli:
    """`run(argv, env)` as subprocess.run would give it, from a child of one server process."""

    def __init__(self) -> None:
        self._server: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        if self._server is None or self._server.poll() is not None:
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            self._server = subprocess.Popen([sys.executable, "-c", SERVER], env=env,
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            text=True, cwd=ROOT)
        return self._server

    def run(self, argv: list[str], env: Mapping[str, str], file_limit: int | None = None,
            timeout: float = 600) -> subprocess.CompletedProcess[str]:
        if sys.platform != "linux":
            return _spawn(argv, env, file_limit, timeout)
        server = self._start()
        assert server.stdin is not None and server.stdout is not None
        with tempfile.TemporaryDirectory() as folder:
            pid = Path(folder) / "pid"
            server.stdin.write(json.dumps({"argv": argv, "env": dict(env), "pid_file": str(pid),
                                           "file_limit": file_limit}) + "\n")
            server.stdin.flush()
            try:
                done = json.loads(self._line(server, timeout, argv))
            except subprocess.TimeoutExpired:
                os.kill(int(pid.read_text()), 9)
                self._line(server, timeout, argv)  # the server reaps it
                raise
        return subprocess.CompletedProcess(argv, done["returncode"], done["stdout"],
                                           done["stderr"])

    @staticmethod
    def _line(server: subprocess.Popen[str], timeout: float, argv: list[str]) -> str:
        """The server's answer: one line per command, so none waits in the pipe's buffer."""
        assert server.stdout is not None
        ready, _, _ = select.select([server.stdout], [], [], timeout)
        if not ready:
            raise subprocess.TimeoutExpired(argv, timeout)
        line = server.stdout.readline()
        if not line:
            raise RuntimeError(f"the CLI fork server ended (exit {server.wait()})")
        return line

    def close(self) -> None:
        if self._server is not None:
            end_line_server(self._server)
            self._server = None


def _spawn(argv: list[str], env: Mapping[str, str], file_limit: int | None,
           timeout: float) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
    return subprocess.run([sys.executable, "-c", LAUNCH, *argv], env=dict(env), cwd=ROOT,
                           capture_output=True, text=True, timeout=timeout, preexec_fn=limit,
                           check=False)
