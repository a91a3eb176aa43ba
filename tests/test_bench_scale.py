"""``scripts/bench_scale.py`` runs its pieces end to end on tiny sizes and writes its section and chart.

Nothing here is timed: the figures are whatever the machine gives; the test checks that
every measurement ran, that the tables land between the markers (a rerun replaces them,
the rest of the page stays), and that the chart is drawn with matplotlib and skipped
with a message without it.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import bench_scale  # noqa: E402

SIZES = [200, 400]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("bench-scale")
    found = bench_scale.measure(SIZES, [10, 20, 500], conversations=20, runs=1, work=work, say=lambda text: None,
                                keep=work / "results.json")
    assert json.loads((work / "results.json").read_text()) == json.loads(json.dumps(found))  # what --from-json reads
    return found


def test_every_piece_measures_each_size(results: dict[str, Any]) -> None:
    assert [r["notes"] for r in results["sizes"]] == SIZES
    for row in results["sizes"]:
        assert row["index"]["notes"] >= row["notes"]  # every note (and the attachments) indexed
        assert row["index_bytes"] > 0 and row["index"]["peak_rss_mb"] > 0
        assert set(row["read"]) == {"floor", *bench_scale.READ_COMMANDS}
        assert row["folder_move"]["notes_moved"] > 0
    assert results["churn"]["notes"] == 400  # the size nearest 10,000
    assert [c["m"] for c in results["churn"]["rows"]] == [10, 20]  # M = 500 does not fit in 400 notes
    assert all(c["paired"] == c["edited"] for c in results["churn"]["rows"])
    assert len(results["import"]["rates"]) == len(results["import"]["cpu_rates"]) == 10


def test_the_tables_go_between_the_markers_and_a_rerun_replaces_them(results: dict[str, Any],
                                                                     tmp_path: Path) -> None:
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nEarlier sections stay.\n", encoding="utf-8")
    said = bench_scale.report(results, doc, tmp_path / "bench_scale.svg")
    drawn = importlib.util.find_spec("matplotlib") is not None  # the bench extra; without it, tables only
    assert ("chart written" if drawn else "chart skipped") in said
    if drawn:
        assert (tmp_path / "bench_scale.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    doc.write_text(doc.read_text(encoding="utf-8") + "\n## A later section\n", encoding="utf-8")
    bench_scale.report(results, doc, tmp_path / "bench_scale.svg")
    text = doc.read_text(encoding="utf-8")
    assert text.count(bench_scale.BEGIN) == text.count(bench_scale.END) == text.count(bench_scale.HEADING) == 1
    assert text.startswith("# Benchmarks\n\nEarlier sections stay.\n") and text.endswith("## A later section\n")
    block = text.partition(bench_scale.BEGIN)[2].partition(bench_scale.END)[0]
    for title in ("Reindex and warm start", "Memory and disk", "Read commands", "A big folder move",
                  "Churn while stopped", "Import rate per tenth"):
        assert f"**{title}" in block
    assert "](bench_scale.svg)" in block or (not drawn and "No chart in this run" in block)
    assert "| 400 |" in block and "| 20 |" in block


def test_without_matplotlib_the_chart_is_skipped_with_a_message(results: dict[str, Any], tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # ``import matplotlib`` now raises ImportError
    doc = tmp_path / "benchmarks.md"
    said = bench_scale.report(results, doc, tmp_path / "bench_scale.svg")
    assert "chart skipped: matplotlib is not installed" in said
    assert not (tmp_path / "bench_scale.svg").exists()
    block = doc.read_text(encoding="utf-8").partition(bench_scale.BEGIN)[2]
    assert "No chart in this run" in block and "Import rate per tenth" in block
