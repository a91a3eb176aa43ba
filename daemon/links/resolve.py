"""Resolving links the way Obsidian does, and spelling a link's target for a given file.

``PathIndex`` is the vault's file list and resolves a link to one file (R1–R7 of
shared/reference/obsidian-links.md §1.4); ``link_target_for`` spells the target
text that makes a link resolve to a given file while keeping the author's style.
No file I/O: the index and the vault writer feed them path lists.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from typing import Iterable
from urllib.parse import quote

from daemon.links.scan import FRONTMATTER, MARKDOWN, Link

# ---------------------------------------------------------------------- resolution
def fold(text: str) -> str:
    """The form names are compared in: NFC (macOS and files synced from it store NFD), lower case."""
    return text.lower() if text.isascii() else unicodedata.normalize("NFC", text).lower()


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


def _keys(low: str) -> tuple[str, ...]:
    """Lookup keys for a lower-cased target: `.md` is optional (L1, R1)."""
    return (low,) if low.endswith(".md") else (low, low + ".md")


def _join(folder: str, low: str) -> str | None:
    """`low` relative to `folder`, normalised; None when it climbs above the vault."""
    joined = f"{folder}/{low}" if folder else low
    if "." in joined and ("./" in joined or joined.endswith("/..") or joined.startswith(".")):
        joined = posixpath.normpath(joined)
        if joined == "." or joined == ".." or joined.startswith("../"):
            return None
    return joined


class PathIndex:
    """The vault's file list for resolution (all files, not only .md; vault-relative POSIX paths).

    Two dicts make a lookup O(1)-ish: lower-cased full path → paths, and lower-cased
    file name → (lower-cased path, path) for bare and suffix targets.
    """

    def __init__(self, paths: Iterable[str] = ()) -> None:
        self._paths: set[str] = set()
        self._by_lower: dict[str, list[str]] = {}
        self._by_name: dict[str, list[tuple[str, str]]] = {}
        for path in paths:
            self.add(path)

    def add(self, path: str) -> None:
        if path in self._paths:
            return
        self._paths.add(path)
        low = fold(path)
        same = self._by_lower.setdefault(low, [])
        same.append(path)
        same.sort()  # two files differing only in case: the lexicographic first wins [unverified R1]
        self._by_name.setdefault(low.rpartition("/")[2], []).append((low, path))

    def remove(self, path: str) -> None:
        if path not in self._paths:
            return
        self._paths.discard(path)
        low = fold(path)
        self._by_lower[low].remove(path)
        if not self._by_lower[low]:
            del self._by_lower[low]
        name = low.rpartition("/")[2]
        self._by_name[name].remove((low, path))
        if not self._by_name[name]:
            del self._by_name[name]

    def __contains__(self, path: object) -> bool:
        return path in self._paths

    def __len__(self) -> int:
        return len(self._paths)

    def paths(self) -> list[str]:
        return sorted(self._paths)

    def resolve(self, link: Link | str, source: str) -> str | None:
        """The file `link` (a Link, or a str wiki target) points to from note `source`."""
        if isinstance(link, str):
            return self.resolve_target(link, source)
        return self.resolve_target(link.target, source, markdown=link.kind == MARKDOWN)

    def resolve_target(self, target: str, source: str, markdown: bool = False) -> str | None:
        """Resolve a decoded target string as a wiki (default) or markdown link target."""
        if markdown:
            return self._resolve_markdown(target, source)
        return self._resolve_wiki(target, source)

    def resolve_relative(self, target: str, source: str) -> str | None:
        """The file `target` names relative to `source`'s folder, if one exists."""
        joined = _join(fold(_folder(source)), fold(target))
        return None if joined is None else self._exact(joined)

    def lookup(self, path: str) -> str | None:
        """The file at vault path `path` (case-insensitive, `.md` optional), no name search."""
        return self._exact(fold(path.strip().lstrip("/")))

    def unique_name(self, path: str) -> bool:
        """Whether no other file carries `path`'s file name (`.md` optional, any case)."""
        name = fold(path.rpartition("/")[2])
        stem = name[:-3] if name.endswith(".md") else name
        return len(self._named(stem)) + len(self._named(stem + ".md")) == 1

    def _with_path(self, low: str) -> list[str]:
        """The files whose folded path is `low` (several only on a case-sensitive disk)."""
        return self._by_lower.get(low, [])

    def _named(self, name: str) -> list[tuple[str, str]] | tuple[()]:
        """(folded path, path) of the files whose folded file name is `name`."""
        return self._by_name.get(name, ())

    def _exact(self, low: str) -> str | None:
        for key in _keys(low):
            hits = self._with_path(key)
            if hits:
                return hits[0]
        return None

    def _resolve_wiki(self, target: str, source: str) -> str | None:
        """R2: exact vault path, then the source's folder, then the shortest suffix match (R7)."""
        low = fold(target.strip())
        if not low:
            return source  # `[[#Heading]]` links to its own note (L10)
        if "/" not in low:
            bearers = self._bearers(low)
            if len(bearers) == 1:  # every rule picks that file
                return bearers[0][1]
            if not bearers:  # every rule looks for a file of that name: none is found (a broken link,
                return None  # or one to a deleted note, went through each rule in turn)
        if low.startswith(("./", "../")):
            return self.resolve_relative(low, source)
        low = low.lstrip("/")
        folder = fold(_folder(source))
        hit = self._exact(low) or (self._exact(f"{folder}/{low}") if folder else None)
        return hit or self._by_suffix(low)

    def sole_bearer(self, target: str) -> str | None:
        """The file a bare name (no ``/``) resolves to from every folder: the one file carrying
        that name, `.md` optional; None when none or several do (then the folder may decide)."""
        low = fold(target.strip())
        return self._sole_bearer(low) if low and "/" not in low else None

    def bears_none(self, target: str) -> bool:
        """Whether no file carries the bare name ``target`` (`.md` optional): then, not blank, it
        resolves from no folder."""
        return not self._bearers(fold(target.strip()))

    def _bearers(self, low: str) -> list[tuple[str, str]]:
        """(folded path, path) of the files carrying the folded bare name ``low``, `.md` optional."""
        return [*self._named(low), *self._named(low + ".md")]

    def _sole_bearer(self, low: str) -> str | None:
        bearers = self._bearers(low)
        return bearers[0][1] if len(bearers) == 1 else None  # one: every rule picks that file

    def _by_suffix(self, low: str) -> str | None:
        best: str | None = None
        for key in _keys(low):
            for path_low, path in self._named(key.rpartition("/")[2]):
                matches = path_low == key or path_low.endswith("/" + key)
                if matches and (best is None or (len(path), path) < (len(best), best)):
                    best = path
        return best

    def _resolve_markdown(self, target: str, source: str) -> str | None:
        """R5: a decoded destination is looked up the way a wikilink is (R2: the exact vault
        path first, then the note's folder, then the shortest path). `./` and `../` stay
        relative to the note, a leading `/` is the vault root, and a path with dot segments
        is normalised as a vault path, then relative to the note.
        """
        if not target:
            return source
        low = fold(target)
        if low.startswith(("./", "../")):
            return self.resolve_relative(low, source)
        if low.startswith("/") or "./" in low or low.endswith("/.."):
            vault_path = _join("", low.lstrip("/"))
            hit = None if vault_path is None else self._exact(vault_path)
            return hit if hit is not None or low.startswith("/") else self.resolve_relative(low, source)
        return self._resolve_wiki(target, source)


