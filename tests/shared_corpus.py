"""The shared corpus of real exports, which lives beside the checkout (``<repo>/../shared/corpus``).

It is not part of the repository (LoCoMo is CC BY-NC: read in place, never copied), so a fresh
clone has no corpus. Tests that read it carry ``@pytest.mark.corpus``; ``tests/conftest.py`` skips
them with :data:`REASON` when the corpus is absent. CI has the corpus and sets
``CORPUS_REQUIRED=1`` (see ``.ci/run``): then an absent corpus fails these tests instead of
skipping them, so they can never be skipped by accident where they should run.

``CORPUS_DIR`` points the tests at another copy of the corpus.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CORPUS = Path(os.environ.get("CORPUS_DIR") or Path(__file__).resolve().parents[2] / "shared" / "corpus")
REQUIRED = "CORPUS_REQUIRED"
REASON = f"shared corpus not present at {CORPUS} (clone memvault beside a shared/corpus folder to run this test)"


def present() -> bool:
    return CORPUS.is_dir()


def check() -> None:
    """Skip the calling test when the corpus is absent, or fail it when CI requires the corpus."""
    if present():
        return
    if os.environ.get(REQUIRED, "") not in ("", "0"):
        pytest.fail(f"{REQUIRED} is set but the shared corpus is not at {CORPUS}", pytrace=False)
    pytest.skip(REASON)


def files(*suffixes: str, exclude: str | None = None) -> list[Path]:
    """Corpus files with these suffixes, for ``parametrize``; one placeholder when the corpus is absent.

    The placeholder keeps the test collected, so it is skipped with :data:`REASON` (or fails under
    ``CORPUS_REQUIRED``) rather than dropped as an empty parameter set.
    """
    found = sorted(p for p in CORPUS.rglob("*") if p.suffix in suffixes and exclude not in p.parts) \
        if present() else []
    return found or [CORPUS / "absent"]
