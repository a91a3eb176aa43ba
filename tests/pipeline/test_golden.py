"""Golden files: the exact card file and daily page `auto_memory` writes for a sample conversation.

Regenerate on purpose only: REGENERATE_GOLDEN=1 python -m pytest tests/pipeline/test_golden.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import FIXED_NOW

from daemon.app import build
from daemon.config import Config
from daemon.pipeline import auto_memory

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT.parent / "examples" / "demo-conversation.json"


def check(name: str, actual: str) -> None:
    golden = ROOT / "golden" / name
    if os.environ.get("REGENERATE_GOLDEN"):
        golden.write_text(actual, encoding="utf-8")
    assert actual == golden.read_text(encoding="utf-8")


def test_card_file_and_daily_page(config: Config, vault_root: Path) -> None:
    ctx = build(config, clock=lambda: FIXED_NOW)
    messages = json.loads(SAMPLE.read_text(encoding="utf-8"))
    messages = messages["messages"] if isinstance(messages, dict) else messages
    result = auto_memory(ctx, "demo", messages)
    assert result["success"] and result["metadata"]["created"]
    check("demo_card.md", (vault_root / result["metadata"]["path"]).read_text(encoding="utf-8"))
    check("demo_daily.md", (vault_root / result["metadata"]["index"]["path"]).read_text(encoding="utf-8"))
