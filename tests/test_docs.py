"""README and --help stay true: every command is documented and has help text with an example."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from daemon.cli import COMMANDS, parser

ROOT = Path(__file__).resolve().parent.parent


def subcommands() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_command_is_in_the_readme_and_has_help() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert set(subcommands()) == set(COMMANDS)
    for name, sub in subcommands().items():
        assert f"memvault {name}" in readme, name
        assert sub.description and "Example" in sub.description, name


def test_readme_has_exactly_two_setup_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)\n```", setup, flags=re.S)
    assert len(commands) == 2 and all("\n" not in c for c in commands)
    assert "memvault start" in commands[0] and "pytest" in commands[1]
    assert commands[1] in (ROOT / ".ci/run").read_text(encoding="utf-8")
    sample = re.search(r"cp (\S+) ", commands[0])
    assert sample and (ROOT / sample.group(1)).is_file()
