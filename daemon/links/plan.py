"""Plan the link rewrites a batch of file moves needs, as new file texts (no I/O).

This module owns the rename rule (U3 + U4 of shared/reference/obsidian-links.md §1.5):
a link is rewritten only when the move would change what it resolves to, and then
only its target bytes change. The same rule repairs inbound links, fixes a moved
note's own relative markdown links, and pins bare links whose name became ambiguous.
A move that Obsidian (or another device) already handled plans nothing, so the rule is
idempotent. `vault` applies the plan; this module only computes it.
"""

from __future__ import annotations

from typing import Callable, Collection, Iterable, Mapping, NamedTuple

from daemon.links.scan import FRONTMATTER, MARKDOWN, Link, scan
from daemon.links.resolve import PathIndex, PathsAfter, fold, link_target_for


def rewrite(text: str, replacements: list[tuple[Link, str]]) -> str:
    """Replace each link's target span in `text`; every other byte stays as it was.

    Raises:
        ValueError: a link's span no longer holds its scanned text, or two spans overlap.
    """
    pieces: list[str] = []
    tail = len(text)
    # Right to left, so earlier offsets stay valid while later spans change length.
    for link, target in sorted(replacements, key=lambda r: r[0].target_start, reverse=True):
        if link.target_end > tail:
            raise ValueError(f"overlapping link targets at offset {link.target_start}")
        if link.raw and text[link.start:link.end] != link.raw:
            raise ValueError(f"text changed since it was scanned at offset {link.start}")
        pieces.append(text[link.target_end:tail])
        pieces.append(target)
        tail = link.target_start
    pieces.append(text[:tail])
    return "".join(reversed(pieces))


def after_moves(before: PathIndex, moves: Mapping[str, str]) -> PathIndex:
    """The vault's file list once `moves` (old path → new path) have happened (a view of `before`).

    All removals come first: a batch may reuse a path another move vacates.
    """
    return PathsAfter(before, moves, moves.values())


def before_moves(current: PathIndex, moves: Mapping[str, str]) -> PathIndex:
    """The vault's file list as it was before `moves`, from the index's list `current`.

    Usually that is `current` itself. When a destination was indexed before its move
    was recognised (a copy seen before the original vanished, a file found in a
    folder created a moment before), it did not exist before the move and must not
    take part in what links resolved to.
    """
    early = [new for new in moves.values() if new in current and new not in moves]
    if not early and all(old in current for old in moves):
        return current
    return PathsAfter(current, early, moves)


def _relative_style(link: Link, source: str, was: str, before: PathIndex) -> bool | None:
    """Whether a markdown link was written relative to its note's folder (None: not markdown)."""
    if link.kind != MARKDOWN:
        return None
    if link.target.startswith(("./", "../")):
        return True
    folder_written = "/" in source and not link.target.startswith("/")
    return folder_written and before.resolve_relative(link.target, source) == was


def _still_right(link: Link, source: str, moved_to: str, was: str, want: str, before: PathIndex,
                 after: PathIndex) -> bool:
    """Whether the link, unchanged, resolves to `want` after the moves, as firmly as before.

    A folder-qualified link that named an exact vault path (or, for a markdown link, a
    path from its note's folder) must keep naming one: `[[proj/A]]` after `proj/` moved
    to `archive/proj/` would still resolve here by suffix matching, but that is
    unverified in Obsidian (R7), so it is rewritten.
    """
    if after.resolve(link, moved_to) != want:
        return False
    target = link.target
    if "/" not in target:
        return True
    if link.kind != MARKDOWN:
        return before.lookup(target) != was or after.lookup(target) == want
    if target.startswith(("./", "../", "/")):
        return True  # looked up from the note's folder or the root only, never by suffix
    firm = before.lookup(target) == was or before.resolve_relative(target, source) == was
    return not firm or after.lookup(target) == want or after.resolve_relative(target, moved_to) == want


def _reads_back(link: Link, target: str, moved_to: str, want: str, after: PathIndex) -> Link | None:
    """The link with its new target, scanned alone, if it parses the same way and resolves to `want`.

    A name a wikilink cannot spell (`C# notes.md`, `a|b.md`) would otherwise become a
    link to a different note; such a link is left as it was instead.
    """
    raw = link.raw[:link.target_start - link.start] + target + link.raw[link.target_end - link.start:]
    if link.kind == FRONTMATTER:
        raw = f"---\nk: {link.quote}{raw}{link.quote}\n---\n"
    again = scan(raw)
    if (len(again) == 1 and again[0].kind == link.kind and again[0].embed == link.embed
            and again[0].subpath == link.subpath and again[0].alias == link.alias
            and after.resolve(again[0], moved_to) == want):
        return again[0]
    return None


Verdicts = dict[tuple[bool, str], tuple[str | None, bool]]
VERDICTS_MAX = 100_000  # remembered verdicts per move, forgotten all at once beyond (bounded memory)


