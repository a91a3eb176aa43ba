"""The local API: while the daemon runs, other ``memvault`` commands are served by it.

Loopback only (127.0.0.1, a random port), authenticated by a per-vault token
kept in ``api.json`` in the state folder, readable only by the user. Every
request runs on the daemon's worker queue, so the daemon stays the vault's
only writer.
"""

from __future__ import annotations

import hmac
import http.client
import json
import os
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable

from daemon.errors import MemvaultError

Route = Callable[[dict[str, Any]], Any]
TIMEOUT = 3600.0
IDLE_TIMEOUT = 30.0  # a connection that sends nothing for this long is closed


class ApiServer:
    """A small JSON-over-HTTP server; ``routes`` maps ``/name`` to a handler of the request body."""

    def __init__(self, state_dir: Path, routes: dict[str, Route], idle_timeout: float = IDLE_TIMEOUT) -> None:
        self.file = state_dir / "api.json"
        self.idle_timeout = idle_timeout
        self.token = secrets.token_urlsafe(32)
        self.routes = routes
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, name="memvault-api", daemon=True)

    def start(self) -> None:
        self.thread.start()
        self.file.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump({"port": self.server.server_address[1], "token": self.token, "pid": os.getpid()}, handle)
        os.chmod(self.file, 0o600)

    def stop(self) -> None:
        self.file.unlink(missing_ok=True)
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            timeout = api.idle_timeout  # socket timeout: an idle or stalled client is dropped

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                given = self.headers.get("Authorization", "").removeprefix("Bearer ")
                # Bytes, not str: compare_digest refuses non-ASCII str (a header may hold anything).
                if not hmac.compare_digest(given.encode("utf-8", "surrogateescape"), api.token.encode("ascii")):
                    return self._reply(401, {"error": "not authorized"})
                route = api.routes.get(self.path)
                if route is None:
                    return self._reply(404, {"error": f"no such endpoint: {self.path}"})
                try:
                    body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                    self._reply(200, {"result": route(body)})
                except MemvaultError as exc:
                    self._reply(400, {"error": str(exc), "kind": type(exc).__name__})
                except Exception as exc:  # reported to the caller, never a dead server
                    self._reply(500, {"error": f"{type(exc).__name__}: {exc}"})

            def _reply(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload, ensure_ascii=False, default=str).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        return Handler


def call(state_dir: Path, name: str, body: dict[str, Any], timeout: float = TIMEOUT) -> Any:
    """Call the running daemon's endpoint ``/name``; raises MemvaultError when it cannot be reached."""
    try:
        info = json.loads((state_dir / "api.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MemvaultError("the daemon is running but its local API is not available yet; try again") from exc
    connection = http.client.HTTPConnection("127.0.0.1", int(info["port"]), timeout=timeout)
    try:
        connection.request("POST", f"/{name}", body=json.dumps(body).encode("utf-8"),
                           headers={"Authorization": f"Bearer {info['token']}", "Content-Type": "application/json"})
        response = connection.getresponse()
        payload = json.loads(response.read() or b"{}")
    except (OSError, ValueError) as exc:
        raise MemvaultError(f"cannot reach the daemon's local API: {exc}") from exc
    finally:
        connection.close()
    if response.status != 200:
        raise MemvaultError(payload.get("error", f"the daemon answered {response.status}"))
    return payload["result"]
