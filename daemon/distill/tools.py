"""Agent sessions: what the tool calls did, summarised as work a developer wants to read.

A conversation with tool calls (Claude Code, any messages with ``tool_use`` blocks or
OpenAI ``tool_calls``) is summarised from the calls themselves, not from the
assistant narrating them: files read, edited or created, commands run and their
outcome. Calls arrive in two shapes:

- structured blocks on a message (``tool_use`` with ``input``; ``tool_result`` with
  ``tool_use_id``, ``content`` and ``is_error``; OpenAI ``tool_calls`` in the record);
- the one-line placeholders the export readers write into the text,
  ``[tool Bash: Run the tests]`` (their payload and result were not kept).

The outcome of a command is one short line taken from its result ("14 passed", the
first line of an error); tool results themselves never reach the source record.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Iterable, Mapping

from daemon.models import Message

TOOL_LINE = re.compile(r"^\[tool ([^\]:\n]{1,60})(?::\s*([^\n]*?))?\]\s*$", re.M)

_READ = {"read", "view", "cat", "open", "grep", "glob", "ls", "find", "list", "read_file", "notebookread"}
_SEARCH = {"websearch", "webfetch", "fetch", "search", "web_search", "browse", "browser"}
_EDIT = {"edit", "multiedit", "str_replace", "str_replace_editor", "apply_patch", "patch", "notebookedit",
         "update", "replace", "edit_file"}
_CREATE = {"write", "create", "create_file", "write_file"}
_RUN = {"bash", "shell", "sh", "exec", "terminal", "run", "command", "execute", "powershell", "run_command"}
_PATH_KEYS = ("file_path", "path", "notebook_path", "filename", "file")
_OUTCOME = re.compile(r"(?i)\b\d+ (?:passed|failed|errors?|warnings?|skipped|tests?)\b|\berror\b|\bfailed\b|"
                      r"\bexception\b|\btraceback\b|\bnot found\b|\bsuccess(?:ful(?:ly)?)?\b|\bdone\b|\bok\b")
_MAX_LIST = 8
_MAX_CHANGE = 100  # characters of a changed line shown in "Work done"
_MAX_CHANGES = 3


@dataclass(frozen=True)
class ToolCall:
    """One tool call: its tool, the file or command it acted on, and its outcome when known."""

    tool: str
    detail: str
    kind: str  # read, edit, create, run, other
    outcome: str = ""
    failed: bool = False
    changes: tuple[tuple[str, str], ...] = ()  # an edit's changed lines, (before, after), when few and short


def calls_in(messages: Iterable[Message]) -> list[ToolCall]:
    """Every call in a conversation, in order, each paired with its result when one came back."""
    messages = list(messages)
    results = {str(b.get("tool_use_id")): b for m in messages for b in _dicts(m.blocks)
               if b.get("type") == "tool_result"}
    out: list[ToolCall] = []
    for message in messages:
        blocks = list(_dicts(message.blocks))
        out += [_make(b.get("name"), b.get("input"), results.get(str(b.get("id"))))
                for b in blocks if b.get("type") == "tool_use"]
        record_calls = message.record.get("tool_calls") if isinstance(message.record, Mapping) else None
        for item in record_calls if isinstance(record_calls, list) else ():
            function = item.get("function") if isinstance(item, Mapping) else None
            if isinstance(function, Mapping):
                out.append(_make(function.get("name"), _arguments(function.get("arguments")), None))
        # Calls an export reader folded into the message with their results: they stand for its
        # "[tool …]" lines, which say less (a Bash call's description rather than its command).
        folded = [_make(b.get("name"), b.get("input"), b) for b in blocks
                  if b.get("type") == "tool_result" and b.get("name")]
        out += folded or [_make(m.group(1), m.group(2) or "", None) for m in TOOL_LINE.finditer(message.text)]
    return out


def strip_tool_lines(text: str) -> str:
    return TOOL_LINE.sub("", text).strip()


def work_lines(calls: list[ToolCall], lang: str = "en") -> list[str]:
    """Bullets for "Work done": edited and created files, commands with outcomes, what was read."""
    zh = lang == "zh"
    edited, created = _changed(calls)
    read = [p for p in _unique(c.detail for c in calls if c.kind == "read" and c.detail)
            if p not in edited and p not in created]
    lines = []
    if edited:
        lines.append(("- 修改：" if zh else "- Edited: ") + _paths(edited))
    undone = _reverted(calls)
    changed = [(c.detail, a, b, k in undone) for k, c in enumerate(calls) if c.kind == "edit"
               for a, b in c.changes][:_MAX_CHANGES]
    for path, before, after, back in changed:  # "offset = page * per_page" → "offset = (page - 1) * per_page"
        name = path.rsplit("/", 1)[-1] if path else ""
        mark = ("（已撤销）" if zh else " (reverted)") if back else ""  # an attempt undone stays as one
        lines.append(("- 在 " if zh else "- In ") + f"{_code(name)}{mark}: `{before}` → `{after}`" if name else
                     f"- `{before}` → `{after}`{mark}")
    if created:
        lines.append(("- 新建：" if zh else "- Created: ") + _paths(created))
    commands: dict[str, list[str]] = {}  # a command run again keeps each different outcome, in order
    # (Looking around that printed nothing, "git status --short → no output", says nothing.)
    for call in (c for c in calls if c.kind == "run" and c.detail
                 and not (c.outcome == "no output" and _LOOKING.match(c.detail.strip("` ")))):
        outcomes = commands.setdefault(call.detail, [])
        if call.outcome and call.outcome not in outcomes:
            outcomes.append(call.outcome)
    for detail, outcomes in list(commands.items())[:_MAX_LIST]:
        outcome = (" → " + ("; 然后 " if zh else "; then ").join(o.rstrip(".") if k < len(outcomes[-3:]) - 1 else o
                                                                for k, o in enumerate(outcomes[-3:]))) if outcomes else ""
        shown = f": {detail}" if _described(detail) else f" {_code(detail)}"
        lines.append(("- 运行" if zh else "- Ran") + shown + outcome)
    if len(commands) > _MAX_LIST:
        lines.append(f"- … {len(commands) - _MAX_LIST} more command(s)" if not zh else
                     f"- …… 另有 {len(commands) - _MAX_LIST} 条命令")
    if read:
        lines.append(("- 查看：" if zh else "- Looked at: ") + _paths(read))
    searched = _unique(c.detail for c in calls if c.kind == "search" and c.detail)
    if searched:
        more = f" (and {len(searched) - 4} more)" if len(searched) > 4 else ""
        lines.append(("- 搜索：" if zh else "- Searched: ") + "; ".join(searched[:4]) + more)
    other = _unique(f"{c.tool}: {c.detail}" if c.detail else c.tool for c in calls if c.kind == "other")
    if other:
        lines.append(("- 其他工具：" if zh else "- Other tools: ") + "; ".join(other[:4]))
    declined = _unique(c.detail for c in calls if c.kind == "declined")
    if declined:
        lines.append(("- 用户拒绝了（未运行）：" if zh else "- Declined by the user (not run): ") + _paths(declined))
    return lines


_TEST_VERDICT = re.compile(r"(?i)\b\d+ (?:passed|failed)")
_ERROR = re.compile(r"(?i)\berror|\bfailed")
_LOOKING = re.compile(r"(?:git (?:status|diff|log|show|branch|remote)|ls|pwd|cat|head|tail|echo|which|cd|find|grep|rg|"
                      r"wc|tree|stat|file|env|whoami|date)\b")


def work_summary(calls: list[ToolCall]) -> str:
    """One sentence for a description: "Edited a.py and b.py; ran pytest -q (14 passed)."."""
    edited, created = _changed(calls)
    runs = [c for c in calls if c.kind == "run" and c.detail]
    # Looking around ("git status", "ls", "tail log") is not what the work was, when something else ran.
    runs = [c for c in runs if not _LOOKING.match(c.detail.strip("` "))]
    parts = []
    if edited:
        parts.append("edited " + _few(edited))
    if created:
        parts.append("created " + _few(created))
    if runs:
        # The run that says the most: the last test verdict, else the last error.
        telling = next((c for c in reversed(runs) if _TEST_VERDICT.search(c.outcome)), None) or \
            next((c for c in reversed(runs) if _ERROR.search(c.outcome)), None)
        shown = telling or runs[0]  # without a verdict, the first command says what the work was
        others = len(_unique(c.detail for c in runs)) - 1
        parts.append(f"ran {_short(shown.detail)}" + (f" ({telling.outcome})" if telling else "")
                     + (f" and {others} more command(s)" if others else ""))
    searched = _unique(c.detail for c in calls if c.kind == "search" and c.detail)
    if not parts and searched:
        parts.append(f"searched the web {len(searched)} time(s)")
    declined = _unique(c.detail for c in calls if c.kind == "declined")
    if not parts and declined:  # ("mix phx.server" never ran: the user stopped it)
        parts.append(f"the user declined {_short(declined[0])}"
                     + (f" and {len(declined) - 1} more call(s)" if len(declined) > 1 else ""))
    if not parts:
        return ""  # only looking around: the description says what was found instead
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "."


# ---- reading calls ---------------------------------------------------------------

def _dicts(blocks: Iterable[Any]) -> Iterable[Mapping[str, Any]]:
    return (b for b in blocks if isinstance(b, Mapping))


def _arguments(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            return raw
    return raw


def _make(name: Any, arguments: Any, result: Mapping[str, Any] | None) -> ToolCall:
    tool = str(name or "tool").strip()[:60] or "tool"
    key = re.sub(r"[^a-z_]", "", tool.lower().rsplit("__", 1)[-1])
    kind = ("read" if key in _READ else "edit" if key in _EDIT else "create" if key in _CREATE
            else "run" if key in _RUN else "search" if key in _SEARCH else "other")
    detail = _detail(kind, arguments, key)
    if result is not None and _DECLINED.search(_content(result)[:400]):
        # ("The user doesn't want to proceed with this tool use."): nothing ran, nothing changed
        return ToolCall(tool, detail or tool, "declined", "", True)
    outcome, failed = _outcome(result) if result is not None else ("", False)
    return ToolCall(tool, detail, kind, outcome, failed, _changes(arguments) if kind == "edit" else ())


_DECLINED = re.compile(r"(?i)\bthe user doesn'?t want to proceed with this tool use\b|\btool use was rejected\b|"
                       r"\buser (?:declined|rejected|denied) (?:this|the) (?:tool|command|call)\b")


def _content(result: Mapping[str, Any]) -> str:
    content = result.get("content")
    if isinstance(content, list):
        content = "\n".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return str(content or "")


def _changes(arguments: Any) -> tuple[tuple[str, str], ...]:
    """The lines an edit changed, each beside what it was: "offset = page * per_page" → "offset = (page - 1) *
    per_page". Lines only added or removed, and long ones, say less than the file's name: left out."""
    if not isinstance(arguments, Mapping):
        return ()
    edits = arguments.get("edits") if isinstance(arguments.get("edits"), list) else [arguments]
    out: list[tuple[str, str]] = []
    for edit in (e for e in edits if isinstance(e, Mapping)):
        old, new = edit.get("old_string"), edit.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str):
            continue
        before, after = old.splitlines(), new.splitlines()
        for tag, i1, i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
            if tag != "replace":
                continue
            for a in (line.strip() for line in before[i1:i2]):
                # Each old line beside the new line most like it ("offset = …" after an added "if page < 1:")
                likeness, b = max(((SequenceMatcher(None, a, c).ratio(), c) for c in map(str.strip, after[j1:j2])),
                                  key=lambda pair: pair[0])
                if a and b and max(len(a), len(b)) <= _MAX_CHANGE and "`" not in a + b and likeness >= 0.5:
                    out.append((a, b))
    return tuple(out[:_MAX_CHANGES])


