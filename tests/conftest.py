"""Shared fixtures: every test gets its own home, config, state and vault under tmp_path."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

import pytest

from daemon.app import build, init_vault
from daemon.config import Config, load_config
from daemon.models import Card, DistillRequest, Skip
from daemon.pipeline import Context

FIXED_NOW = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "corpus: reads ../shared/corpus; skipped when it is absent (tests/shared_corpus.py)")


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("corpus"):
        import shared_corpus

        shared_corpus.check()


def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; its last value either way."""
    deadline = time.monotonic() + timeout
    tick = threading.Event()
    while time.monotonic() < deadline:
        if condition():
            return True
        tick.wait(0.05)
    return condition()


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point HOME and the XDG folders into tmp_path so nothing touches the real user dirs."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var, sub in (("XDG_CONFIG_HOME", ".config"), ("XDG_STATE_HOME", ".local/state"),
                     ("XDG_DATA_HOME", ".local/share"), ("XDG_CACHE_HOME", ".cache")):
        monkeypatch.setenv(var, str(home / sub))
    for name in list(__import__("os").environ):
        if name.startswith("MEMVAULT_"):
            monkeypatch.delenv(name)
    return home


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Invariant 7: no network. Any connection beyond the loopback interface fails the test."""
    real_connect = socket.socket.connect

    def connect(self: socket.socket, address: object) -> None:
        host = address[0] if isinstance(address, tuple) else address
        if self.family in (socket.AF_INET, socket.AF_INET6) and host not in ("127.0.0.1", "::1", "localhost"):
            raise AssertionError(f"network access attempted: {address!r}")
        return real_connect(self, address)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", connect)


@pytest.fixture(autouse=True)
def no_thread_leaks() -> Iterator[None]:
    before = {t.ident for t in threading.enumerate()}
    yield
    leaked = [t for t in threading.enumerate() if t.ident not in before and t.is_alive()]
    assert not leaked, f"threads leaked: {leaked}"


@pytest.fixture
def vault_root(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    init_vault(root)
    return root


@pytest.fixture
def config(vault_root: Path) -> Config:
    return load_config(overrides=[f"vault={vault_root}", "timezone=UTC"], environ={})


@dataclass
class FakeDistiller:
    """A scripted distiller: ``make`` builds the card from the request; calls are recorded."""

    make: Callable[[DistillRequest], Card | Skip] | None = None
    calls: list[DistillRequest] = field(default_factory=list)

    def distill(self, request: DistillRequest) -> Card | Skip:
        self.calls.append(request)
        if self.make is not None:
            return self.make(request)
        lines = [f"- {m.speaker}: {m.text}" for m in request.messages]
        body = (request.existing.body.rstrip("\n") + "\n" if request.existing else "## Notes\n") + "\n".join(lines)
        name = request.existing.name if request.existing else "topic"
        return Card(name=name, description=f"{len(lines)} new lines", body=body + "\n")


@pytest.fixture
def fake() -> FakeDistiller:
    return FakeDistiller()


@pytest.fixture
def ctx(config: Config, fake: FakeDistiller) -> Context:
    return build(config, distiller=fake, clock=lambda: FIXED_NOW)


def snapshot_tree(root: Path) -> dict[str, bytes]:
    """Every file below ``root`` with its bytes, to prove a failure changed nothing."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