class PathsAfter(PathIndex):
    """`base` with `removed` gone and `added` present, without copying `base`.

    A move's "after" view: a rename in a 100,000-file vault costs as much as the
    paths it moves, not a copy of every path. `base` must not change while in use.
    """

    def __init__(self, base: PathIndex, removed: Iterable[str], added: Iterable[str]) -> None:
        super().__init__()
        self._base = base
        added, removed = list(added), set(removed)
        # The file names of every path the view was built from, for ``keeps_bearers``.
        self._names = {fold(p).rpartition("/")[2] for p in removed.union(added)}
        self._removed = removed - set(added)
        for path in added:
            if path not in self:
                super().add(path)

    def add(self, path: str) -> None:
        raise TypeError("PathsAfter is a read-only view")

    def remove(self, path: str) -> None:
        raise TypeError("PathsAfter is a read-only view")

    def __contains__(self, path: object) -> bool:
        return path in self._paths or (path in self._base and path not in self._removed)

    def __len__(self) -> int:
        return len(self.paths())

    def paths(self) -> list[str]:
        return sorted((set(self._base.paths()) - self._removed) | self._paths)

    def _with_path(self, low: str) -> list[str]:
        base = [p for p in self._base._with_path(low) if p not in self._removed]
        own = self._by_lower.get(low, [])
        return sorted(base + own) if own else base

    def _named(self, name: str) -> list[tuple[str, str]] | tuple[()]:
        base = [e for e in self._base._named(name) if e[1] not in self._removed]
        return base + self._by_name.get(name, [])

    @property
    def base(self) -> PathIndex:
        return self._base

    def keeps_bearers(self, low: str) -> bool:
        """Whether no path the view was built from (removed or added: a move's source or
        destination, even one that swaps with another) carries the folded bare name ``low``
        (`.md` optional). Then the files of that name are the same ones, at the same paths, as
        in the base, and a bare target of that name resolves from any folder as it did (every
        rule looks only among those files)."""
        return low not in self._names and low + ".md" not in self._names


