"""Obsidian links: find them in a note's text, with exact spans.

This module owns the link scanner (no file I/O; the index and the vault writer
feed it text): `scan` turns a note's text into `Link` spans — wikilinks, embeds,
markdown links and quoted wikilinks in frontmatter — skipping code, comments and
math. `resolve` resolves them and spells new targets; `linkplan` plans renames.

Rule IDs (L*, N*, R*, U*) refer to shared/reference/obsidian-links.md §1.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple
from urllib.parse import unquote

WIKI, MARKDOWN, FRONTMATTER = "wiki", "markdown", "frontmatter"


class Link(NamedTuple):
    """One link in a note. Offsets index the text exactly as given (BOM, CRLF kept).

    ``target`` is the path part: as written for wiki links, percent-decoded and without
    ``<>`` for markdown links, YAML-unquoted for frontmatter links. A NamedTuple:
    immutable like a frozen dataclass, and several times cheaper to build for
    the 100,000 links of a large vault. A rewrite replaces
    exactly ``text[target_start:target_end]``. ``alias`` is the display text (the
    bracket text for markdown links) or an embed size. ``quote`` is the YAML quote
    character of a frontmatter link, so a new target can be escaped for it.
    """

    kind: str
    embed: bool
    start: int
    end: int
    target: str
    target_start: int
    target_end: int
    subpath: str
    alias: str | None
    line: int
    key: str | None = None
    raw: str = ""
    quote: str = ""


# A scanned link before its line number is known: the Link fields minus `line`/`raw`.
_Found = tuple[int, int, str, bool, int, int, str, str, str | None, str | None, str]

# ---------------------------------------------------------------- scanning the body
# One search finds the next character that can open a link or an excluded region;
# everything between two events is plain text and never looked at from Python.
_EVENT = re.compile(
    r"\n(?P<fence>[ \t]*(?:>[ \t]?)*(?P<fchars>`{3,}|~{3,}))"
    r"|\n(?P<indent>[ \t]*\r?\n)(?=[ ]{4}|\t)"
    r"|(?P<tick>`+)|(?P<pct>%%)|(?P<html><!--)|(?P<dmath>\$\$)|(?P<math>\$)"
    r"|(?P<esc>\\[!-/:-@\[-`{-~])|(?P<wiki>!?\[\[)|(?P<md>!?\[)"
)
# A cheap first pass: a plain character class lets the regex engine skip fast over text
# (the grouped alternation above costs ~10x more per character); a newline only counts
# when the next line may open a fence or an indented code block.
_TRIGGER = re.compile(r"[\n`%<$\\!\[](?<=[`%<$\\!\[]|\n(?=[ \t>]*[`~]|[ \t]*\r?\n(?:[ ]{4}|\t)))")
_FIRST_LINE = re.compile(r"(?P<fence>[ \t]*(?:>[ \t]?)*(?P<fchars>`{3,}|~{3,}))|(?P<indent>(?:[ \t]*\r?\n)?)(?=[ ]{4}|\t)")
# Where a paragraph ends for inline spans: a blank line, or a line that interrupts it
# (a fence, heading, list item, and a blockquote unless the span started in one).
_INTERRUPT = r"\n(?:[ \t]*\r?\n|[ \t]*(?:>[ \t]?)*(?:`{3,}|~{3,})|#{1,6}(?:[ \t]|\r?$)|[ \t]*[-*+][ \t]"
_PARA_END = re.compile(_INTERRUPT + r"|[ \t]*>)", re.M)
_QUOTE_PARA_END = re.compile(_INTERRUPT + r"|[ \t]*(?:>[ \t]*)+\r?$)", re.M)
_QUOTED = re.compile(r"[ \t]*>")
_CODE_END = re.compile(r"\n(?![ \t]*\r?$|[ ]{4}|\t)", re.M)
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|\r?$)")
_MATH_CLOSE = re.compile(r"(?<![\s\\])\$(?!\d)")
_BRACKET = re.compile(r"\\.|[\[\]]")
_MD_DEST = re.compile(
    r"\(\s*(?:<(?P<angle>[^<>\n]*)>|(?P<bare>(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))*))"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"
)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_NOT_SIMPLE = re.compile(r"[\[\\\n]")
_NEAR = 256  # links close within this many characters; longer ones take the memoised path
_closers: dict[tuple[str, int], re.Pattern[str]] = {}


def _closer(kind: str, n: int) -> re.Pattern[str]:
    """The pattern closing a code span (`kind` "span") or a fence of `n` `kind` chars (cached)."""
    pattern = _closers.get((kind, n))
    if pattern is None:
        if kind == "span":  # a code span closes on a backtick run of exactly the same length
            pattern = re.compile(r"(?<!`)`{%d}(?!`)" % n)
        else:
            pattern = re.compile(r"\n[ \t]*(?:>[ \t]?)*%s{%d,}[ \t]*\r?$" % (re.escape(kind), n), re.M)
        _closers[(kind, n)] = pattern
    return pattern


class _Scan:
    """One pass over text[..end): the links found so far and memoised look-aheads.

    "Where is the next `]]` / newline / paragraph end after i" is asked at every `[`;
    remembering the last answer keeps a long line or paragraph linear, not quadratic.
    """

    __slots__ = ("_line", "_list", "_next", "_pairs", "end", "out", "text")

    def __init__(self, text: str, end: int, out: list[_Found]) -> None:
        self.text, self.end, self.out = text, end, out
        self._next: dict[str | re.Pattern[str], tuple[int, int]] = {}
        self._line = (0, -1, False)  # (start, end, quoted) of the last line asked about
        self._pairs: tuple[int, int, dict[int, int]] = (0, -1, {})
        self._list = (-1, False)  # (nl, answer) of the last in_list question

    def next(self, what: str | re.Pattern[str], i: int) -> int:
        """Start of the first `what` at or after `i`, or `end` when there is none.

        Patterns may look behind but not ahead of their match start, so an answer
        found from `i0` also holds for any `i` between `i0` and it.
        """
        hit = self._next.get(what)
        if hit is not None and hit[0] <= i <= hit[1]:
            return hit[1]
        if isinstance(what, str):
            j = self.text.find(what, i, self.end)
            j = self.end if j < 0 else j
        else:
            m = what.search(self.text, i, self.end)
            j = self.end if m is None else m.start()
        self._next[what] = (i, j)
        return j

    def para_end(self, i: int) -> int:
        start, stop, quoted = self._line
        if not start <= i <= stop:
            start = self.text.rfind("\n", 0, i) + 1
            stop = self.next("\n", i)
            quoted = _QUOTED.match(self.text, start) is not None
            self._line = (start, stop, quoted)
        return self.next(_QUOTE_PARA_END if quoted else _PARA_END, i)

    def in_list(self, nl: int) -> bool:
        """Whether the block before the blank line after `nl` belongs to a list item.

        Indented lines after a blank line continue a list item rather than start an
        indented code block; walking back over blank and indented lines finds the
        item's marker. The walk stops where the previous one started, so a long list
        costs one pass.
        """
        upto, result = self._list if self._list[0] <= nl else (-1, False)
        text, pos = self.text, nl
        while True:
            if pos <= upto:
                break  # only blank or indented lines since the last answer
            if pos <= 0:
                result = False
                break
            start = text.rfind("\n", 0, pos) + 1
            if text[start:pos].strip() and text[start] not in " \t":
                result = _LIST_ITEM.match(text, start, pos) is not None
                break
            pos = start - 1
        self._list = (nl, result)
        return result

    def close_bracket(self, lb: int) -> int:
        """The `]` matching the `[` at `lb` within its paragraph, or -1.

        One stack pass pairs every bracket from `lb` to the paragraph's end; a later
        `[` in the same stretch is paired the same way a fresh scan from it would be.
        """
        limit = self.para_end(lb)
        start, stop, pairs = self._pairs
        if not (start <= lb and stop == limit):
            pairs, stack = {}, []
            for m in _BRACKET.finditer(self.text, lb, limit):
                if m.group() == "[":
                    stack.append(m.start())
                elif m.group() == "]" and stack:
                    pairs[stack.pop()] = m.start()
            self._pairs = (lb, limit, pairs)
        return pairs.get(lb, -1)


def _on_fence(s: _Scan, m: re.Match[str]) -> int:
    chars = m.group("fchars")
    eol = s.next("\n", m.end())
    if chars[0] == "`" and "`" in s.text[m.end():eol]:
        return m.start("fchars")  # a backtick info string makes it an inline code run
    close = _closer(chars[0], len(chars)).search(s.text, eol, s.end)
    return s.end if close is None else close.end()  # an unclosed fence runs to the end


def _on_indent(s: _Scan, m: re.Match[str]) -> int:
    if s.in_list(m.start()):
        return max(m.end("indent") - 1, m.start() + 1)
    stop = _CODE_END.search(s.text, m.end(), s.end)
    return s.end if stop is None else stop.start()


def _on_tick(s: _Scan, m: re.Match[str]) -> int:
    n = len(m.group("tick"))
    close = s.next(_closer("span", n), m.end())
    return m.end() if close >= s.para_end(m.end()) else close + n  # unmatched: literal text


def _on_comment(s: _Scan, m: re.Match[str]) -> int:
    closing = "%%" if m.lastgroup == "pct" else "-->"
    j = s.text.find(closing, m.end(), s.end)
    return s.end if j < 0 else j + len(closing)  # Obsidian hides an unclosed comment to the end


def _on_math(s: _Scan, m: re.Match[str]) -> int:
    i = m.end()
    if m.lastgroup == "dmath":
        j = s.next("$$", i)
        return i if j == s.end else j + 2
    if i >= s.end or s.text[i] in " \t\r\n":
        return i  # "$ 5" never opens inline math
    close = s.next(_MATH_CLOSE, i)
    return i if close >= s.para_end(i) else close + 1


def _on_escape(s: _Scan, m: re.Match[str]) -> int:
    return m.end()  # `\[[x]]` is not a link (N6)


def _wiki_parts(text: str, start: int, a: int, b: int, kind: str, key: str | None, q: str) -> _Found:
    """Split the inner text [a, b) of `[[...]]` into target, subpath and alias."""
    pipe = text.find("|", a, b)
    alias, stop = None, b
    if pipe >= 0:
        alias = text[pipe + 1:b]
        stop = pipe - 1 if pipe > a and text[pipe - 1] == "\\" else pipe  # `\|` in tables (L7)
    hash_ = text.find("#", a, stop)
    path_end = stop if hash_ < 0 else hash_
    return (start, b + 2, kind, text[start] == "!", a, path_end, text[a:path_end],
            text[path_end:stop], alias, key, q)


def _on_wiki(s: _Scan, m: re.Match[str]) -> int:
    a, text = m.end(), s.text
    close = text.find("]]", a, min(a + _NEAR, s.end))  # the first `]]` closes (L9)
    if close < 0 or text.find("\n", a, close) >= 0:  # rare: far, or not on this line
        close = s.next("]]", a)
        if close >= s.next("\n", a):  # (both are `end` when neither exists)
            return a - 1  # unclosed on this line: re-read the second `[` as a markdown link
    inner = text.find("[[", a, close)
    if inner >= 0:
        return inner
    if s.text[a:close].strip():
        s.out.append(_wiki_parts(s.text, m.start(), a, close, WIKI, None, ""))
    return close + 2


def _on_md(s: _Scan, m: re.Match[str]) -> int:
    text, lb = s.text, m.end() - 1
    rb = text.find("]", lb + 1, min(lb + _NEAR, s.end))
    if rb < 0 or _NOT_SIMPLE.search(text, lb + 1, rb):  # nested, escaped or multi-line text
        rb = s.close_bracket(lb)
    dest = _MD_DEST.match(text, rb + 1, s.end) if rb > 0 else None
    if dest is None:
        return m.end()  # task boxes, footnotes, callouts: `[ ]`, `[^1]`, `[!note]` (N8)
    group = "bare" if dest.group("angle") is None else "angle"
    raw = dest.group(group)
    if raw and not _SCHEME.match(raw):  # `http:`, `mailto:`, `obsidian:` are not vault links
        h = raw.find("#")
        path = raw if h < 0 else raw[:h]
        target = _MD_ESCAPE.sub(r"\1", path) if "\\" in path else path
        target = unquote(target) if "%" in target else target
        t0 = dest.start(group)
        s.out.append((m.start(), dest.end(), MARKDOWN, text[m.start()] == "!", t0, t0 + len(path),
                      target, raw[len(path):], text[lb + 1:rb], None, ""))
    if "[" in text[lb + 1:rb]:  # a badge `[![img](a.png)](b.md)` holds a second link
        _scan_range(_Scan(text, rb, s.out), lb + 1)
    return dest.end()


_HANDLERS: dict[str, Callable[[_Scan, re.Match[str]], int]] = {
    "fence": _on_fence, "indent": _on_indent, "tick": _on_tick, "pct": _on_comment,
    "html": _on_comment, "dmath": _on_math, "math": _on_math, "esc": _on_escape,
    "wiki": _on_wiki, "md": _on_md,
}


def _scan_range(s: _Scan, pos: int) -> None:
    search, match, text, end = _TRIGGER.search, _EVENT.match, s.text, s.end
    while True:
        t = search(text, pos, end)
        if t is None:
            return
        m = match(text, t.start(), end)
        pos = t.end() if m is None else _HANDLERS[m.lastgroup or ""](s, m)


def _scan_body(text: str, pos: int, out: list[_Found]) -> None:
    """Scan from `pos`, the start of the body's first line."""
    s = _Scan(text, len(text), out)
    first = _FIRST_LINE.match(text, pos)
    if first is not None:  # the first line has no "\n" before it for _EVENT to anchor on
        pos = _HANDLERS[first.lastgroup or ""](s, first)
    _scan_range(s, pos)


