"""The model path against what real local servers do (issue 13), driven through ``auto_memory`` and the inbox.

Each quirk of the loopback fake (``llm_server.QUIRKS``) copies a behaviour
seen from llama-cpp-python, llama-server, Ollama, LM Studio or vLLM. Each
test ends in a card, or in a clean failure: the source record kept, the
messages pending for the next run, and no retry storm. No network beyond
127.0.0.1; skipped without agentscope.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from llm_server import KEY, FakeOpenAI, Reply, agent, completion, error, servers

from conftest import FIXED_NOW
from daemon.app import build
from daemon.config import Config, load_config
from daemon.distill.tagging import ExtractiveTagger
from daemon.distill.extractive import ExtractiveDistiller
from daemon.conversations.formats import parse_messages
from daemon.llm import AgentscopeDistiller
from daemon.models import Card, DistillRequest
from daemon.pipeline import Context, auto_memory
from daemon.pipeline.ingest import FAILED, ingest_file

DAY = "2023-01-19"
CHAT = [
    {"id": "m1", "role": "user", "name": "Alice", "created_at": f"{DAY}T08:00:00",
     "content": "We decided to move the gateway to JWT with 15-minute access tokens, because sessions do not scale."},
    {"id": "m2", "role": "assistant", "created_at": f"{DAY}T08:00:05", "content": "Agreed; Bob writes the migration."},
]
LONG = [{"id": f"m{i}", "role": "user", "name": "Alice", "created_at": f"{DAY}T08:{i:02d}:00",
         "content": f"fact-{i}: " + "the gateway migration needs careful planning and testing " * 12}
        for i in range(12)]
FIELDS = {"skip": False, "name": "gateway-jwt", "description": "Alice decided on JWT for the gateway.",
          "body": "## Decisions\n- Alice: JWT with 15-minute access tokens, because sessions do not scale."}


@pytest.fixture
def serve() -> Iterator[Callable[..., FakeOpenAI]]:
    pytest.importorskip("agentscope")
    yield from servers()


def context(config: Config, fake: FakeOpenAI, **model: Any) -> Context:
    """The pipeline with the agentscope distiller on ``fake`` (and the embedded tagger: one request a card)."""
    settings = {"retries": 2, "timeout": 10.0, **model}
    tree = agent(fake, **settings)
    overrides = [f"vault={config.vault}", "timezone=UTC", "components.agent_wrapper.default.backend=agentscope",
                 f"components.agent_wrapper.default.model.vision={str(tree['model']['vision']).lower()}"]
    config = load_config(overrides=overrides, environ={})
    distiller = AgentscopeDistiller(tree, environ={"TEST_LLM_KEY": KEY}, retry_delay=0.0)
    return build(config, distiller=distiller, clock=lambda: FIXED_NOW, tagger=ExtractiveTagger())


def card_reply(**fields: Any) -> Reply:
    return completion(fields={**FIELDS, **fields})


def remember(ctx: Context, messages: list[dict[str, Any]] = CHAT) -> dict[str, Any]:
    return auto_memory(ctx, "s1", messages, DAY)


def assert_clean_failure(ctx: Context, result: dict[str, Any], ids: list[str]) -> None:
    """The failure keeps the record and leaves the messages pending; no card was written."""
    assert result["success"] is False
    record = (ctx.config.vault / "session" / "dialog" / "s1.jsonl").read_text(encoding="utf-8")
    assert all(f'"id": "{i}"' in record or f'"id":"{i}"' in record for i in ids)
    assert ctx.bases.pending("s1", DAY) == ids
    assert not list((ctx.config.vault / "daily").glob(f"{DAY}/*.md"))


# ---- string-content-only: llama-cpp-python --------------------------------------------------

def test_text_only_messages_are_sent_as_strings(serve: Callable[..., FakeOpenAI], config: Config) -> None:
    fake = serve(card_reply(), quirks=("string-content-only",))
    result = remember(context(config, fake))
    assert result["success"] is True and result["metadata"]["created"] is True
    assert result["metadata"]["path"] == f"daily/{DAY}/gateway-jwt.md"
    (sent,) = fake.requests
    assert [type(m["content"]) for m in sent.body["messages"]] == [str, str]
    assert "[Alice @ 2023-01-19T08:00:00]" in sent.body["messages"][1]["content"]


def test_a_validation_error_500_is_not_retried(serve: Callable[..., FakeOpenAI], config: Config) -> None:
    """Images still need a list; that server rejects it deterministically: one request, a clean failure."""
    fake = serve(card_reply(), quirks=("string-content-only",))
    ctx = context(config, fake, vision=True)
    raw = [{"id": "m1", "role": "user", "created_at": f"{DAY}T08:00:00", "content": [
        {"type": "text", "text": "the receipt"},
        {"type": "image_url", "image_url": {"url": "https://img.test/receipt.jpg"}}]}]
    result = auto_memory(ctx, "s1", raw, DAY, include_images=True)
    assert "HTTP 500" in result["answer"] and "validation error" in result["answer"]
    assert len(fake.requests) == 1
    assert_clean_failure(ctx, result, ["m1"])


def test_an_inbox_file_rejected_by_the_server_is_failed_not_rescheduled(
    serve: Callable[..., FakeOpenAI], config: Config
) -> None:
    fake = serve(card_reply(), quirks=("small-context",), n_ctx=4096)
    ctx = context(config, fake, context_tokens=32768)
    inbox = config.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    path = inbox / "chat.json"
    path.write_text(json.dumps({"session_id": "s1", "messages": LONG}), encoding="utf-8")
    report = ingest_file(ctx, path, inbox)
    assert report.state == FAILED and "rejected the request" in report.reasons[0] and "n_ctx" in report.reasons[0]
    assert report.moved_to is not None and report.moved_to.parent.name == "failed"
    assert len(fake.requests) == 1


# ---- ignores-tools: llama-server without a tool-calling template ------------------------------

def test_a_server_that_ignores_tools_gets_text_mode_and_it_is_remembered(
    serve: Callable[..., FakeOpenAI], config: Config
) -> None:
    fake = serve(card_reply(), quirks=("ignores-tools",))
    ctx = context(config, fake, retries=0)
    assert remember(ctx)["success"] is True
    first, second = fake.requests
    assert "tools" in first.body and "tools" not in second.body
    assert "Reply with exactly one JSON object" in second.user_text
    assert second.body["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "write_memory_card", "schema": first.body["tools"][0]["function"]["parameters"]}}
    more = [{"id": "m3", "role": "user", "name": "Alice", "created_at": f"{DAY}T09:00:00",
             "content": "Bob finished the migration script; it runs with make migrate."}]
    assert remember(ctx, more)["success"] is True
    assert len(fake.requests) == 3 and "tools" not in fake.requests[2].body  # capability remembered


def test_a_server_without_json_schema_output_gets_plain_json_text(serve: Callable[..., FakeOpenAI],
                                                                   config: Config) -> None:
    fake = serve(card_reply(), quirks=("ignores-tools", "no-json-schema"))
    ctx = context(config, fake, retries=0)
    assert remember(ctx)["success"] is True
    tools, schema, plain = fake.requests
    assert "tools" in tools.body and "response_format" in schema.body
    assert "tools" not in plain.body and "response_format" not in plain.body
    more = [{"id": "m3", "role": "user", "name": "Alice", "created_at": f"{DAY}T09:00:00", "content": "Bob is done."}]
    assert remember(ctx, more)["success"] is True
    assert len(fake.requests) == 4 and not {"tools", "response_format"} & set(fake.requests[3].body)


# ---- rambles: a model that never stops -------------------------------------------------------------

def test_every_call_carries_an_answer_budget(serve: Callable[..., FakeOpenAI], config: Config) -> None:
    fake = serve(card_reply(), quirks=("rambles",))
    result = remember(context(config, fake, timeout=3.0, retries=0, context_tokens=8192))
    assert result["success"] is True
    assert fake.requests[0].body["max_tokens"] == 2048  # a quarter of the context
    assert "max_completion_tokens" not in fake.requests[0].body


def test_model_max_tokens_sets_the_budget(serve: Callable[..., FakeOpenAI], config: Config) -> None:
    fake = serve(card_reply(), quirks=("rambles",))
    assert remember(context(config, fake, timeout=3.0, retries=0, max_tokens=300))["success"] is True
    assert fake.requests[0].body["max_tokens"] == 300


# ---- small-context: a server with n_ctx below model.context_tokens ------------------------------------



def test_small_context_fails_cleanly_then_the_right_size_distills_in_parts(
    serve: Callable[..., FakeOpenAI], config: Config
) -> None:
    fake = serve(card_reply(), quirks=("small-context",), n_ctx=4096)
    ctx = context(config, fake, context_tokens=32768)
    result = remember(ctx, LONG)
    assert "HTTP 400" in result["answer"] and "n_ctx 4096" in result["answer"]
    assert len(fake.requests) == 1  # a 400 is not retried
    assert_clean_failure(ctx, result, [m["id"] for m in LONG])
    ctx = context(config, fake, context_tokens=4096)
    result = remember(ctx, LONG[:1])  # the next run distills what is pending, in parts that fit n_ctx
    assert result["success"] is True and result["metadata"]["path"] == f"daily/{DAY}/gateway-jwt.md"
    assert len(fake.requests) > 2 and ctx.bases.pending("s1", DAY) == []
    assert all(r.body["max_tokens"] == 1024 for r in fake.requests[1:])  # the budget counted against n_ctx


# ---- answers to repair --------------------------------------------------------------------------------------

def test_a_skip_with_a_body_is_a_card(serve: Callable[..., FakeOpenAI], config: Config) -> None:
    fake = serve(card_reply(), quirks=("skip-with-body",))
    result = remember(context(config, fake))
    assert result["success"] is True and result["metadata"]["created"] is True
    card = (config.vault / result["metadata"]["path"]).read_text(encoding="utf-8")
    assert "JWT with 15-minute access tokens" in card


def test_an_empty_name_is_derived_like_the_embedded_distiller(serve: Callable[..., FakeOpenAI],
                                                             config: Config) -> None:
    fake = serve(card_reply(), quirks=("empty-name",))
    result = remember(context(config, fake))
    expected = ExtractiveDistiller().distill(DistillRequest("s1", FIXED_NOW.date().replace(2023, 1, 19),
                                                            parse_messages(CHAT), None))
    assert isinstance(expected, Card) and expected.name
    assert result["success"] is True and result["metadata"]["path"] == f"daily/{DAY}/{expected.name}.md"
    assert len(fake.requests) == 1


# ---- slow: cancel on timeout ------------------------------------------------------------------------------

def test_a_timeout_hangs_up_and_ingest_outside_the_inbox_fails(
    serve: Callable[..., FakeOpenAI], config: Config, tmp_path: Path
) -> None:
    """Nothing retries a file outside the inbox: a transient model failure is "not imported", exit non-zero."""
    fake = serve(card_reply(), quirks=("slow",))
    ctx = context(config, fake, timeout=0.5, retries=0)
    path = tmp_path / "elsewhere.json"
    path.write_text(json.dumps({"session_id": "s1", "messages": CHAT}), encoding="utf-8")
    report = ingest_file(ctx, path, None)
    assert report.state == FAILED and "not imported" in report.reasons[0] and "retrying" not in report.reasons[0]
    assert "timed out after 0.5 s" in report.reasons[0]
    assert fake.hung_up.wait(10), "the client never closed the connection"
    assert len(fake.requests) == 1 and path.exists()
    assert ctx.bases.pending("s1", DAY) == ["m1", "m2"]


# ---- chunking that runs out of room ----------------------------------------------------------------------

MANY = [{"id": f"m{i}", "role": "user", "name": "Alice", "created_at": f"{DAY}T08:{i:02d}:00",
         "content": f"fact-{i}: " + "the gateway migration needs careful planning and testing " * 12}
        for i in range(40)]


def growing(body: dict[str, Any]) -> Reply:
    """A model that appends to the running card every time: the description and the body only grow."""
    content = body["messages"][-1]["content"]
    text = content if isinstance(content, str) else "".join(p.get("text", "") for p in content)
    old = text.split("<existing_card>", 1)[1].split("</existing_card>")[0] if "<existing_card>" in text else ""
    description = (old.split("description: ", 1)[1].split("\n", 1)[0] if old else "") + " And more was said."
    facts = [line.split(":")[0] for line in text.split("# Recent Conversation", 1)[1].splitlines()
             if line.startswith("fact-")]
    body_old = old.split("\n\n", 1)[1].strip() if "\n\n" in old else ""
    new_lines = "\n".join(f"- {f}: " + "planning notes " * 20 for f in facts)
    return card_reply(description=description.strip(), body=(body_old + "\n" + new_lines).strip())


def test_the_running_card_is_bounded(serve: Callable[..., FakeOpenAI], config: Config) -> None:
    fake = serve(growing)
    ctx = context(config, fake, context_tokens=4096)
    result = remember(ctx, MANY)
    assert result["success"] is True, result["answer"]
    assert len(fake.requests) >= 5
    for sent in fake.requests:
        assert "Keep the whole card under about" in sent.user_text
        if "<existing_card>" in sent.user_text:
            card = sent.user_text.split("<existing_card>", 1)[1].split("</existing_card>")[0]
            assert len(card.encode("utf-8")) <= 3 * 1024  # within the answer budget (1024 tokens)
            description = card.split("description: ", 1)[1].split("\n", 1)[0]
            assert description.count("And more was said.") <= 3


def test_a_failure_after_some_parts_keeps_their_card(serve: Callable[..., FakeOpenAI], config: Config) -> None:
    def script(body: dict[str, Any]) -> Reply:
        first = "this is part 1." in request_text(body)
        return card_reply(body="- part one facts") if first else error(400, "the model crashed on this part")

    fake = serve(script)
    ctx = context(config, fake, context_tokens=4096)
    result = remember(ctx, LONG)
    assert result["success"] is False and "the model crashed" in result["answer"]
    card = (config.vault / "daily" / DAY / "gateway-jwt.md").read_text(encoding="utf-8")
    assert "- part one facts" in card
    first = fake.requests[0].user_text
    done = [m["id"] for m in LONG if f"[Alice @ {m['created_at']}]" in first and
            f"[Alice @ {m['created_at']}] (continued)" not in fake.requests[1].user_text]
    pending = ctx.bases.pending("s1", DAY)
    assert pending and done and set(pending) == {m["id"] for m in LONG} - set(done)


def request_text(body: dict[str, Any]) -> str:
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


# ---- exposes-n_ctx: doctor reads the server's real context size ----------------------------------------------

@pytest.mark.parametrize("flavour", ["llama-server", "vllm", "lmstudio", "ollama"])
def test_doctor_reads_the_servers_context_size(serve: Callable[..., FakeOpenAI], config: Config,
                                               flavour: str) -> None:
    from daemon import ops
    from daemon.llm import check_context

    fake = serve(completion("OK"), quirks=("exposes-n_ctx",), n_ctx=8192, flavour=flavour)
    environ = {"TEST_LLM_KEY": KEY}
    ok, line = check_context(agent(fake), environ) or (True, "nothing")
    assert not ok and "the server runs 8192 tokens" in line and "context_tokens=8192" in line
    assert check_context(agent(fake, context_tokens=8192), environ) == (
        True, f"model context: components.agent_wrapper.default.model.context_tokens=8192 fits the server's 8192 "
              f"({line.split('(', 1)[1].split(')', 1)[0]})")
    overrides = [f"vault={config.vault}", "components.agent_wrapper.default.backend=agentscope",
                 "components.agent_wrapper.default.model.name=fake-model",
                 f"components.agent_wrapper.default.model.base_url={fake.base_url}"]
    lines = ops.doctor(load_config(overrides=overrides, environ={}))
    assert lines[-2][0] and lines[-2][1].startswith("OK: openai model 'fake-model'")
    assert lines[-1][0] is False and "8192 tokens" in lines[-1][1]


def test_doctor_says_nothing_about_a_server_that_does_not_tell(serve: Callable[..., FakeOpenAI]) -> None:
    from daemon.llm import check_context

    fake = serve(completion("OK"), flavour="llama-server")
    assert check_context(agent(fake), {"TEST_LLM_KEY": KEY}) is None
    assert "/props" in fake.probes and fake.requests == []


# ---- timeouts and log noise -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("provider", "base_url", "expected"), [
    ("openai", "http://127.0.0.1:8080/v1", 300.0), ("openai", "http://localhost:11434/v1", 300.0),
    ("openai", "http://192.168.1.20:1234/v1", 300.0), ("ollama", "", 300.0),
    ("openai", "https://api.example.com/v1", 120.0), ("dashscope", "", 120.0),
])
def test_the_default_timeout_follows_where_the_server_is(provider: str, base_url: str, expected: float) -> None:
    from daemon.llm.settings import load_settings

    tree = agent(None, provider=provider, base_url=base_url, timeout=0.0)
    assert load_settings(tree, {"TEST_LLM_KEY": KEY}).timeout == expected
    assert load_settings(agent(None, base_url=base_url, timeout=7.0), {"TEST_LLM_KEY": KEY}).timeout == 7.0
    defaults = load_config(overrides=[], environ={}).agent["model"]
    assert (defaults["timeout"], defaults["max_tokens"]) == (0.0, 0)


def test_agentscope_retry_warnings_are_not_repeated(serve: Callable[..., FakeOpenAI], config: Config,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    fake = serve(error(503, "loading model"))
    with caplog.at_level("WARNING"):
        result = remember(context(config, fake, retries=1))
    assert "HTTP 503: loading model" in result["answer"]
    messages = [r.getMessage() for r in caplog.records]
    assert not any("attempt(s) failed" in m or m.startswith("Attempt ") for m in messages), messages
    assert any("HTTP 503" in m and "attempt 1 of 2" in m for m in messages)


def test_memvault_ingest_of_a_file_elsewhere_exits_non_zero_when_the_model_fails(
    serve: Callable[..., FakeOpenAI], vault_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from daemon.cli import main

    fake = serve(card_reply(), quirks=("slow",))
    path = tmp_path / "elsewhere.json"
    path.write_text(json.dumps({"session_id": "s1", "messages": CHAT}), encoding="utf-8")
    prefix = "components.agent_wrapper.default"
    code = main(["ingest", str(path), f"vault={vault_root}", f"{prefix}.backend=agentscope", "tagging.enabled=false",
                 f"{prefix}.model.name=fake-model", f"{prefix}.model.base_url={fake.base_url}",
                 f"{prefix}.model.timeout=0.5", f"{prefix}.model.retries=0"])
    out = capsys.readouterr().out
    assert code == 1 and "not imported" in out and "retrying in" not in out
    assert path.exists()
