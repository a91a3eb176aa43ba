"""Incremental JSON reading with bounded memory, over ``json.JSONDecoder.raw_decode``.

Exports can be gigabytes, so a top-level array is read element by element and
JSON Lines value by value: the buffer holds the current value plus one read
ahead, never the file. Bytes are decoded as UTF-8 (a leading BOM is accepted),
and every syntax error names the line and column in the whole file.

One value can be huge too (a conversation of a million messages, a message of
200 MB). A value longer than ``BIG`` characters is decoded piece by piece
instead of as one text: an object member by member, an array element by
element, a string a slice at a time, so the buffer stays small. The arrays
under ``SPILL_KEYS`` of such a value (a conversation's messages) are kept in a
``Spilled`` sequence, which moves to a temporary file when it is long.
"""

from __future__ import annotations

import codecs
import json
import re
import zipfile
import zlib
from typing import Any, BinaryIO, Iterator

from daemon.conversations.exports.base import ExportError
from daemon.conversations.spill import Spilled

CHUNK = 1 << 16
_MAX_READ = 1 << 26
BIG = 1 << 23  # characters: a value longer than this is decoded piece by piece
SLICE = 1 << 20  # characters of a huge string decoded at a time
# The members of a huge conversation that hold its messages: kept out of memory when long.
SPILL_KEYS = frozenset({"messages", "chat_messages", "conversations"})
_DECODER = json.JSONDecoder()
_NON_WS = re.compile(r"[^ \t\n\r]")
_HIGH_SURROGATE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}")
# A syntax error this close to the end of the buffer may only mean the value
# continues in bytes not read yet ("tru" of "true", a number cut in two).
_TAIL_SLACK = 16


