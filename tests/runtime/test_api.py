"""The local API: the running daemon serves other commands; loopback only; token required."""

from __future__ import annotations

import http.client
import json
import stat
from pathlib import Path
from typing import Iterator

import pytest

from daemon.runtime import api
from daemon.cli import main
from daemon.config import Config
from daemon.errors import MemvaultError
from daemon.runner import Daemon

MESSAGES = [{"role": "user", "name": "ana", "created_at": "2023-03-01T10:00:00",
             "content": "I decided to move the backups to the NAS because the cloud bill doubled."}]


@pytest.fixture
def running(config: Config) -> Iterator[Daemon]:
    daemon = Daemon(config)
    daemon.start()
    yield daemon
    daemon.stop()


def test_token_file_is_private_and_loopback_only(running: Daemon, config: Config) -> None:
    info_file = config.state_dir() / "api.json"
    assert stat.S_IMODE(info_file.stat().st_mode) == 0o600
    info = json.loads(info_file.read_text())
    assert running.api.server.server_address[0] == "127.0.0.1"
    connection = http.client.HTTPConnection("127.0.0.1", info["port"], timeout=10)
    connection.request("POST", "/status", body=b"{}", headers={"Authorization": "Bearer wrong"})
    assert connection.getresponse().status == 401


def test_auto_memory_through_the_daemon(running: Daemon, config: Config, vault_root: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    result = api.call(config.state_dir(), "auto_memory", {"session_id": "s", "messages": MESSAGES})
    assert result["success"] is True and (vault_root / result["metadata"]["path"]).exists()
    code = main(["auto_memory", "session_id=s2", f"messages={json.dumps(MESSAGES)}", f"vault={vault_root}",
                 "timezone=UTC"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["metadata"]["created"] is True
    status = api.call(config.state_dir(), "status", {})
    assert status["daemon"] == "running" and status["watcher"] == "native" and "reconcile" in status["jobs"]
    with pytest.raises(MemvaultError, match="unknown auto_memory parameter"):
        api.call(config.state_dir(), "auto_memory", {"session_id": "s", "messages": [], "colour": "x"})


def test_api_file_is_removed_on_stop(config: Config) -> None:
    daemon = Daemon(config)
    daemon.start()
    daemon.stop()
    assert not (config.state_dir() / "api.json").exists()
    with pytest.raises(MemvaultError, match="not available"):
        api.call(config.state_dir(), "status", {})


def test_a_non_ascii_token_is_refused_and_an_idle_connection_is_closed(tmp_path: Path) -> None:
    import socket

    server = api.ApiServer(tmp_path, {"/status": lambda body: "ok"}, idle_timeout=0.5)
    server.start()
    try:
        port = server.server.server_address[1]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            raw.sendall(b"POST /status HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xc3\xa9t\xc3\xa9\r\n"
                        b"Content-Length: 2\r\n\r\n{}")
            assert raw.recv(4096).startswith(b"HTTP/1.0 401")
        with socket.create_connection(("127.0.0.1", port), timeout=10) as idle:
            assert idle.recv(1) == b""  # closed by the server long before the 10 s client timeout
    finally:
        server.stop()
