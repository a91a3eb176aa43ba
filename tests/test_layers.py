"""The package layout stays true: imports between groups only run downward, with no cycle.

Walks every module's imports with ``ast`` (type-checking imports and imports inside
functions count too: a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "daemon"

# Higher rank = higher layer. A module may import its own group or a group of lower rank.
FACES = {"cli", "commands", "report", "__main__", "runner", "app", "ops", "cli_recall", "launch", "cli_claude", "cli_links", "cli_model"}
NOUNS = {"config", "errors", "models", "timeutil", "__init__"}
RANKS = {
    "faces": 8,
    "integrations": 7,
    "runtime": 6,
    "pipeline": 5,
    "recall": 5,
    "llm": 4,
    "distill": 3,
    "conversations": 3,
    "links": 2,
    "vault": 1,
    "nouns": 0,
}


def group_of(module: str) -> str:
    """``daemon.links.scan`` → ``links``; top-level modules are faces or nouns."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in NOUNS:
        return "nouns"
    if parts[1] in FACES:
        return "faces"
    if parts[1] in RANKS:
        return parts[1]
    raise AssertionError(f"{module}: a top-level module not placed in a group; add it to FACES or NOUNS")


def module_name(path: Path, root: Path = PACKAGE) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every ``daemon…`` module a file imports (absolute or relative, at any depth)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "daemon")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "daemon":
                continue
            found.add(target)
            for alias in node.names:  # `from daemon.vault import props` imports a module
                candidate = f"{target}.{alias.name}"
                where = root.parent / candidate.replace(".", "/")
                if where.with_suffix(".py").exists() or where.is_dir():
                    found.add(candidate)
    return found


def edges(root: Path = PACKAGE) -> list[tuple[str, str, str]]:
    """(file, importing group, imported group) for every cross-group import."""
    result = []
    for path in sorted(root.rglob("*.py")):
        source = group_of(module_name(path, root))
        for target in imports_of(path, root):
            if target == "daemon":
                continue
            group = group_of(target)
            if group != source:
                result.append((str(path.relative_to(root.parent)), source, group))
    return result


def upward(found: list[tuple[str, str, str]]) -> list[str]:
    return [f"{file}: {src} (rank {RANKS[src]}) imports {dst} (rank {RANKS[dst]})"
            for file, src, dst in found if RANKS[dst] >= RANKS[src]]


def cycles(found: list[tuple[str, str, str]]) -> list[list[str]]:
    graph: dict[str, set[str]] = {}
    for _, src, dst in found:
        graph.setdefault(src, set()).add(dst)
    loops = []

    def visit(node: str, trail: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt in trail:
                loops.append(trail[trail.index(nxt):] + [nxt])
            elif len(trail) < len(RANKS):
                visit(nxt, trail + [nxt])

    for start in graph:
        visit(start, [start])
    return loops


def test_every_module_belongs_to_a_group() -> None:
    for path in PACKAGE.rglob("*.py"):
        group_of(module_name(path))  # raises for a stray top-level module


def test_imports_between_groups_only_run_downward() -> None:
    found = edges()
    assert found, "the walk found no imports at all: it is broken"
    assert upward(found) == []


def test_no_cycle_between_groups() -> None:
    assert cycles(edges()) == []


def test_the_check_catches_an_upward_import(tmp_path: Path) -> None:
    """The same walk over a copy with one upward import added fails on it."""
    import shutil

    copy = tmp_path / "daemon"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "vault_template"))
    files = copy / "vault" / "files.py"
    files.write_text(files.read_text(encoding="utf-8") + "\nfrom daemon.links.graph import Graph\n",
                     encoding="utf-8")
    found = edges(copy)
    assert any("vault/files.py" in line and "imports links" in line for line in upward(found))
    assert cycles(found)  # links already imports vault: now the two form a cycle


@pytest.mark.parametrize("group", ["conversations", "distill", "llm", "vault", "links", "pipeline", "recall", "runtime",
                                   "integrations", "integrations/claude_code"])
def test_each_group_says_what_it_does_and_may_import(group: str) -> None:
    doc = ast.get_docstring(ast.parse((PACKAGE / group / "__init__.py").read_text(encoding="utf-8")))
    assert doc and "May import" in doc


def test_cli_stays_small() -> None:
    """The CLI parses and prints; the command table lives in ``commands``, the work below it."""
    lines = (PACKAGE / "cli.py").read_text(encoding="utf-8").count("\n")
    assert lines < 400, f"daemon/cli.py has {lines} lines; move help texts or handlers beside it"
