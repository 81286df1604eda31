"""Runs the server on uvicorn: in the foreground for `hearth serve`, or on a thread of the app."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import threading
from collections.abc import Callable, Coroutine, Generator
from dataclasses import dataclass, field

import uvicorn

from app.core.runner import ModelRunner
from app.core.server.guard import Guard, base_url, local_address
from app.core.server.log import RequestLog
from app.core.server.proposals import ProposalDesk
from app.core.server.routes import Endpoints, ServerState


@dataclass
class ServerConfig:
    """Where to listen and who may call. Callables so a new key or origin applies at once."""

    api_key: Callable[[], str]
    host: str = "127.0.0.1"
    port: int = 8484  # 0: any free port (tests)
    cors_origins: Callable[[], list[str]] = field(default=lambda: [])
    default_max_tokens: Callable[[], int] = field(default=lambda: 4096)


class _Uvicorn(uvicorn.Server):
    """uvicorn, told to stop from our code or our signal handlers, never re-raising the signal
    (a clean stop exits 0) and cancelling generations first, so streams end with an error."""

    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_exit = on_exit

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = {sig: signal.signal(sig, self.handle_exit)
                    for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: object) -> None:
        self._on_exit()
        if self.should_exit and sig == signal.SIGINT:
            self.force_exit = True
        self.should_exit = True


class ApiServer:
    """One OpenAI-compatible server over the app's ModelRunner (never a second model)."""

    def __init__(self, runner: ModelRunner, config: ServerConfig, log: RequestLog | None = None,
                 loading: Callable[[], bool] = lambda: False,
                 proposals: ProposalDesk | None = None) -> None:
        self.config = config
        self.log = log or RequestLog()
        self.state = ServerState(runner, self.log, config.default_max_tokens, loading,
                                 proposals)
        self._socket: socket.socket | None = None
        self._server: _Uvicorn | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        self._failure: BaseException | None = None

    @property
    def url(self) -> str:
        """The base URL clients use (…/v1); known once bound."""
        return base_url(local_address(self.config.host), self.port)

    @property
    def port(self) -> int:
        if self._socket is None:
            return self.config.port
        return int(self._socket.getsockname()[1])

    @property
    def running(self) -> bool:
        return self._started.is_set() and self._server is not None and not self._server.should_exit

    @property
    def api_requests(self) -> int:
        """API generations running or waiting now (for the status bar)."""
        return self.state.api_waiting

    def bind(self) -> None:
        """Claim the port now, so a busy port is a readable error before anything starts."""
        if self._socket is not None:
            return
        family = socket.AF_INET6 if ":" in self.config.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        if os.name != "nt":  # on Windows SO_REUSEADDR would let another program share the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.config.host, self.config.port))
        except OSError as exc:
            sock.close()
            raise OSError(exc.errno, f"Cannot listen on {self.config.host}:{self.config.port}: "
                          f"{exc.strerror}") from exc
        sock.listen(128)
        self._socket = sock

    def asgi(self) -> Guard:
        return Guard(Endpoints(self.state).app(), self.config.api_key, self.config.host,
                     self.config.cors_origins)

    def serve(self, on_listening: Callable[[], None] | None = None) -> None:
        """Serve in the foreground until SIGINT/SIGTERM or stop() (the `hearth serve` way)."""
        self.bind()
        _run(self._serve(on_listening))
        if self._failure is not None:
            raise self._failure

    def start(self) -> None:
        """Serve on a thread of its own (inside the app); returns once it accepts requests."""
        self.bind()
        self._thread = threading.Thread(target=self._thread_main, name="hearth-api-server",
                                        daemon=True)
        self._thread.start()
        self._started.wait(30)
        if self._failure is not None:
            raise self._failure

    def stop(self, timeout: float = 10.0) -> None:
        """Cut off generations, stop listening and wait for the thread."""
        loop, server = self._loop, self._server
        if loop is not None and server is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._request_exit)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def stop_soon(self) -> None:
        """Ask the server to stop, from any thread, without waiting."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._request_exit)

    def _request_exit(self) -> None:
        self.state.shutdown()
        if self._server is not None:
            self._server.should_exit = True

    def _thread_main(self) -> None:
        try:
            _run(self._serve(None))
        except BaseException as exc:  # noqa: BLE001 - reported to start()'s caller
            self._failure = exc
        finally:
            self._started.set()

    async def _serve(self, on_listening: Callable[[], None] | None) -> None:
        self._loop = asyncio.get_running_loop()
        config = uvicorn.Config(self.asgi(), log_level="warning", access_log=False,
                                timeout_graceful_shutdown=5, lifespan="off")
        loop = self._loop

        def on_signal() -> None:  # in a signal handler: hand the work to the loop
            loop.call_soon_threadsafe(self.state.shutdown)

        self._server = _Uvicorn(config, on_signal)
        assert self._socket is not None
        task = asyncio.create_task(self._server.serve(sockets=[self._socket]))
        while not self._server.started and not task.done():
            await asyncio.sleep(0.01)
        if self._server.started:
            self._started.set()
            if on_listening is not None:
                on_listening()
        await task


def _run(main: Coroutine[object, object, None]) -> None:
    """Run the server's loop: uvloop where it exists (Linux, macOS), asyncio's own elsewhere.

    Every streamed token is a wake-up of the loop from the model thread and an SSE write;
    uvloop does both in C, with far less Python work on the core the engine also needs."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(main)
        return
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(main)
