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


def format_table(reports: list[dict[str, Any]]) -> str:
    """The closing table: per file, conversations imported, updated, unchanged and failed."""
    header = ("file", "imported", "updated", "unchanged", "failed", "result")
    rows = [(r["name"], str(r["imported"]), str(r["updated"]), str(r["unchanged"]), str(r["failed"]), r["state"])
            for r in reports]
    totals = [sum(r[k] for r in reports) for k in ("imported", "updated", "unchanged", "failed")]
    rows.append(("total", *map(str, totals), ""))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) if i < 5 else cell
                       for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in [header, *rows]]
    for report in reports:
        for reason in report["reasons"]:
            lines.append(f"{report['name']}: {reason}")
    return "\n".join(lines)
