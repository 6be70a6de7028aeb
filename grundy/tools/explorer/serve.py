"""``grundy explore ... --serve``: the explorer's page served on this computer (127.0.0.1 only),
with the options of any position computed when the reader opens it. ``GET /`` is the page;
``GET /node?p=JSON`` is that position's node and its options' nodes (``{"nodes": [...],
"options": [[move, k], ...]}``, k an index into ``nodes``), or ``{"error": ...}`` with status 400."""
from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Lock
from typing import Any
from urllib.parse import parse_qs, urlparse

from ...errors import GrundyError
from ...spec.reader import as_position
from . import Explorer

__all__ = ["server", "answer"]


def answer(explorer: Explorer, text: str) -> dict[str, Any]:
    """The reply to ``/node?p=text``: the position's node first, then its options' nodes."""
    n = explorer.node(as_position(text))
    options = explorer.expand(n)
    order = [n] + list(dict.fromkeys(m for _, m in options))
    at = {m: k for k, m in enumerate(order)}
    return {"nodes": [explorer.nodes[m] for m in order], "options": [[label, at[m]] for label, m in options]}


def server(explorer: Explorer, port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1:port (0: any free port) serving the explorer; call
    ``serve_forever()`` on it (its address: ``server_address``)."""
    page = explorer.html(served=True).encode("utf-8")
    lock = Lock()                      # one solver: one request at a time computes

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:       # noqa: N802 (the name http.server calls)
            url = urlparse(self.path)
            if url.path in ("/", "/index.html"):
                self._send(200, "text/html; charset=utf-8", page)
                return
            if url.path == "/favicon.ico":          # browsers ask: no icon, and no error either
                self._send(204, "image/x-icon", b"")
                return
            if url.path != "/node":
                self._send(404, "text/plain; charset=utf-8", b"not found")
                return
            try:
                with lock:
                    reply = answer(explorer, parse_qs(url.query).get("p", [""])[0])
                status = 200
            except (GrundyError, ValueError) as e:
                reply, status = {"error": str(e)}, 400
            self._send(status, "application/json", json.dumps(reply).encode("utf-8"))

        def _send(self, status: int, kind: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:   # quiet: the terminal is the user's
            pass

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)
