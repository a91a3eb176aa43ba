"""The rough edges of a first hour at the command line: no command, a closed pipe, uninstall."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from daemon.cli import COMMANDS, main
from daemon.report import format_table

ROOT = Path(__file__).resolve().parent.parent


def test_no_command_prints_the_command_list_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "error:" not in err
    assert err.startswith("usage: memvault")
    for name in COMMANDS:
        assert f"    {name} " in err or f"    {name}\n" in err, name


def run_into_closed_pipe(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``memvault ARGS`` with stdout a pipe whose reader already went away, as ``| head`` does."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "daemon", *args], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, env=env, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", [["config"], ["tags"], ["status"]], ids=lambda a: a[0])
def test_a_closed_pipe_ends_quietly(args: list[str], vault_root: Path) -> None:
    (vault_root / "note.md").write_text("A #demo note.\n", encoding="utf-8")  # so `tags` prints a line
    env = {**os.environ, "MEMVAULT_VAULT": str(vault_root), "MEMVAULT_TIMEZONE": "UTC"}
    result = run_into_closed_pipe(args, env)
    assert result.stderr == "", result.stderr
    assert result.returncode == 141


# ---- the closing table of `ingest` ----------------------------------------------------------------

def report(name: str, state: str, **extra: object) -> dict[str, object]:
    base: dict[str, object] = {"name": name, "state": state, "imported": 0, "updated": 0, "unchanged": 0,
                               "failed": 0, "reasons": [], "note": "", "cards": []}
    return {**base, **extra}


def test_the_closing_table_has_a_cards_column_and_lists_them() -> None:
    table = format_table([
        report("two.json", "imported", imported=1, cards=["daily/2023-01-19/a.md", "daily/2023-01-20/a.md"]),
        report("users.json", "skipped", note="skipped: Claude account file, no conversations"),
        report("FORMATS.md", "failed", failed=1, reasons=["FORMATS.md: not a chat export (unknown shape)"]),
    ])
    lines = table.splitlines()
    assert lines[0].split() == ["file", "imported", "updated", "unchanged", "failed", "cards", "result"]
    assert lines[1].split() == ["two.json", "1", "0", "0", "0", "2", "imported"]
    assert lines[2].endswith("0  skipped: Claude account file, no conversations")
    assert lines[4].split() == ["total", "1", "0", "0", "1", "2"]
    assert "  daily/2023-01-19/a.md" in lines and "  daily/2023-01-20/a.md" in lines
    assert "FORMATS.md: not a chat export (unknown shape)" in lines  # the file named once
    assert table.count("FORMATS.md: FORMATS.md") == 0


def test_a_long_card_list_is_cut_with_a_count() -> None:
    cards = [f"daily/2023-01-{day:02d}/a.md" for day in range(1, 31)]
    table = format_table([report("big.json", "imported", imported=1, cards=cards)], shown_cards=20)
    assert "  daily/2023-01-20/a.md" in table and "daily/2023-01-21/a.md" not in table
    assert "  … and 10 more" in table.splitlines()


def test_ingest_of_a_folder_exits_0_with_its_readme_skipped(capsys: pytest.CaptureFixture[str], vault_root: Path,
                                                           tmp_path: Path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "README.md").write_text("# export\n", encoding="utf-8")
    (folder / "users.json").write_text('[{"uuid": "u", "full_name": "Ann"}]', encoding="utf-8")
    assert main(["ingest", str(folder), f"vault={vault_root}"]) == 0
    out = capsys.readouterr().out
    assert "skipped (not an export)" in out and "skipped: Claude account file, no conversations" in out
    assert out.count("README.md") == 1
