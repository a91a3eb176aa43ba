"""The daily page ``daily/YYYY-MM-DD.md``: an auto-maintained block listing the day's cards.

Only the text between the markers is ours; everything the user writes
outside the block is kept. No page is created for a day without cards.
"""

from __future__ import annotations

from dataclasses import dataclass

START = "<!-- notes:auto -->"
END = "<!-- /notes:auto -->"


@dataclass(frozen=True)
class Entry:
    """One line of the block: a card's path, name and description, and the project it belongs to."""

    path: str
    name: str
    description: str
    project: str = ""


def render_block(entries: list[Entry], newline: str = "\n") -> str:
    lines = [START]
    if not entries:
        lines.append("(none)")
    for entry in entries:
        label = entry.name or entry.path.rsplit("/", 1)[-1][:-3]
        description = " ".join(entry.description.split())
        project = f" ({' '.join(entry.project.split())})" if entry.project.strip() else ""
        lines.append(f"- [[{entry.path[:-3]}|{label}]]{project}" + (f" — {description}" if description else ""))
    lines.append(END)
    return newline.join(lines)


def refresh(text: str | None, day: str, entries: list[Entry]) -> str | None:
    """The page's new text, or None when nothing should be written (unchanged, or no page needed)."""
    if text is None:
        if not entries:
            return None
        return f"# {day}\n\n{render_block(entries)}\n"
    newline = "\r\n" if "\r\n" in text else "\n"
    block = render_block(entries, newline)
    start = text.find(START)
    end = text.find(END, start + len(START)) if start >= 0 else -1
    if start >= 0 and end >= 0:
        updated = text[:start] + block + text[end + len(END) :]
    else:
        separator = "" if not text.strip() else (newline if text.endswith(newline) else newline * 2)
        updated = text + separator + block + newline
    return None if updated == text else updated