def _detail(kind: str, arguments: Any, key: str = "") -> str:
    if isinstance(arguments, str):
        return " ".join(arguments.split())[:160]
    if not isinstance(arguments, Mapping):
        return ""
    keys = ("command", "cmd", "description") if kind == "run" else \
        ("query", "url", "prompt") if kind == "search" else \
        ("pattern",) + _PATH_KEYS if key in ("glob", "grep") else \
        _PATH_KEYS + ("pattern", "query", "url") if kind != "other" else ("description", "query", "prompt", "url")
    value = next((arguments[k] for k in keys if isinstance(arguments.get(k), str) and arguments[k].strip()), "")
    return " ".join(value.split())[:160]


def _outcome(result: Mapping[str, Any]) -> tuple[str, bool]:
    """One short line that says how a call went, from its result."""
    lines = [line.strip() for line in _content(result).splitlines() if line.strip()]
    if not lines or lines == ["(No content)"]:  # Claude Code's word for a command that printed nothing
        return ("", bool(result.get("is_error"))) if result.get("is_error") else ("no output", False)
    failed = bool(result.get("is_error"))
    lines = [line for line in lines if not _NPM_HEADER.match(line)] or ["ok"]  # ("> bindays@1.3.0 build": npm's echo)
    telling = [line for line in lines if _OUTCOME.search(line) and len(line) <= 160]
    # Test runners print their verdict last; errors say the most on their last line, unless that line only counts
    # them ("Found 1 error in src/schedule.ts:22"): then the first error says what it was.
    coded = next((line for line in lines if _ERROR_LINE.search(line) and len(line) <= 200), "")
    line = (coded if coded and telling and _ERROR_COUNT.search(telling[-1]) else
            telling[-1] if telling else lines[0] if lines and len(lines[0]) <= 120 else "")
    line = re.sub(r"^[=\-\s]+|[=\-\s]+$", "", line)
    return line[:120], failed