# ------------------------------------------------------------ scanning frontmatter
_FM_OPEN = re.compile(r"\ufeff?---[ \t]*\r?\n")
_FM_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.M)
_FM_ENTRY = re.compile(
    r"(?P<indent>[ \t]*)(?P<dash>(?:-[ \t]+)*)"
    r"(?:(?P<key>[^\s#'\"\-:][^:\n]*?|\"[^\"\n]*\"|'[^'\n]*')[ \t]*:(?:[ \t]+|(?=\r?$)))?"
)
_FM_LINK = re.compile(r"\"(?P<d>!?\[\[(?:[^\"\\\n]|\\.)+?\]\])\"|'(?P<s>!?\[\[(?:[^'\n]|'')+?\]\])'")
_BLOCK_SCALAR = re.compile(r"[|>][+-]?\d*[ \t]*(?:#.*)?\r?$")
_YAML_ESCAPE = re.compile(r"\\(.)")


def _frontmatter(text: str) -> tuple[int, int, int] | None:
    """(yaml start, yaml end, body start) when the text opens with a `---` block."""
    m = _FM_OPEN.match(text)
    if m is None:
        return None
    close = _FM_CLOSE.search(text, m.end())
    if close is None:
        return None
    return m.end(), close.start(), min(close.end() + 1, len(text))


