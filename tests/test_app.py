"""The composition root: the embedded distiller and tagger load when first used, not with the app."""

from __future__ import annotations

import subprocess
import sys
from datetime import date, datetime, timezone
from pathlib import Path

from daemon.app import build
from daemon.config import Config
from daemon.distill.extractive import ExtractiveDistiller
from daemon.distill.tagging import ExtractiveTagger
from daemon.models import DistillRequest, Message

REPO = Path(__file__).resolve().parents[1]
AT = datetime(2023, 1, 19, 8, 0, tzinfo=timezone.utc)


def test_status_imports_neither_the_distiller_nor_the_memory_flow(vault_root: Path) -> None:
    """``status`` (and a start that only catches the index up) never distills: importing the
    distiller, the tagger and the memory flow was a tenth of a second of each run."""
    code = ("import sys; from daemon.cli import main; code = main(['status', 'vault=' + sys.argv[1]]); "
            "print(code, sorted(m for m in sys.modules if m.startswith(('daemon.distill', 'daemon.pipeline.memory', "
            "'daemon.pipeline.tags'))), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, str(vault_root)], cwd=REPO, capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stderr.strip().splitlines()[-1] == "0 []"


def test_the_embedded_distiller_and_tagger_answer_as_the_extractive_ones(config: Config) -> None:
    ctx = build(config)
    request = DistillRequest("s1", date(2023, 1, 19), (
        Message("m1", "user", "jon", "I decided to use Postgres for the ledger because we need transactions.", AT),
        Message("m2", "assistant", "", "Noted: Postgres for the ledger, with nightly backups to S3.", AT),
    ))
    assert ctx.distiller.distill(request) == ExtractiveDistiller().distill(request)
    assert ctx.distiller.distill(request) == ExtractiveDistiller().distill(request)  # made once, then reused
    text = "---\nname: ledger\n---\nPostgres for the ledger: transactions, nightly backups to S3, and a replica.\n"
    assert ctx.tagger is not None
    assert ctx.tagger.tag(text, 3) == ExtractiveTagger().tag(text, 3)


def test_the_memory_flow_names_are_still_exported_by_the_pipeline() -> None:
    import daemon.pipeline as pipeline
    from daemon.pipeline import memory

    assert pipeline.auto_memory is memory.auto_memory and pipeline.Outcome is memory.Outcome
    assert pipeline.card_for_day is memory.card_for_day and pipeline.refresh_daily is memory.refresh_daily