_NPM_HEADER = re.compile(r"^> \S+@\S+ \S+|^> (?:tsc|node|vite|jest|vitest|eslint|next|webpack)\b")
_ERROR_LINE = re.compile(r"\berror\s+[A-Z]{1,4}\d{2,5}\b|\berror\[[A-Z]?\d+\]|^\S+:\d+(?::\d+)?:\s*error\b")
_ERROR_COUNT = re.compile(r"(?i)^(?:found\s+)?\d+\s+errors?\b|^error: (?:script|command) failed|^npm err!")


# ---- writing ---------------------------------------------------------------------

def _changed(calls: list[ToolCall]) -> tuple[list[str], list[str]]:
    """Files edited (and not created in the same session), and files created, each once in order. (An edit undone
    later, "git checkout -- src/a.py", is no change.)"""
    undone = _reverted(calls)
    created = _unique(c.detail for c in calls if c.kind == "create" and c.detail)
    edited = [p for p in _unique(c.detail for k, c in enumerate(calls) if c.kind == "edit" and c.detail
                                 and k not in undone) if p not in created]
    return edited, created


_REVERT = re.compile(r"\bgit\s+(?:checkout\s+(?:HEAD\s+)?--|restore(?:\s+--(?:staged|worktree))*)\s+([^&|;]+)")