def _verdict(link: Link, source: str, moved_to: str, moves: Mapping[str, str], before: PathIndex,
             after: PathIndex, memo: Verdicts | None = None) -> tuple[str | None, bool]:
    """(the file the link resolved to before the moves, whether it may stay as it is).

    It may stay when it was unresolved (an author's broken link is left alone) or is still
    right after the moves. Some targets get the same verdict from every note, which is
    remembered in ``memo`` (shared by a move's chunks): a folder move's referrers ask for the
    same few thousand targets tens of thousands of times (``_everywhere``).
    """
    found = _everywhere_remembered(link, moves, before, after, memo)
    if found is not None:
        return found
    was = before.resolve(link, source)
    return was, was is None or _still_right(link, source, moved_to, was, moves.get(was, was), before, after)


def _everywhere(link: Link, moves: Mapping[str, str], before: PathIndex,
                after: PathIndex) -> tuple[str | None, bool] | None:
    """``_verdict``'s answer when the link's note does not matter, else None.

    - A bare name that one file carries both before and after the moves: every rule picks
      that file.
    - A bare name no file carried before: unresolved from every folder (the author's broken link).
    - A wikilink's path (not ``./`` or ``../``) that named an exact vault path before: that was
      its file from every note, and it stays right exactly when it names the moved file's
      exact path after the moves (``_still_right``; a suffix or folder match is not firm enough).
    """
    target = link.target
    if "/" not in target:
        if not target.strip():
            return None  # `[[#Heading]]`: its own note
        was = before.sole_bearer(target)
        if was is None:
            return (None, True) if before.bears_none(target) else None
        now = after.sole_bearer(target)
        return None if now is None else (was, now == moves.get(was, was))
    if link.kind == MARKDOWN or target.strip().startswith(("./", "../")):
        return None
    was = before.lookup(target)
    return None if was is None else (was, after.lookup(target) == moves.get(was, was))


Relinked = dict[str, list[tuple[Link, str | None]]]  # path after the moves → its links, resolved after them


class _Planned(NamedTuple):
    """One file's plan: its links, the rewrites (link, new target text, the new link as it
    reads back alone), and the resolution after the moves of each link it learnt (by position)."""

    links: list[Link]
    rewrites: list[tuple[Link, str, Link]]
    resolved: dict[int, str | None]


def _replacements(text: str, source: str, moves: Mapping[str, str], before: PathIndex,
                  after: PathIndex, changed: bool = False, style: str = "shortest",
                  memo: Verdicts | None = None) -> _Planned:
    """The links of one file whose resolution the moves would change, with new targets.

    In a file `changed` since it was indexed, the links may have been written after
    the moves (Obsidian rewrites referrers as it renames; a checkout brings new text):
    a link that resolves among the files after the moves is the author's and stays.
    Only a link the moves left unresolved is repaired.
    """
    moved_to = moves.get(source, source)
    links = scan(text)
    out: list[tuple[Link, str, Link]] = []
    resolved: dict[int, str | None] = {}
    kept = after.keeps_bearers if moved_to == source and isinstance(after, PathsAfter) and after.base is before else None
    for i, link in enumerate(links):
        if changed:
            resolved[i] = after.resolve(link, moved_to)
            if resolved[i] is not None:
                continue
        if kept is not None and _bare_kept(link.target, kept):  # most links of a referrer: not the moved files'
            resolved[i] = before.resolve(link, source)  # as after the moves, and still right (unchanged)
            continue
        was, stays = _verdict(link, source, moved_to, moves, before, after, memo)
        if was is None:
            continue  # unresolved: left exactly as the author wrote it
        want = moves.get(was, was)
        if stays:
            resolved[i] = want  # already rewritten, or a unique name that moved (U3, U10)
            continue
        relative = _relative_style(link, source, was, before)
        target = link_target_for(want, moved_to, after, link, relative=relative, style=style)
        again = None if target == text[link.target_start:link.target_end] else _reads_back(
            link, target, moved_to, want, after)
        if again is not None:
            out.append((link, target, again))
            resolved[i] = want
    return _Planned(links, out, resolved)


def _bare_kept(target: str, kept: Callable[[str], bool]) -> bool:
    """Whether ``target`` is a bare name (no ``/``, not blank) whose files the moves left alone
    (``kept``: ``PathsAfter.keeps_bearers``): from a note that stays where it is, such a link
    resolves as before, so ``_verdict`` would find it still right, as it was."""
    low = fold(target.strip())
    return bool(low) and "/" not in low and kept(low)


# Characters that open or close what the scanner skips (code, math, comments, escapes) or a
# link: a rewritten target free of them, before and after, leaves the rest of the text
# scanning as it did (`%` only counts doubled).
_SCAN_SENSITIVE = frozenset("\n\r`$[]\\!<")