# ------------------------------------------------------------ spelling a new target
_MD_UNSAFE = re.compile(r"[\s%()<>#?\\^|\[\]\x00-\x1f\x7f]")
_ANGLE_UNSAFE = re.compile(r"[<>#|\n\\]|%(?=[0-9A-Fa-f]{2})")  # `|` would split a table cell
_NON_ASCII_ESCAPE = re.compile(r"%[89A-Fa-f][0-9A-Fa-f]")
_PAREN_ESCAPE = re.compile(r"%2[89]", re.I)
_FLAT_PARENS = re.compile(r"[^()]*(?:\([^()]*\)[^()]*)*")  # balanced, one level: a bare destination allows it


def _spellings(path: str, keep_md: bool) -> list[str]:
    """`path` without `.md` first when the author omitted it, with it as a fallback."""
    if not keep_md and path.lower().endswith(".md"):
        return [path[:-3], path]
    return [path]


def _wiki_target(path: str, source: str, index: PathIndex, written: str, style: str) -> str:
    """The target Obsidian would write for `path` under the vault's new-link format (R3).

    "shortest": the file name when no other file has it, else the vault path;
    "absolute": the vault path; "relative": the path from the note's folder.
    `.md` is kept or omitted as the author wrote it. A form that would not resolve
    back to `path` falls back to the vault path.
    """
    keep_md = written.strip().lower().endswith(".md")
    forms: list[str] = []
    if style == "relative":
        rel = posixpath.relpath(path, _folder(source) or ".")
        forms = _spellings(rel, keep_md) + ([] if rel.startswith("../") else _spellings("./" + rel, keep_md))
    elif style != "absolute" and index.unique_name(path):
        forms = _spellings(path.rpartition("/")[2], keep_md)
    for form in forms + _spellings(path, keep_md):
        if index.resolve_target(form, source) == path:
            return form
    return path


def _percent(m: re.Match[str]) -> str:
    return quote(m.group(), safe="")


def _encode(form: str, angle: bool, written_raw: str) -> str:
    """Write `form` as a markdown destination in the author's encoding style."""
    if angle:
        return _ANGLE_UNSAFE.sub(_percent, form)
    if _NON_ASCII_ESCAPE.search(written_raw):  # the author percent-encodes everything
        return quote(form, safe="/!$&'*+,;=:@~")
    if _PAREN_ESCAPE.search(written_raw) or not _FLAT_PARENS.fullmatch(form):
        return _MD_UNSAFE.sub(_percent, form)
    return _MD_UNSAFE.sub(lambda m: m.group() if m.group() in "()" else _percent(m), form)


def _markdown_target(path: str, source: str, index: PathIndex, like: Link, relative: bool | None) -> str:
    written = like.target
    keep_md = written.lower().endswith(".md")
    if relative is None:
        relative = written.startswith(("./", "../"))
    rel = posixpath.relpath(path, _folder(source) or ".")
    dotted = rel if rel.startswith("../") else "./" + rel
    if relative:
        styles = [dotted if written.startswith("./") else rel]
    elif written.startswith("/"):
        styles = ["/" + path]
    else:
        styles = [path] if "/" in written else [path.rpartition("/")[2], path]
    styles.append(dotted)  # relative lookup comes first, so this always resolves
    raw_at = like.target_start - like.start
    written_raw = like.raw[raw_at:raw_at + like.target_end - like.target_start]
    angle = raw_at > 0 and like.raw[raw_at - 1:raw_at] == "<"
    for style in styles:
        for form in _spellings(style, keep_md):
            if index.resolve_target(form, source, markdown=True) == path:
                return _encode(form, angle, written_raw)
    return _encode(dotted, angle, written_raw)


def _yaml_quoted(target: str, quote_char: str) -> str:
    if quote_char == "'":
        return target.replace("'", "''")
    return target.replace("\\", "\\\\").replace('"', '\\"')


def link_target_for(path: str, source: str, index: PathIndex, like: Link, *,
                    relative: bool | None = None, style: str = "shortest") -> str:
    """The target text that makes a link styled like `like` resolve to `path` from `source`.

    Wiki and frontmatter links follow `style`, the vault's new-link format
    (`_wiki_target`), with `.md` kept or omitted as written. Markdown links keep relative or
    vault style (`relative` overrides the guess from the text), `<…>` or percent
    encoding, and `.md` presence. Frontmatter targets are escaped for their quotes.
    """
    if like.kind == MARKDOWN:
        written = _markdown_target(path, source, index, like, relative)
    else:
        written = _wiki_target(path, source, index, like.target, style)
        written = _yaml_quoted(written, like.quote) if like.kind == FRONTMATTER else written
    if not written.isascii() and not like.target.isascii():  # keep the normal form the link was written in
        nfc = unicodedata.normalize("NFC", like.target) == like.target
        written = unicodedata.normalize("NFC" if nfc else "NFD", written)
    return written
