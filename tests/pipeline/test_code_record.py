"""Code the user saw is never lost from the source record (``session/dialog/<sid>.jsonl``).

ChatGPT Code Interpreter cells, Claude.ai artifacts and Claude.ai uploads are imported through
the inbox and read back from the saved record. Tool *results* stay out of the record: a code
cell keeps one short outcome line, never the output itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from daemon.pipeline import Context
from daemon.pipeline.ingest import ingest_file

from shared_corpus import CORPUS


def imported_record(ctx: Context, vault_root: Path, name: str, data: Any) -> list[dict[str, Any]]:
    """Drop ``data`` in the inbox, import it, and return the one saved record's lines."""
    ctx.config.inbox.mkdir(parents=True, exist_ok=True)
    path = ctx.config.inbox / name
    path.write_text(json.dumps(data), encoding="utf-8")
    report = ingest_file(ctx, path, ctx.config.inbox)
    assert report.state == "imported" and not report.reasons, report.reasons
    (record,) = (vault_root / "session" / "dialog").glob("*.jsonl")
    return [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]


def fences(content: Any) -> list[str]:
    """The bodies of the fenced blocks in a record line's content."""
    text = content if isinstance(content, str) else json.dumps(content)
    out, body, fence = [], [], ""
    for line in text.split("\n"):
        if not fence and line.startswith("```"):
            fence = line[: len(line) - len(line.lstrip("`"))]
            body = []
        elif fence and line == fence:
            out.append("\n".join(body))
            fence = ""
        elif fence:
            body.append(line)
    return out


# ---- ChatGPT, the real export --------------------------------------------------------------------


@pytest.mark.corpus
def test_every_chatgpt_code_cell_of_the_sample_export_is_in_the_record(ctx: Context, vault_root: Path) -> None:
    raw = json.loads((CORPUS / "chatgpt" / "chatgpt2graph_conversations.json").read_text(encoding="utf-8"))
    cells = [node["message"]["content"]["text"].replace("\r\n", "\n").strip("\n")
             for node in raw[0]["mapping"].values()
             if node.get("message") and node["message"]["content"]["content_type"] == "code"]
    assert len(cells) == 11
    lines = imported_record(ctx, vault_root, "conversations.json", raw)
    kept = [body for line in lines for body in fences(line["content"])]
    assert sorted(cells) == sorted(kept)
    code_lines = [line for line in lines if str(line["content"]).startswith("```python\n")]
    assert len(code_lines) == 11 and all(line["role"] == "assistant" for line in code_lines)
    # The tool's output is a tool result: only its outcome line is kept.
    record = json.dumps(lines)
    assert "<<ImageDisplayed>>" not in record and "jupyter_messages" not in record
    assert sum("\\nOutput: 1/3" in json.dumps(line["content"]) for line in lines) == 1


# ---- ChatGPT, built in code ---------------------------------------------------------------------

TRACEBACK = ("Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
             "NameError: name 'df' is not defined")


def node(node_id: str, parent: str | None, role: str | None, content: dict[str, Any], **extra: Any) -> dict[str, Any]:
    message = None if role is None else {
        "id": node_id, "author": {"role": role, "name": extra.pop("author_name", None), "metadata": {}},
        "create_time": 1700000000.0 + len(node_id), "content": content, "weight": 1.0,
        "recipient": extra.pop("recipient", "all"), "metadata": extra.pop("metadata", {}), **extra}
    return {"id": node_id, "message": message, "parent": parent, "children": []}


def text(value: str) -> dict[str, Any]:
    return {"content_type": "text", "parts": [value]}


def code(value: str, language: str = "unknown") -> dict[str, Any]:
    return {"content_type": "code", "language": language, "response_format_name": None, "text": value}


def output(value: str) -> dict[str, Any]:
    return {"content_type": "execution_output", "text": value}


def chatgpt_export() -> list[dict[str, Any]]:
    chain = [
        node("root", None, None, {}),
        node("u1", "root", "user", text("Load sales.csv and sum the totals")),
        node("c1", "u1", "assistant", code("import pandas as pd\r\ndf = pd.read_csv('sales.csv')\r\ndf.total.sum()"),
             recipient="python"),
        node("o1", "c1", "tool", output("1523.75\nName: total"), author_name="python"),
        node("c2", "o1", "assistant", code("print('''```''')\ndf.head()", "python"), recipient="python"),
        node("o2", "c2", "tool", output(TRACEBACK), author_name="python",
             metadata={"aggregate_result": {"status": "failed", "in_kernel_exception": {"name": "NameError"}}}),
        node("hid", "o2", "assistant", code("secret_scratch = 1"), recipient="python", channel="analysis"),
        node("web", "hid", "assistant", code('search("pandas sum")'), recipient="browser"),
        node("a1", "web", "assistant", text("The total is 1523.75.")),
    ]
    for parent, child in zip(chain, chain[1:]):
        parent["children"] = [child["id"]]
    return [{"id": "conv-code", "title": "Sales", "create_time": 1700000000.0,
             "mapping": {n["id"]: n for n in chain}, "current_node": "a1"}]