def _relinked(text: str, new_text: str, planned: _Planned) -> list[Link] | None:
    """The links `scan(new_text)` finds, from the links of `text` and its rewrites, without scanning.

    A rewrite changes only its target's bytes, so every later link shifts by the change of
    length and the rewritten ones take the target they read back with. None when that may
    not hold: a target (old or new) holds a character the scanner reacts to, a `%%` at its
    edges, or links nest (a badge's image inside its link: the outer raw text would change).
    """
    links, at = planned.links, {link.start: (target, again) for link, target, again in planned.rewrites}
    if any(b.start < a.end for a, b in zip(links, links[1:])):
        return None
    out: list[Link] = []
    shift = 0
    for link in links:
        if link.start not in at:
            out.append(link._replace(start=link.start + shift, end=link.end + shift,
                                     target_start=link.target_start + shift, target_end=link.target_end + shift)
                       if shift else link)
            continue
        target, again = at[link.start]
        written = text[link.target_start:link.target_end]
        start, grow = link.target_start + shift, len(target) - len(written)
        if (_SCAN_SENSITIVE.intersection(written) or _SCAN_SENSITIVE.intersection(target)
                or "%%" in text[link.target_start - 1:link.target_end + 1]
                or "%%" in new_text[start - 1:start + len(target) + 1]):
            return None
        end = link.end + shift + grow
        out.append(link._replace(start=link.start + shift, end=end, target=again.target, target_start=start,
                                 target_end=start + len(target), raw=new_text[link.start + shift:end]))
        shift += grow
    return out


def common_verdict(kind: str, target: str, moves: Mapping[str, str], before: PathIndex, after: PathIndex,
                   memo: Verdicts) -> tuple[str | None, bool] | None:
    """``_verdict`` of a link of this kind and target when it is the same from every note
    (``_everywhere``), else None; remembered in ``memo`` as ``_verdict`` remembers it."""
    return _everywhere_remembered(Link(kind, False, 0, 0, target, 0, 0, "", None, 0), moves, before, after, memo)


def _everywhere_remembered(link: Link, moves: Mapping[str, str], before: PathIndex, after: PathIndex,
                           memo: Verdicts | None) -> tuple[str | None, bool] | None:
    """``_everywhere``, remembered in ``memo`` (bounded by VERDICTS_MAX) by the link's kind and target."""
    key = (link.kind == MARKDOWN, link.target)
    found = memo.get(key) if memo is not None else None
    if found is None:
        found = _everywhere(link, moves, before, after)
        if found is not None and memo is not None:
            if len(memo) >= VERDICTS_MAX:
                memo.clear()
            memo[key] = found
    return found


def may_change(links: Iterable[tuple[str, str]], source: str, moves: Mapping[str, str], before: PathIndex,
               after: PathIndex, memo: Verdicts | None = None) -> bool:
    """Whether `plan_moves` may rewrite a link of `source`, given its links' (kind, target) as indexed.

    False only when every link resolves after the moves as `_replacements` requires of a link
    it leaves alone (unresolved before, or still right): then the file needs no scan. The
    rows must be those of the file's current text (its digest equals the index's).
    """
    moved_to = moves.get(source, source)
    for kind, target in links:
        found = memo.get((kind == MARKDOWN, target)) if memo is not None else None  # most are remembered
        if found is None:
            found = _verdict(Link(kind, False, 0, 0, target, 0, 0, "", None, 0), source, moved_to, moves, before,
                             after, memo)
        if not found[1]:
            return True
    return False


def plan_moves(files: Mapping[str, str], moves: Mapping[str, str], before: PathIndex,
               changed: Collection[str] = (), style: str = "shortest",
               after: PathIndex | None = None, memo: Verdicts | None = None,
               relinked: Relinked | None = None) -> dict[str, str]:
    """New texts for the files whose links the moves would break or redirect.

    `files` maps each candidate file's path *before* the moves to its text; `moves`
    maps old path → new path (one file, a folder's files, or a case-only rename);
    `before` is the vault's file list before the moves; `changed` names the files whose
    text differs from what the index held (see `_replacements`). Returns {path after
    the moves: new text}, holding only files whose text must change. `style` is the
    vault's new-link format (`shortest`, `relative`, `absolute`) for wikilinks. A link whose new
    target cannot be written so that it reads back as the moved file is left unchanged.
    `after` is `after_moves(before, moves)` when the caller has it already (a folder move is
    planned a chunk of files at a time, and building the view costs as much as the moves).
    `memo` carries links' verdicts from one chunk to the next (`_verdict`): the same moves,
    `before` and `after` throughout. `relinked`, when given, receives each planned file's
    links with their resolutions after the moves, what scanning and resolving its new text
    would give (`_relinked`), so that it can be indexed without either; a file whose links
    cannot be derived safely is left out.
    """
    after = after_moves(before, moves) if after is None else after
    planned: dict[str, str] = {}
    for source, text in files.items():
        found = _replacements(text, source, moves, before, after, source in changed, style, memo)
        if not found.rewrites:
            continue
        moved_to = moves.get(source, source)
        new_text = planned[moved_to] = rewrite(text, [(link, target) for link, target, _ in found.rewrites])
        links = _relinked(text, new_text, found) if relinked is not None else None
        if relinked is not None and links is not None:
            relinked[moved_to] = [(link, found.resolved[i] if i in found.resolved else after.resolve(link, moved_to))
                                  for i, link in enumerate(links)]
    return planned
