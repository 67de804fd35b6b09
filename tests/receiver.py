"""A real HTTP server on 127.0.0.1 that records what webhooks post to it."""

from __future__ import annotations

import json
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.conftest import SERVER_POLL_SECONDS


@dataclass(frozen=True, slots=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    method: str = "POST"

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def event(self) -> str:
        return self.headers["X-League-Event"]


@dataclass
class Receiver:
    url: str
    received: list[Received] = field(default_factory=list)
    #: Statuses to answer, in turn; once used up, 204.
    statuses: list[int] = field(default_factory=list)
    #: The Location sent with a 3xx status.
    location: str | None = None

    def events(self) -> list[str]:
        return [r.event for r in self.received]


@contextmanager
def receiver(tls: ssl.SSLContext | None = None) -> Iterator[Receiver]:
    """A receiver listening on a free port of 127.0.0.1 for the block's duration
    (over TLS with the server context `tls`)."""
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            received = Received(self.path, dict(self.headers.items()), body, self.command)
            state.received.append(received)
            status = state.statuses.pop(0) if state.statuses else 204
            self.send_response(status)
            if state.location and 300 <= status < 400:
                self.send_header("Location", state.location)
            self.send_header("Content-Length", "0")
            self.end_headers()

        # A stand-in for Discord's API takes these too (tests/web/test_discord_*.py).
        do_PUT = do_POST
        do_PATCH = do_POST

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet tests

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    scheme = "https" if tls else "http"
    state.url = f"{scheme}://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": SERVER_POLL_SECONDS}, daemon=True
    )
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
