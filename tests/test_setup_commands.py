"""README's two set-up commands work on a current Linux: a virtual environment, not the system pip.

Debian and Ubuntu refuse ``pip install`` into the system Python (PEP 668), so both commands make
and activate ``.venv`` first; the vault the main job creates is ignored by git.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.*?)\n```", section, flags=re.S)


@pytest.mark.parametrize("which", [0, 1], ids=["main-job", "tests"])
def test_each_setup_command_installs_into_a_virtual_environment(which: int) -> None:
    command = setup_commands()[which]
    steps = [step.strip() for step in command.split("&&")]
    install = next(i for i, step in enumerate(steps) if "pip install" in step)
    assert steps[:install] == ["python3 -m venv .venv", ". .venv/bin/activate"], command
    assert (ROOT / ".gitignore").read_text(encoding="utf-8").count(".venv/") == 1


def test_readme_names_the_python_version_pyproject_requires() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    version = re.search(r'requires-python = ">=(3\.\d+)"', pyproject)
    assert version
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Set up on a fresh machine", 1)[1]
    assert f"Python {version.group(1)} or newer" in section.split("```", 1)[0]


def test_the_main_jobs_vault_is_not_untracked_clutter_in_the_checkout() -> None:
    main = setup_commands()[0]
    vault = re.search(r"memvault init (\S+)", main)
    assert vault
    path = vault.group(1)
    if path.startswith(("~", "/")):
        return  # outside the checkout
    name = Path(path).name
    git = subprocess.run(["git", "check-ignore", "-q", "--no-index", f"{name}/inbox/x.json"], cwd=ROOT)
    if git.returncode in (0, 1):  # git present: ask it
        assert git.returncode == 0, f"{name}/ is not in .gitignore"
    else:
        assert f"/{name}/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