def test_chatgpt_code_cells_are_kept_fenced_with_one_outcome_line(ctx: Context, vault_root: Path) -> None:
    lines = imported_record(ctx, vault_root, "conversations.json", chatgpt_export())
    assert [line["id"] for line in lines] == ["u1", "c1", "c2", "a1"]
    assert lines[1]["role"] == "assistant"
    assert lines[1]["content"] == ("```python\nimport pandas as pd\ndf = pd.read_csv('sales.csv')\n"
                                   "df.total.sum()\n```\nOutput: 1523.75 …")
    # A fence inside the code gets a longer fence; a failed run keeps the error's last line only.
    assert lines[2]["content"] == ("````python\nprint('''```''')\ndf.head()\n````\n"
                                   "Error: NameError: name 'df' is not defined")
    record = json.dumps(lines)
    assert "Traceback" not in record and "Name: total" not in record  # the output is a tool result
    assert "secret_scratch" not in record and "pandas sum" not in record  # not shown to the user as code


# ---- Claude.ai, built in code ---------------------------------------------------------------------


def test_claude_artifacts_and_uploads_are_kept(ctx: Context, vault_root: Path) -> None:
    artifact = {"type": "tool_use", "name": "artifacts",
                "input": {"id": "fib", "type": "application/vnd.ant.code", "language": "python",
                          "title": "Fibonacci", "command": "create",
                          "content": "def fib(n):\n    return n if n < 2 else fib(n-1) + fib(n-2)"}}
    update = {"type": "tool_use", "name": "artifacts",
              "input": {"id": "fib", "command": "update", "old_str": "n < 2", "new_str": "n <= 1"}}
    messages = [
        {"uuid": "h1", "sender": "human", "created_at": "2025-07-06T03:10:13Z",
         "content": [{"type": "text", "text": "Write fib; my notes are attached"}],
         "attachments": [{"file_name": "notes.py", "file_type": "text/x-python", "file_size": 18,
                          "extracted_content": "# use recursion\nx = 1"}]},
        {"uuid": "a1", "sender": "assistant", "created_at": "2025-07-06T03:10:20Z",
         "content": [{"type": "text", "text": "Here it is."}, artifact, update,
                     {"type": "tool_result", "name": "artifacts", "content": [{"type": "text", "text": "OK"}]}]},
    ]
    value = [{"uuid": "c-code", "name": "Fib", "created_at": "2025-07-06T03:10:13Z", "chat_messages": messages}]
    human, reply = imported_record(ctx, vault_root, "conversations.json", value)
    assert human["content"] == "Write fib; my notes are attached\n[attachment: notes.py]"
    assert human["attachments"] == [{"file_name": "notes.py", "file_type": "text/x-python", "file_size": 18,
                                     "extracted_content": "# use recursion\nx = 1"}]
    assert fences(reply["content"]) == ["def fib(n):\n    return n if n < 2 else fib(n-1) + fib(n-2)", "n <= 1"]
    assert "```python\ndef fib" in reply["content"]
    assert reply["content"].startswith("Here it is.\n[tool artifacts: Fibonacci]\n")



def test_an_imported_chatgpt_conversation_reaches_the_distiller_with_its_title(
        ctx: Context, vault_root: Path, fake: Any) -> None:
    def node(ident: str, parent: str | None, children: list[str], role: str | None, text: str) -> dict[str, Any]:
        message = None if role is None else {"id": ident, "author": {"role": role}, "create_time": 1700000001,
                                             "content": {"content_type": "text", "parts": [text]}}
        return {"id": ident, "message": message, "parent": parent, "children": children}
    mapping = [node("root", None, ["q"], None, ""),
               node("q", "root", ["a"], "user", "My flask app keeps throwing database is locked errors."),
               node("a", "q", [], "assistant", "Switch the database to WAL mode, so readers never block the writer.")]
    export = [{"id": "c-1", "title": "SQLite Database Locked Error", "create_time": 1700000000,
               "mapping": {n["id"]: n for n in mapping}, "current_node": "a"}]
    imported_record(ctx, vault_root, "conversations.json", export)
    assert [call.title for call in fake.calls] == ["SQLite Database Locked Error"]
