"""Regenerate the tables in ``docs/dates.md`` from ``daemon.distill.reltime.RULES``.

Usage: ``python3 scripts/dates_doc.py``. Only the text between the ``<!-- dates:begin -->`` and
``<!-- dates:end -->`` markers is replaced; ``tests/distill/test_reltime.py`` fails while the page is
out of date.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from daemon.distill.reltime import rules_table, weekday_table  # noqa: E402

BEGIN, END = "<!-- dates:begin -->", "<!-- dates:end -->"


def generated() -> str:
    return f"{BEGIN}\n{rules_table()}\n{weekday_table()}{END}"


def main() -> None:
    page = ROOT / "docs" / "dates.md"
    text = page.read_text(encoding="utf-8")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    page.write_text(head + generated() + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
