"""Serving the app with uvicorn on a socket bound before start, so the address printed
is the one listening (port 0 picks a free port).

SIGTERM and SIGINT stop the server at once: every worker process is killed (busy or
not) and the process exits with 128 + the signal's number, without uvicorn's graceful
wait for the requests in flight (which hung behind a busy worker and printed tracebacks).
"""

from __future__ import annotations

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

    server = Server(uvicorn.Config(create_app(work), log_level=log_level))
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
    server = uvicorn.Server(uvicorn.Config(create_app(work), log_level="warning",
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
