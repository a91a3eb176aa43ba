"""The status note: what the daemon did, gathered from the index, the inbox and the cards, into ``Memvault.md``.

The daemon's status-note job (``runtime.jobs``) calls ``StatusNote.refresh`` on
the worker: at most once a minute, and it writes only when the block's text
changed. The index knows the note only as a link target (``app.open_graph``
makes it opaque: its links and tags are not read), and its row is brought up
to date right after each write, so writing it is never a change for reconcile,
an event to react to, a backlink, a broken link or a card to re-tag.
``status_note.enabled = false`` turns it off.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from daemon import __version__
from daemon.errors import ConflictError, VaultError
from daemon.pipeline.cardnames import card_day
from daemon.pipeline.context import Context
from daemon.timeutil import today
from daemon.vault import props
from daemon.vault.files import ABSENT
from daemon.vault.statusnote import NOTE, BrokenLink, FailedFile, ImportLine, NextStep, StatusView, merge, render_block

IMPORTS_KEY = "status.imports"  # index meta: the last imports with their cards
KEEP_IMPORTS = 10
MIN_INTERVAL = 60.0
STEPS_AGE_DAYS = 14
ERROR_SUFFIX = ".error.txt"
_STEPS_HEADING = re.compile(r"^#{1,6}\s+.*next\s+steps?\b", re.IGNORECASE)
_HEADING = re.compile(r"^#{1,6}\s")
_BULLET = re.compile(r"^\s{0,3}[-*+]\s+(\[( |x|X)\]\s+)?(.*\S)")


def enabled(ctx: Context) -> bool:
    return bool(ctx.config.data["status_note"]["enabled"])


def remember_import(ctx: Context, report: Any) -> None:
    """Keep the last imports, with the cards each wrote, for the status note (in the index's meta table)."""
    entries = json.loads(ctx.graph.index.get_meta(IMPORTS_KEY) or "[]")
    result = report.note or report.state
    if report.reasons:
        result += ": " + report.reasons[0].removeprefix(f"{report.name}: ")
    entry = {"at": ctx.clock().timestamp(), "name": report.name, "result": result[:300], "cards": report.cards[:20]}
    ctx.graph.index.set_meta(IMPORTS_KEY, json.dumps([entry] + entries[: KEEP_IMPORTS - 1]))


def open_steps(text: str) -> list[str]:
    """The unresolved bullets under a card's "… next steps" heading (a ticked ``- [x]`` is resolved)."""
    found: list[str] = []
    inside = False
    for line in props.body(text).splitlines():
        if _HEADING.match(line):
            inside = bool(_STEPS_HEADING.match(line))
            continue
        bullet = _BULLET.match(line) if inside else None
        if bullet and bullet.group(2) not in ("x", "X"):
            found.append(bullet.group(3))
    return found


@dataclass
class StatusNote:
    """Keeps ``Memvault.md``'s block current; remembers each card's open next steps by content hash."""

    ctx: Context
    min_interval: float = MIN_INTERVAL
    last: float | None = None
    steps: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)

    def refresh(self, state: str, retag_next: datetime | None = None, now: float | None = None,
                force: bool = False) -> bool:
        """Rewrite the block when its text changed, at most once per ``min_interval``; True when written.

        ``force`` skips the interval once: the daemon's last word when it stops.
        """
        now = time.monotonic() if now is None else now
        if not enabled(self.ctx) or (not force and self.last is not None and now - self.last < self.min_interval):
            return False
        self.last = now
        block = render_block(self.view(state, retag_next))
        try:
            snapshot = self.ctx.vault.read(NOTE)
        except VaultError:
            return False  # not UTF-8: the user made it something else; leave it
        text = merge(snapshot.text if snapshot else None, block)
        if text is None:
            return False
        try:
            self.ctx.vault.write(NOTE, text, snapshot.digest if snapshot else ABSENT)
        except ConflictError:
            return False  # the user is editing it: next minute
        self.ctx.graph.sync([NOTE])  # the index holds the new bytes now: no change left for anyone to find
        return True

    def view(self, state: str, retag_next: datetime | None = None) -> StatusView:
        index = self.ctx.graph.index
        broken = [row for row in index.broken() if row.source != NOTE]
        return StatusView(
            version=__version__,
            state=state,
            imports=tuple(self._imports()),
            failed=tuple(self._failed()),
            broken_count=len(broken),
            broken=tuple(BrokenLink(row.source, row.line, row.raw) for row in broken[:20]),
            retag=self._retag(retag_next),
            next_steps=tuple(self._next_steps()),
            steps_age_days=STEPS_AGE_DAYS,
        )

    def _when(self, stamp: float) -> str:
        return datetime.fromtimestamp(stamp, self.ctx.config.tz).strftime("%Y-%m-%d %H:%M")

    def _imports(self) -> list[ImportLine]:
        entries = json.loads(self.ctx.graph.index.get_meta(IMPORTS_KEY) or "[]")
        return [ImportLine(self._when(e["at"]), e["name"], e["result"], tuple(e["cards"])) for e in entries]

    def _failed(self) -> list[FailedFile]:
        folder = self.ctx.config.inbox / "failed"
        try:
            notes = sorted(folder.rglob("*" + ERROR_SUFFIX), key=lambda p: p.stat().st_mtime, reverse=True)
        except OSError:
            return []
        vault = self.ctx.config.vault.resolve()
        out = []
        for note in notes[:100]:
            try:
                where = note.resolve().relative_to(vault).as_posix()
            except ValueError:
                where = str(note)  # the inbox lives outside the vault: shown as a path
            out.append(FailedFile(note.name[: -len(ERROR_SUFFIX)], _first_reason(note), where))
        return out

    def _retag(self, retag_next: datetime | None) -> str:
        tagging = self.ctx.config.data["tagging"]
        if not tagging["enabled"]:
            return "off (tagging.enabled = false)"
        line = f"schedule `{tagging['schedule']}`"
        last = json.loads(self.ctx.graph.index.get_meta("retag.last") or "null")
        if last:
            line += f"; last run {self._when(last['at'])} ({last['processed']} card(s), {last['failed']} failed)"
        if retag_next is not None:
            line += f"; next {retag_next.astimezone(self.ctx.config.tz).strftime('%Y-%m-%d %H:%M')}"
        return line

    def _next_steps(self) -> list[NextStep]:
        """Open next steps of cards whose day is more than ``STEPS_AGE_DAYS`` old; only changed cards are read."""
        cutoff = (today(self.ctx.config.tz, self.ctx.clock()) - timedelta(days=STEPS_AGE_DAYS)).isoformat()
        found: list[NextStep] = []
        seen: set[str] = set()
        for path, row in sorted(self.ctx.graph.index.notes().items()):
            day = card_day(self.ctx.config.daily_dir, path)
            if day is None or day >= cutoff or not row.identity:
                continue
            seen.add(path)
            cached = self.steps.get(path)
            if cached is None or cached[0] != row.hash:
                try:
                    snapshot = self.ctx.vault.read(path)
                except VaultError:
                    continue
                cached = (row.hash, tuple(open_steps(snapshot.text)) if snapshot else ())
                self.steps[path] = cached
            found.extend(NextStep(path, day, text) for text in cached[1])
        self.steps = {p: v for p, v in self.steps.items() if p in seen}
        return sorted(found, key=lambda step: (step.day, step.card))


def _first_reason(note: Path) -> str:
    """The first reason in an ``.error.txt`` (its "- " lines), else its first line."""
    try:
        lines = note.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        return f"(cannot read the error file: {exc.strerror})"
    reasons = [line[2:] for line in lines if line.startswith("- ")]
    first = reasons[0] if reasons else next((line for line in lines if line.strip()), "")
    return first[:300]
