"""A cap on request bodies, enforced on the bytes received (not only the header), so a
client cannot make the server buffer more than the largest puzzle needs."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException


class BodyLimit:
    """Pure ASGI middleware: 413 with a one-line message past `max_bytes`."""

    def __init__(self, app, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        seen = 0

        async def limited_receive():
            # Raised inside the route's body read, this becomes the 413 response.
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise HTTPException(413, self.message)
            return message

        await self.app(scope, limited_receive, send)

    @property
    def message(self) -> str:
        return f"request body larger than {self.max_bytes} bytes"

    async def _refuse(self, send):
        body = json.dumps({"error": self.message}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