class JsonStream:
    """Top-level JSON values read from a byte stream, a bounded buffer at a time."""

    def __init__(self, raw: BinaryIO, name: str) -> None:
        self._raw = raw
        self._name = name
        self._decoder = codecs.getincrementaldecoder("utf-8-sig")("strict")
        self._buf = ""
        self._pos = 0
        self._eof = False
        self._bytes = 0
        self._base = 0  # file offset (in characters) of _buf[0]
        self._lines_before = 0  # newlines in the text already dropped
        self._last_newline = -1  # file offset of the last dropped newline

    def peek(self) -> str:
        """The next non-whitespace character, or '' at the end of the file."""
        while True:
            found = _NON_WS.search(self._buf, self._pos)
            if found:
                self._pos = found.start()
                return self._buf[self._pos]
            self._pos = len(self._buf)
            self._compact()
            if not self._more():
                return ""

    def value(self, spill: frozenset[str] = frozenset()) -> Any:
        """Decode the next complete value; ExportError with line and column when it is not JSON.

        A value longer than ``BIG`` is decoded in pieces; the arrays under the
        keys in ``spill`` of such an object come as ``Spilled`` sequences when long.
        """
        self.peek()
        self._compact()
        want = CHUNK
        while True:
            try:
                obj, end = _DECODER.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                if self._eof or not self._maybe_incomplete(exc):
                    raise self.error(exc.msg, exc.pos, truncated=self._eof and self._maybe_incomplete(exc)) from None
            except RecursionError:
                raise self.error("the JSON is nested too deeply", self._pos) from None
            except ValueError as exc:  # e.g. an integer longer than Python's digit limit
                raise self.error(str(exc), self._pos) from None
            else:
                if end < len(self._buf) or self._eof:
                    self._pos = end
                    self._compact()  # a huge value's text is dropped now, not when the next one is read
                    return obj
            if len(self._buf) - self._pos >= BIG:
                return self._in_pieces(spill)
            self._more(want)
            want = min(want * 2, _MAX_READ)  # doubling keeps re-parsing a big value linear

    def elements(self, spill: frozenset[str] = frozenset()) -> Iterator[Any]:
        """The elements of a top-level array, one at a time; then checks nothing follows it."""
        if self.peek() != "[":
            raise self.error("Expecting '['", self._pos)
        yield from self._items(spill)
        self.expect_end()

    def _items(self, spill: frozenset[str] = frozenset()) -> Iterator[Any]:
        """The elements of the array whose '[' is at the read position, one at a time."""
        self._pos += 1
        if self.peek() == "]":
            self._pos += 1
            return
        while True:
            yield self.value(spill)
            if self._delimiter("]", "array"):
                return

    def _delimiter(self, close: str, what: str) -> bool:
        """Step over the ',' or the closing ``close`` after a member; True at the close."""
        follow = self.peek()
        self._pos += 1
        if follow == close:
            return True
        if follow != ",":
            reason = "Expecting ',' delimiter" if follow else f"the {what} is not closed"
            raise self.error(reason, self._pos - 1, truncated=not follow)
        return False

    def _in_pieces(self, spill: frozenset[str]) -> Any:
        """The value at the read position, too long to decode as one text: decoded part by part."""
        try:
            first = self.peek()
            if first == "{":
                return self._object(spill)
            if first == "[":
                return list(self._items())
            if first == '"':
                return self._string()
        except RecursionError:
            raise self.error("the JSON is nested too deeply", self._pos) from None
        raise self.error("Expecting value", self._pos)  # a number or literal is never this long

    def _object(self, spill: frozenset[str]) -> dict[str, Any]:
        """The object at the read position, member by member; long arrays under ``spill`` keys spilled."""
        found: dict[str, Any] = {}
        self._pos += 1
        if self.peek() == "}":
            self._pos += 1
            return found
        while True:
            if self.peek() != '"':
                raise self.error("Expecting property name enclosed in double quotes", self._pos,
                                 truncated=not self.peek())
            key = self.value()
            if self.peek() != ":":
                raise self.error("Expecting ':' delimiter", self._pos, truncated=not self.peek())
            self._pos += 1
            if key in spill and self.peek() == "[":
                found[key] = Spilled(self._items()).settled(list)
            else:
                found[key] = self.value()
            if self._delimiter("}", "object"):
                return found

    def _string(self) -> str:
        """The string at the read position, decoded a slice at a time (an escape is never cut in two)."""
        self._pos += 1
        pieces = []
        while True:
            close = self._closing_quote()
            if close >= 0:
                pieces.append(self._decode(self._pos, close))
                self._pos = close + 1
                return "".join(pieces)
            cut = _whole_escapes(self._buf, self._pos, len(self._buf))
            if cut - self._pos >= SLICE or self._eof:
                if self._eof:
                    raise self.error("Unterminated string", self._pos, truncated=True)
                pieces.append(self._decode(self._pos, cut))
                self._pos = cut
            self._compact()
            self._more(SLICE)

    def _closing_quote(self) -> int:
        """Where the string being read ends in the buffer (its unescaped '"'), -1 when not read yet."""
        at = self._buf.find('"', self._pos)
        while at >= 0:
            if _backslashes_before(self._buf, at, self._pos) % 2 == 0:
                return at
            at = self._buf.find('"', at + 1)
        return -1

    def _decode(self, begin: int, end: int) -> str:
        """The JSON string body ``_buf[begin:end]`` decoded (escapes and all)."""
        try:
            text, _ = _DECODER.raw_decode('"' + self._buf[begin:end] + '"')
        except json.JSONDecodeError as exc:
            raise self.error(exc.msg, begin + exc.pos - 1) from None
        return text  # type: ignore[no-any-return]

    def values(self, partial_tail_ok: bool = False, spill: frozenset[str] = frozenset()) -> Iterator[Any]:
        """Whitespace-separated values (JSON Lines) until the end of the file.

        With ``partial_tail_ok`` an unparsable last line without a newline is
        skipped: a session that is still being written ends in half a line.
        """
        while self.peek():
            own_line = self._starts_line()
            try:
                item = self.value(spill)
            except ExportError:
                if partial_tail_ok and own_line and self._eof and "\n" not in self._buf[self._pos:]:
                    return
                raise
            yield item

    def expect_end(self) -> None:
        """ExportError when anything but whitespace follows the last value."""
        if self.peek():
            raise self.error("Extra data after the JSON value", self._pos)

    def error(self, reason: str, pos: int, truncated: bool = False) -> ExportError:
        """An ExportError naming the file, the line and column of ``pos`` in the buffer, and why."""
        before = self._buf[:pos]
        newlines = before.count("\n")
        line = self._lines_before + newlines + 1
        column = pos - before.rfind("\n") if newlines else self._base + pos - self._last_newline
        hint = " (the file ends early: truncated?)" if truncated else ""
        return ExportError(f"{self._name}: invalid JSON at line {line} column {column}: {reason}{hint}")

    def _starts_line(self) -> bool:
        """Whether the next value begins a line (False when that can no longer be seen)."""
        before = self._buf[max(self._pos - 256, 0): self._pos].rstrip(" \t\r")
        return before.endswith("\n")

    def _maybe_incomplete(self, exc: json.JSONDecodeError) -> bool:
        return exc.msg.startswith("Unterminated string") or len(self._buf) - exc.pos <= _TAIL_SLACK

    def _more(self, size: int = CHUNK) -> bool:
        """Read and decode up to ``size`` more bytes; False at the end of the file."""
        if self._eof:
            return False
        try:
            data = self._raw.read(size)
        except (OSError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
            raise ExportError(f"{self._name}: could not be read: {exc}") from exc
        try:
            text = self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            offset = max(self._bytes + exc.start, 0)
            raise ExportError(f"{self._name}: not UTF-8 text (invalid byte near offset {offset})") from None
        self._bytes += len(data)
        self._eof = not data
        self._buf += text
        return bool(data)

    def _compact(self) -> None:
        """Drop consumed text so the buffer stays about one value long.

        Only once at least half of it is consumed: a long buffer read in many
        small steps is then copied a bounded number of times, not once per step.
        """
        if self._pos < CHUNK or self._pos < len(self._buf) // 2:
            return
        self._lines_before += self._buf.count("\n", 0, self._pos)  # counted in place: no copy of a huge prefix
        last = self._buf.rfind("\n", 0, self._pos)
        if last >= 0:
            self._last_newline = self._base + last
        self._base += self._pos
        self._buf = self._buf[self._pos:]
        self._pos = 0


def _whole_escapes(text: str, begin: int, end: int) -> int:
    """The largest cut ≤ ``end`` in a JSON string body that splits neither an escape nor a surrogate pair."""
    cut = end
    last = text.rfind("\\", max(begin, end - 6), end)  # only an escape begun in the last 6 can be cut
    if last >= 0 and _backslashes_before(text, last + 1, begin) % 2 == 1:  # the last one begins an escape
        if last + 1 >= end or (text[last + 1] == "u" and last + 6 > end):
            cut = last
    # "\ud83d\ude00" is one character: decoded apart, its halves would stay two lone surrogates.
    if cut - 6 >= begin and _HIGH_SURROGATE.fullmatch(text, cut - 6, cut) \
            and _backslashes_before(text, cut - 5, begin) % 2 == 1:
        cut -= 6
    return cut


def _backslashes_before(text: str, at: int, begin: int) -> int:
    """How many backslashes run right before ``text[at]`` (not looking before ``begin``)."""
    count = 0
    while at - count > begin and text[at - count - 1] == "\\":
        count += 1
    return count
