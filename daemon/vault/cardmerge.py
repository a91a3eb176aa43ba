"""Keep the user's edits when a card is updated: a line-based three-way merge.

``base`` is the body memvault wrote last time, ``current`` the body in the
vault now (the user may have edited it), ``new`` the distiller's updated body.
Lines the user added or changed survive; lines the user deleted stay deleted.
Without a base (state lost) every current line counts as the user's, so
nothing is ever dropped.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher


def merge_body(base: str | None, current: str, new: str) -> str:
    """Merge the user's edits (base → current) into ``new``."""
    if base is not None and current == base:
        return new
    if base is not None and new == base:
        return current
    base_lines = _lines(base or "")
    current_lines = _lines(current)
    removed: Counter[str] = Counter()
    inserted: list[int] = []
    matcher = SequenceMatcher(a=base_lines, b=current_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed.update(line for line in base_lines[i1:i2] if line.strip())
        inserted.extend(range(j1, j2))
    result = _without(_lines(new), removed)
    chosen = set(inserted)
    for j in inserted:
        # A blank line the user typed is kept only between two of their own lines.
        if not current_lines[j].strip() and not (j - 1 in chosen and j + 1 in chosen):
            continue
        _insert_after_anchor(result, current_lines[:j], current_lines[j])
    return "\n".join(result) + ("\n" if new.endswith("\n") or current.endswith("\n") else "")


def _lines(text: str) -> list[str]:
    """Lines split on ``\n`` only: U+2028 or U+0085 inside a line is text, not a break."""
    lines = text.replace("\r\n", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def _without(lines: list[str], removed: Counter[str]) -> list[str]:
    left = Counter(removed)
    kept = []
    for line in lines:
        if left[line] > 0:
            left[line] -= 1
            continue
        kept.append(line)
    return kept


def _insert_after_anchor(result: list[str], before: list[str], line: str) -> None:
    """Insert the user's ``line`` after the nearest line preceding it in their version that is still kept."""
    if line.strip() and line in result:
        return
    present = set(result)
    position = 0
    for anchor in reversed(before):
        if anchor.strip() and anchor in present:
            position = _last_index(result, anchor) + 1
            break
    else:
        position = 0 if not any(b.strip() for b in before) else len(result)
    result.insert(position, line)


def _last_index(lines: list[str], value: str) -> int:
    return len(lines) - 1 - lines[::-1].index(value)
