"""The status note ``Memvault.md``: a block between markers saying what the daemon did, in Obsidian.

Only the text between the markers is ours; everything the user writes around
the block is kept (as on daily pages). The block holds no clock time of its
own, so rendering the same facts twice gives the same bytes: an unchanged
status writes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NOTE = "Memvault.md"
START = "<!-- memvault:status -->"
END = "<!-- /memvault:status -->"
SHOWN = 20  # broken links, failed files and next steps listed before "and N more"
_UNLINKABLE = re.compile(r"[#^|\[\]]")


@dataclass(frozen=True)
class ImportLine:
    """One inbox file the daemon imported: when, its result, and the cards it wrote."""

    at: str
    name: str
    result: str  # "imported", "skipped: …", "failed: …"
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class FailedFile:
    name: str
    reason: str
    error_file: str  # vault path of its ``.error.txt``, or an absolute path outside the vault


@dataclass(frozen=True)
class BrokenLink:
    source: str
    line: int
    raw: str


@dataclass(frozen=True)
class NextStep:
    card: str
    day: str
    text: str


@dataclass(frozen=True)
class StatusView:
    """Everything the block shows; ``render_block`` turns it into Markdown."""

    version: str
    state: str
    imports: tuple[ImportLine, ...] = ()
    failed: tuple[FailedFile, ...] = ()
    broken_count: int = 0
    broken: tuple[BrokenLink, ...] = ()
    retag: str = ""
    next_steps: tuple[NextStep, ...] = ()
    steps_age_days: int = 14


def link(path: str, label: str | None = None) -> str:
    """A wikilink to a vault file (``.md`` dropped), or the path as code when it cannot be linked."""
    if _UNLINKABLE.search(path) or path.startswith("/"):
        return code(path)
    target = path[:-3] if path.lower().endswith(".md") else path
    shown = label if label is not None else target.rsplit("/", 1)[-1]
    return f"[[{target}|{shown}]]" if shown and not _UNLINKABLE.search(shown) else f"[[{target}]]"


def code(text: str) -> str:
    """Inline code that holds any text: a link written as code is shown, never resolved."""
    text = " ".join(text.split())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def render_block(view: StatusView, newline: str = "\n") -> str:
    lines = [START, f"**memvault {view.version}** · daemon {view.state}", "", "### Last imports"]
    for item in view.imports:
        cards = ", ".join(link(c) for c in item.cards)
        lines.append(f"- {item.at} {code(item.name)} {item.result}" + (f": {cards}" if cards else ""))
    if not view.imports:
        lines.append("(none yet)")
    lines += ["", f"### Failed inbox files ({len(view.failed)})"]
    for failed in view.failed[:SHOWN]:
        lines.append(f"- {code(failed.name)}: {' '.join(failed.reason.split())} ({link(failed.error_file, 'why')})")
    lines += _more(len(view.failed)) or ([] if view.failed else ["(none)"])
    lines += ["", f"### Broken links ({view.broken_count})"]
    for broken in view.broken[:SHOWN]:
        lines.append(f"- {link(broken.source)} line {broken.line}: {code(broken.raw)}")
    lines += _more(view.broken_count) or ([] if view.broken_count else ["(none)"])
    lines += ["", "### Re-tagging", view.retag or "off"]
    lines += ["", f"### Next steps older than {view.steps_age_days} days ({len(view.next_steps)})"]
    for step in view.next_steps[:SHOWN]:
        lines.append(f"- {link(step.card)} ({step.day}): {' '.join(step.text.split())}")
    lines += _more(len(view.next_steps)) or ([] if view.next_steps else ["(none)"])
    lines.append(END)
    return newline.join(lines)


def _more(count: int) -> list[str]:
    return [f"- … and {count - SHOWN} more"] if count > SHOWN else []


def merge(text: str | None, block: str) -> str | None:
    """The note's new text with ``block`` in place of the old one, or None when nothing changes."""
    if text is None:
        return f"# Memvault\n\n{block}\n"
    newline = "\r\n" if "\r\n" in text else "\n"
    block = block.replace("\n", newline) if newline != "\n" else block
    start = text.find(START)
    end = text.find(END, start + len(START)) if start >= 0 else -1
    if start >= 0 and end >= 0:
        updated = text[:start] + block + text[end + len(END):]
    else:
        separator = "" if not text.strip() else (newline if text.endswith(newline) else newline * 2)
        updated = text + separator + block + newline
    return None if updated == text else updated
