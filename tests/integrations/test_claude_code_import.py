"""``memvault claude-code import``: every session on disk, once; the project shows in tags and daily pages."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from daemon.cli import main
from daemon.config import Config
from shared_corpus import CORPUS

pytestmark = pytest.mark.corpus


@pytest.fixture
def projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home))
    for name, folder in (("spotter_short.jsonl", "-home-marco-projects-spotter"),
                         ("spotter_tool_heavy.jsonl", "-home-marco-projects-spotter"),
                         ("spotter_ae4a77f8_lines1471-1500_compact_boundary.jsonl", "-home-USER-spotter-4te")):
        source = CORPUS / "claude_code" / name
        sid = next(json.loads(l)["sessionId"] for l in source.read_text().splitlines() if '"sessionId"' in l)
        (home / "projects" / folder).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, home / "projects" / folder / f"{sid}.jsonl")
    agents = home / "projects" / "-home-USER-spotter-4te" / "ae4a77f8-aedd-4bc1-888f-c94edc91af04" / "subagents"
    agents.mkdir(parents=True)
    shutil.copyfile(CORPUS / "claude_code" / "spotter_subagent_agent-aac57f5.jsonl", agents / "agent-aac57f5.jsonl")
    return home / "projects"


def cli(config: Config, *words: str) -> int:
    return main([*words, f"vault={config.vault}", "timezone=UTC"])


def test_import_takes_every_session_once_with_the_table(config: Config, projects: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(config, "claude-code", "import") == 0
    table = capsys.readouterr().out
    assert table.splitlines()[0].split()[:5] == ["file", "imported", "updated", "unchanged", "failed"]
    assert table.count("imported") >= 4 and "total" in table
    cards = sorted(p.relative_to(config.vault).as_posix() for p in (config.vault / "daily").rglob("*/*.md"))
    assert len(cards) == 4  # three sessions and one subagent
    before = {p: p.read_bytes() for p in config.vault.rglob("*") if p.is_file()}
    assert cli(config, "claude-code", "import") == 0
    again = capsys.readouterr().out
    total = next(line for line in again.splitlines() if line.startswith("total")).split()
    assert total[1:5] == ["0", "0", "3", "0"]
    assert {p: p.read_bytes() for p in config.vault.rglob("*") if p.is_file()} == before


def test_import_since_skips_older_sessions(config: Config, projects: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = next(projects.glob("-home-marco-projects-spotter/*.jsonl"))
    os.utime(old, (946_684_800, 946_684_800))  # 2000-01-01
    assert cli(config, "claude-code", "import", "--since", "2020-01-01") == 0
    assert old.name not in capsys.readouterr().out
    assert cli(config, "claude-code", "import", "--since", "yesterday") == 1
    assert "--since must be a date" in capsys.readouterr().err


def test_the_project_shows_in_tags_and_on_the_daily_page(config: Config, projects: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    cli(config, "claude-code", "import")
    capsys.readouterr()
    assert cli(config, "tags") == 0
    listing = capsys.readouterr().out
    assert "project:spotter\n" in listing and "project:spotter-4te" in listing
    spotter = next(int(line.split()[0]) for line in listing.splitlines() if line.endswith("project:spotter"))
    assert spotter == 2
    assert cli(config, "tags", "project:spotter") == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    page = (config.vault / "daily" / "2026-02-10.md").read_text(encoding="utf-8")
    assert page.count(" (spotter)") == 2
