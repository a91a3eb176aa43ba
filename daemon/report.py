"""What the CLI shows while and after it imports: a progress line and the closing table."""

from __future__ import annotations

import time
from typing import Any


class Progress:
    """A one-line progress display on a terminal; silent elsewhere."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.active = stream.isatty()
        self.started = time.monotonic()

    def update(self, name: str, done: int) -> None:
        if self.active:
            rate = done / max(time.monotonic() - self.started, 1e-6)
            self.stream.write(f"\r{name}: {done} conversation(s), {rate:.0f}/s ")
            self.stream.flush()

    def close(self) -> None:
        if self.active:
            self.stream.write("\r\033[K")
            self.stream.flush()


def format_table(reports: list[dict[str, Any]], shown_cards: int = 20) -> str:
    """The closing table: per file, conversations imported, updated, unchanged and failed, and cards written.

    Below it, each file's cards (the first ``shown_cards``, then how many more) and each failure's reason.
    """
    header = ("file", "imported", "updated", "unchanged", "failed", "cards", "result")
    rows = [(r["name"], str(r["imported"]), str(r["updated"]), str(r["unchanged"]), str(r["failed"]),
             str(len(r.get("cards", ()))), r.get("note") or r["state"]) for r in reports]
    totals = [sum(r[k] for r in reports) for k in ("imported", "updated", "unchanged", "failed")]
    rows.append(("total", *map(str, totals), str(sum(len(r.get("cards", ())) for r in reports)), ""))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) if i < 6 else cell
                       for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in [header, *rows]]
    for report in reports:
        cards = report.get("cards") or []
        if cards:
            lines.append(f"{report['name']}: cards:")
            lines.extend(f"  {path}" for path in cards[:shown_cards])
            if len(cards) > shown_cards:
                lines.append(f"  … and {len(cards) - shown_cards} more")
        for reason in report["reasons"]:
            lines.append(named(report["name"], reason))
    return "\n".join(lines)


def named(name: str, reason: str) -> str:
    """``name: reason``, naming the file once when the reason already starts with it."""
    return reason if reason.startswith(f"{name}: ") else f"{name}: {reason}"