def _reverted(calls: list[ToolCall]) -> set[int]:
    """The edit calls a later "git checkout -- <paths>" or "git restore <paths>" undid (by index)."""
    undone: set[int] = set()
    for k, call in enumerate(calls):
        if call.kind != "run" or call.failed or not (m := _REVERT.search(call.detail)):
            continue
        paths = [p.strip("'\"") for p in m.group(1).split() if not p.startswith("-")]
        undone |= {j for j, c in enumerate(calls[:k]) if c.kind == "edit" and c.detail and any(
            p == "." or c.detail == p or c.detail.endswith("/" + p.lstrip("./")) for p in paths)}
    return undone


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _code(text: str) -> str:
    return f"`{text}`" if "`" not in text else text


def _paths(paths: list[str]) -> str:
    shown = ", ".join(_code(p) for p in paths[:_MAX_LIST])
    return shown + (f" and {len(paths) - _MAX_LIST} more" if len(paths) > _MAX_LIST else "")


def _few(paths: list[str]) -> str:
    names = [_code(p.rsplit("/", 1)[-1] if "/" in p and " " not in p else p) for p in paths[:3]]
    more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
    return (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 and not more else ", ".join(names)) + more


def _short(command: str) -> str:
    if _described(command):
        return f"“{command}”"
    return _code(command if len(command) <= 60 else command[:59] + "…")


def _described(detail: str) -> bool:
    """A call's description in words ("Check git status"), not the command itself."""
    return bool(re.match(r"^[A-Z][a-z]+ \w", detail)) and not re.search(r"[|&;$<>=/\\]|--?\w", detail)
