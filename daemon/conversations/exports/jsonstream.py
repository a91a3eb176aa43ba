"""Incremental JSON reading with bounded memory, over ``json.JSONDecoder.raw_decode``.

Exports can be gigabytes, so a top-level array is read element by element and
JSON Lines value by value: the buffer holds the current value plus one read
ahead, never the file. Bytes are decoded as UTF-8 (a leading BOM is accepted),
and every syntax error names the line and column in the whole file.
"""

from __future__ import annotations

import codecs
import json
import re
import zipfile
import zlib
from typing import Any, BinaryIO, Iterator

from daemon.conversations.exports.base import ExportError

CHUNK = 1 << 16
_MAX_READ = 1 << 26
_DECODER = json.JSONDecoder()
_NON_WS = re.compile(r"[^ \t\n\r]")
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

    def value(self) -> Any:
        """Decode the next complete value; ExportError with line and column when it is not JSON."""
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
            self._more(want)
            want = min(want * 2, _MAX_READ)  # doubling keeps re-parsing a big value linear

    def elements(self) -> Iterator[Any]:
        """The elements of a top-level array, one at a time; then checks nothing follows it."""
        if self.peek() != "[":
            raise self.error("Expecting '['", self._pos)
        self._pos += 1
        if self.peek() == "]":
            self._pos += 1
        else:
            while True:
                yield self.value()
                follow = self.peek()
                self._pos += 1
                if follow == "]":
                    break
                if follow != ",":
                    reason = "Expecting ',' delimiter" if follow else "the array is not closed"
                    raise self.error(reason, self._pos - 1, truncated=not follow)
        self.expect_end()

    def values(self, partial_tail_ok: bool = False) -> Iterator[Any]:
        """Whitespace-separated values (JSON Lines) until the end of the file.

        With ``partial_tail_ok`` an unparsable last line without a newline is
        skipped: a session that is still being written ends in half a line.
        """
        while self.peek():
            own_line = self._starts_line()
            try:
                item = self.value()
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
        """Drop consumed text so the buffer stays about one value long."""
        if self._pos < CHUNK:
            return
        self._lines_before += self._buf.count("\n", 0, self._pos)  # counted in place: no copy of a huge prefix
        last = self._buf.rfind("\n", 0, self._pos)
        if last >= 0:
            self._last_newline = self._base + last
        self._base += self._pos
        self._buf = self._buf[self._pos:]
        self._pos = 0
