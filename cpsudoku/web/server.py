"""Serving the app with uvicorn on a socket bound before start, so the address printed
is the one listening (port 0 picks a free port).

SIGTERM and SIGINT stop the server at once: every worker process is killed (busy or
not) and the process exits with 128 + the signal's number, without uvicorn's graceful
wait for the requests in flight (which hung behind a busy worker and printed tracebacks).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from .workers import Workers


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, or a UsageError naming the address that cannot be used."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise UsageError(f"--host {host!r}: {exc.strerror}") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


# Connections that hold a socket without asking anything are closed: one idle after an
# answer after KEEP_ALIVE_S (uvicorn's keep-alive timeout), one that has not sent a
# request's complete headers REQUEST_HEADERS_S after it opened or after its last answer
# (nothing sent at all, or headers trickling in a byte at a time).
KEEP_ALIVE_S = 5
REQUEST_HEADERS_S = 10


def protocol(headers_s: float = REQUEST_HEADERS_S):
    """uvicorn's h11 protocol, closing a connection whose request headers are not
    complete `headers_s` after it opened or after its last answer. uvicorn's own
    keep-alive timer does not cover this: any byte received stops it."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Protocol(H11Protocol):
        _headers_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._headers_timer is not None:
                self._headers_timer.cancel()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._headers_timer is not None:
                self._headers_timer.cancel()
            if not self.transport.is_closing():
                self._headers_timer = self.loop.call_later(headers_s, self._headers_late)

        def _headers_late(self) -> None:
            self._headers_timer = None
            # A request whose headers came in time is being answered (within its own
            # time limit): only a connection between requests is closed.
            if (self.cycle is None or self.cycle.response_complete) \
                    and not self.transport.is_closing():
                self.transport.close()

    return Protocol


def config(app, **options):
    """uvicorn's settings for the play server: the idle limits above."""
    import uvicorn
    return uvicorn.Config(app, http=protocol(), timeout_keep_alive=KEEP_ALIVE_S, **options)


def serve(host: str = "127.0.0.1", port: int = 0,
          ready: Callable[[str], None] | None = None, log_level: str = "warning") -> None:
    """Run until interrupted; `ready(url)` is called once the socket listens."""
    import uvicorn

    from .app import create_app
    from .workers import Workers
    sock = bind(host, port)
    work = Workers()

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame) -> None:
            work.close()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(128 + sig)  # 143 on SIGTERM, 130 on SIGINT

    server = Server(config(create_app(work), log_level=log_level))
    if ready is not None:
        ready(url_of(sock))
    try:
        server.run(sockets=[sock])
    finally:
        work.close()
        sock.close()


@contextlib.contextmanager
def running(host: str = "127.0.0.1", port: int = 0,
            workers: Workers | None = None) -> Iterator[str]:
    """The server in a background thread for the `with` block; yields its address
    (used by the browser tests and the benchmark); `workers` to watch its processes."""
    import uvicorn

    from .app import create_app
    from .workers import Workers
    sock = bind(host, port)
    work = workers or Workers()
    server = uvicorn.Server(config(create_app(work), log_level="warning",
                                  timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    if not server.started:
        server.should_exit = True
        sock.close()
        raise RuntimeError(f"the play server did not start on {url_of(sock)}")
    try:
        yield url_of(sock)
    finally:
        work.close()  # requests in flight end now, so the server stops at once
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