def _fm_link(text: str, v: re.Match[str], key: str | None) -> _Found | None:
    group = "d" if v.group("d") is not None else "s"
    start, stop = v.start(group), v.end(group)
    a = start + (3 if text[start] == "!" else 2)
    if "]]" in text[a:stop - 2]:
        return None
    found = _wiki_parts(text, start, a, stop - 2, FRONTMATTER, key, '"' if group == "d" else "'")
    target = found[6]
    if group == "d" and "\\" in target:
        target = _YAML_ESCAPE.sub(r"\1", target)
    elif group == "s":
        target = target.replace("''", "'")
    return found[:6] + (target,) + found[7:]


def _is_whole_scalar(text: str, v: re.Match[str], a: int, b: int) -> bool:
    """A quoted link counts only as a whole value or flow-sequence item (L12)."""
    before = text[a:v.start()].rstrip()
    after = text[v.end():b].lstrip()
    return (not before or before[-1] in "[,") and (not after or after[0] in ",]#")


def _scan_frontmatter(text: str, a: int, b: int, out: list[_Found]) -> None:
    """Quoted `"[[...]]"` values in the YAML block; unquoted `[[x]]` is a YAML list."""
    if text.find("[[", a, b) < 0:
        return
    prop: str | None = None
    block_indent = -1  # inside a `key: |` block scalar, nothing is a link
    pos = a
    while pos < b:
        eol = text.find("\n", pos, b)
        eol = b if eol < 0 else eol
        m = _FM_ENTRY.match(text, pos, eol)
        assert m is not None  # every group is optional
        indent = len(m.group("indent"))
        if block_indent >= 0 and (indent > block_indent or not text[pos:eol].strip()):
            pos = eol + 1
            continue
        block_indent = -1
        if m.group("key") and indent == 0 and not m.group("dash"):
            prop = m.group("key").strip("\"'")
        if _BLOCK_SCALAR.match(text, m.end(), eol):
            block_indent = indent
        for v in _FM_LINK.finditer(text, m.end(), eol):
            found = _fm_link(text, v, prop) if _is_whole_scalar(text, v, m.end(), eol) else None
            if found is not None:
                out.append(found)
        pos = eol + 1


def scan(text: str) -> list[Link]:
    """Every link in `text`, in order, with spans into `text` exactly as given."""
    if "[" not in text:
        return []
    found: list[_Found] = []
    fm = _frontmatter(text)
    if fm is not None:
        _scan_frontmatter(text, fm[0], fm[1], found)
    body = fm[2] if fm is not None else (1 if text.startswith("\ufeff") else 0)
    _scan_body(text, body, found)
    found.sort()
    links: list[Link] = []
    line, counted = 1, 0
    for f in found:
        line += text.count("\n", counted, f[0])
        counted = f[0]
        links.append(Link(f[2], f[3], f[0], f[1], f[6], f[4], f[5], f[7], f[8], line, f[9],
                          text[f[0]:f[1]], f[10]))
    return links
