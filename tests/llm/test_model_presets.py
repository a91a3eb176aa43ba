"""``memvault model use NAME``: a working model section for the server, then the doctor checks, on loopback."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Callable, Iterator

import pytest
from llm_server import FakeOpenAI, completion, servers

from daemon.cli import main
from daemon.llm.presets import PRESETS


@pytest.fixture
def serve() -> Iterator[Callable[..., FakeOpenAI]]:
    pytest.importorskip("agentscope")
    yield from servers()


def test_model_use_writes_the_preset_keeps_the_file_and_runs_doctor(
    serve: Callable[..., FakeOpenAI], vault_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = serve(completion("OK"), quirks=("exposes-n_ctx",), n_ctx=4096, flavour="llama-server")
    path = tmp_path / "config.toml"
    path.write_text(f'# mine\nvault = "{vault_root}"\n\n[tagging]\nmax_tags_per_file = 5  # keep\n', encoding="utf-8")
    code = main(["--config", str(path), "model", "use", "llamacpp", f"base_url={fake.base_url}", "name=fake-model"])
    out = capsys.readouterr().out
    assert code == 0, out
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# mine\n") and "max_tags_per_file = 5  # keep" in text
    agent = tomllib.loads(text)["components"]["agent_wrapper"]["default"]
    assert agent["backend"] == "agentscope"
    assert agent["model"] == {**PRESETS["llamacpp"], "base_url": fake.base_url, "name": "fake-model"}
    assert f"ok  OK: openai model 'fake-model' at {fake.base_url} answered" in out
    assert "ok  model context: components.agent_wrapper.default.model.context_tokens=4096 fits the server's 4096" in out
    assert fake.requests[0].body["max_tokens"] == 16  # doctor's ping has a small budget


def test_model_use_reports_a_context_mismatch(serve: Callable[..., FakeOpenAI], vault_root: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    fake = serve(completion("OK"), quirks=("exposes-n_ctx",), n_ctx=2048, flavour="llama-server")
    path = tmp_path / "config.toml"
    code = main(["--config", str(path), "model", "use", "llamacpp", f"base_url={fake.base_url}",
                 "name=fake-model", f"vault={vault_root}"])
    out = capsys.readouterr().out
    assert code == 1 and "ERR model context: the server runs 2048 tokens (llama-server /props)" in out
    assert tomllib.loads(path.read_text(encoding="utf-8"))["components"]["agent_wrapper"]["default"]["model"][
        "context_tokens"] == 4096


@pytest.mark.parametrize(("argv", "message"), [
    (["model", "use", "bard"], "name one of llamacpp, ollama"),
    (["model", "use", "ollama", "context_tokens=big"], "model.context_tokens: expected int, got 'big'"),
])
def test_model_use_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                       message: str) -> None:
    path = tmp_path / "config.toml"
    assert main(["--config", str(path), *argv]) in (1, 2)
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not path.exists()


def test_model_list_prints_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["model", "list"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[0] for line in out.splitlines()] == list(PRESETS)
    assert "http://127.0.0.1:11434/v1" in out and "$ANTHROPIC_API_KEY" in out
