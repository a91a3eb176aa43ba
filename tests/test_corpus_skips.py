"""Tests that read ``../shared/corpus`` skip with a clear reason on a fresh clone, and fail in CI.

A fresh clone has no corpus beside it; README's test command must still pass there. CI has the
corpus and sets ``CORPUS_REQUIRED=1`` (``.ci/run``), so a corpus test that skips there fails.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _marked(function: ast.FunctionDef) -> bool:
    names = {ast.unparse(d) for d in function.decorator_list}
    return bool(names & {"pytest.mark.corpus", "needs_corpus"})


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _tainted(tree: ast.Module) -> set[str]:
    """Module-level names that reach the corpus: ``CORPUS`` and what is built from it (values, helpers, fixtures)."""
    tainted = {"CORPUS"} | {alias.asname or alias.name for node in tree.body
                            if isinstance(node, ast.ImportFrom) and node.module == "shared_corpus"
                            for alias in node.names}
    grew = True
    while grew:
        grew = False
        for node in tree.body:
            if isinstance(node, ast.Assign) and _names(node.value) & tainted:
                new = {t.id for t in node.targets if isinstance(t, ast.Name)} - tainted
            elif isinstance(node, ast.FunctionDef) and not node.name.startswith("test_") and _names(node) & tainted:
                new = {node.name} - tainted
            else:
                continue
            tainted |= new
            grew = grew or bool(new)
    return tainted


def unmarked_corpus_tests() -> list[str]:
    """Test functions that reach the corpus (directly, or through a helper or fixture) without the marker."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_marked = any(isinstance(node, ast.Assign) and "pytest.mark.corpus" in ast.unparse(node.value)
                            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
                            for node in tree.body)
        if module_marked:
            continue
        tainted = _tainted(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test_"):
                continue
            used = _names(node) | {a.arg for a in node.args.args}
            if used & tainted and not _marked(node):
                found.append(f"{path.relative_to(ROOT)}::{node.name}")
    return found


def test_every_test_reading_the_corpus_carries_the_marker() -> None:
    assert unmarked_corpus_tests() == []


def test_the_check_sees_the_corpus_through_helpers_and_fixtures(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "from shared_corpus import CORPUS\n"
        "CC = CORPUS / 'claude_code'\n"
        "def copy_some(to):\n    return list(CC.iterdir())\n"
        "@pytest.fixture\ndef transcripts(tmp_path):\n    return copy_some(tmp_path)\n"
        "def test_direct():\n    assert CORPUS\n"
        "def test_by_fixture(transcripts):\n    assert transcripts\n"
        "@pytest.mark.corpus\ndef test_marked(transcripts):\n    assert transcripts\n"
        "def test_plain():\n    assert 1\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "TESTS", tmp_path)
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert unmarked_corpus_tests() == ["test_sample.py::test_direct", "test_sample.py::test_by_fixture"]


def run_corpus_tests(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("CORPUS_DIR", "CORPUS_REQUIRED")}
    environ.update(CORPUS_DIR=str(tmp_path / "no-corpus-here"), **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", "-m", "corpus",
         "tests/conversations/test_exports.py", "tests/pipeline/test_ingest.py"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=300)


def test_without_the_corpus_its_tests_skip_with_the_reason(tmp_path: Path) -> None:
    result = run_corpus_tests(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "failed" not in result.stdout and "error" not in result.stdout.lower()
    assert "shared corpus not present at" in result.stdout and "no-corpus-here" in result.stdout
    assert "empty parameter set" not in result.stdout
    skipped = [line for line in result.stdout.splitlines() if line.startswith("SKIPPED")]
    assert sum(int(line.split("[")[1].split("]")[0]) for line in skipped) >= 10


def test_ci_fails_when_the_corpus_tests_would_skip(tmp_path: Path) -> None:
    result = run_corpus_tests(tmp_path, CORPUS_REQUIRED="1")
    assert result.returncode != 0
    assert "CORPUS_REQUIRED is set but the shared corpus is not at" in result.stdout


def test_ci_requires_the_corpus_when_it_is_beside_the_checkout() -> None:
    script = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert "../shared/corpus" in script and "export CORPUS_REQUIRED=1" in script
