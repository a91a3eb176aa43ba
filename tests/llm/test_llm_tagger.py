"""The agentscope tagger against the loopback OpenAI-compatible server of ``llm_server.py``.

The real agentscope client sends each request to a scripted server that
records it, so the tests assert what the model would see: the model name, the
card, the forced ``write_tags`` tool. The answer parsing and configuration
tests run without agentscope; the server tests skip cleanly without it.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Iterator

import pytest
from llm_server import ENVIRON, KEY, FakeOpenAI, Reply, agent, completion, error, servers

from daemon.vault import props
from daemon.errors import ConfigError, DistillError, TransientDistillError
from daemon.llm import AgentscopeTagger, InvalidOutput
from daemon.llm.output import tags_from_answer
from daemon.distill.tagging import tag_file
from daemon.vault.files import ABSENT, Vault

CARD = """---
name: gateway-auth
description: Sam and Priya chose JWT for the API gateway.
session_id: demo
memory_tags:
  - old_tag
---
## Decisions
- Sam: Let's go with JWT, 15-minute access tokens, verified at the gateway with RS256.
- Priya reviews the revocation list design in Postgres tomorrow.
"""

ZH_CARD = """---
name: 电池调研
description: 小王比较了宁德时代和比亚迪的电池。
session_id: zh
---
## 要点
- 小王：宁德时代的麒麟电池能量密度更高，比亚迪的刀片电池更安全。
"""


@pytest.fixture
def serve() -> Iterator[Callable[..., FakeOpenAI]]:
    pytest.importorskip("agentscope")
    yield from servers()


def tags_reply(*tags: Any) -> Reply:
    """A ``write_tags`` tool call."""
    return completion(fields={"tags": list(tags)}, tool="write_tags")


def tagger(fake: FakeOpenAI, **model: Any) -> AgentscopeTagger:
    return AgentscopeTagger(agent(fake, **model), environ=ENVIRON, retry_delay=0.0)


# ---- the answer (no agentscope needed) ----------------------------------------------

def answer(text: str = "", arguments: str | None = None) -> SimpleNamespace:
    """A stand-in for agentscope's ChatResponse: a text block, or a tool call block."""
    if arguments is not None:
        return SimpleNamespace(content=[SimpleNamespace(type="tool_call", input=arguments)])
    return SimpleNamespace(content=[SimpleNamespace(type="text", text=text)])


@pytest.mark.parametrize(("response", "expected"), [
    (answer(arguments='{"tags": ["JWT", "Priya_Shah"]}'), ["JWT", "Priya_Shah"]),
    (answer('Here:\n```json\n{"tags": ["JWT", "C++",]}\n```'), ["JWT", "C++"]),
    (answer("{'tags': ['GPT-5', '.NET']}"), ["GPT-5", ".NET"]),
    (answer('The tags are ["JWT", "Postgres"].'), ["JWT", "Postgres"]),
    (answer('{"tags": []}'), []),
    (answer('{"tags": [" JWT ", 2024, 1.5, true, null, {"x": 1}, ["y"]]}'), ["JWT", "2024", "1.5"]),
])
def test_tags_are_read_from_the_tool_call_or_the_text(response: SimpleNamespace, expected: list[str]) -> None:
    assert tags_from_answer(response) == expected


@pytest.mark.parametrize("response", [
    answer("I cannot tag this."), answer('{"tags": "JWT, Postgres"}'), answer('{"labels": ["JWT"]}'),
    answer(""), answer(arguments=""),
])
def test_an_answer_without_a_tags_list_is_invalid(response: SimpleNamespace) -> None:
    with pytest.raises(InvalidOutput):
        tags_from_answer(response)


def test_config_errors_name_the_key_or_variable() -> None:
    with pytest.raises(ConfigError, match="TEST_LLM_KEY"):
        AgentscopeTagger(agent(), environ={})
    with pytest.raises(ConfigError, match=r"model\.name"):
        AgentscopeTagger(agent(name=""), environ=ENVIRON)


# ---- one call: the request ----------------------------------------------------------

def test_structured_output_request_and_tags(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(tags_reply("JWT", "API_gateway", "Priya", "Postgres"))
    assert tagger(fake).tag(CARD, 3) == ["JWT", "API_gateway", "Priya", "Postgres"]
    (sent,) = fake.requests
    assert sent.path == "/v1/chat/completions" and sent.headers["authorization"] == f"Bearer {KEY}"
    body = sent.body
    assert (body["model"], body["temperature"], body["stream"]) == ("fake-model", 0.3, False)
    assert KEY not in json.dumps(body)
    (tool,) = body["tools"]
    assert tool["function"]["name"] == "write_tags"
    assert tool["function"]["parameters"]["properties"]["tags"]["type"] == "array"
    assert tool["function"]["parameters"]["properties"]["tags"]["items"] == {"type": "string"}
    assert tool["function"]["parameters"]["required"] == ["tags"]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "write_tags"}}
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert CARD in sent.user_text  # the whole card, properties included
    assert "at most 3 tags" in sent.user_text
    system = sent.system_text
    for phrase in ("central entities", "people, projects, products, tools, places and topics", "no whitespace",
                   "GPT-5, C++, C#, .NET", "at least one letter or digit", "64 characters", '"2024", not 2024',
                   "empty list []", "write_tags"):
        assert phrase in system


def test_a_chinese_card_gets_the_chinese_prompt(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(tags_reply("宁德时代", "比亚迪", "电池"))
    assert tagger(fake).tag(ZH_CARD, 3) == ["宁德时代", "比亚迪", "电池"]
    (sent,) = fake.requests
    assert "核心实体" in sent.system_text and "GPT-5、C++、C#、.NET" in sent.system_text
    assert "最多 3 个标签" in sent.user_text and ZH_CARD in sent.user_text


def test_the_list_is_bounded_for_the_callers_normalization(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(tags_reply(*[f"t{i}" for i in range(10)]))
    assert tagger(fake).tag(CARD, 2) == ["t0", "t1", "t2", "t3"]


def test_nothing_to_tag_sends_nothing(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(tags_reply("x"))
    assert tagger(fake).tag("  \n", 3) == [] and tagger(fake).tag(CARD, 0) == []
    assert fake.requests == []


def test_an_empty_list_is_a_valid_answer(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(tags_reply())
    assert tagger(fake).tag("---\nname: hi\n---\nHello!\n", 3) == []
    assert len(fake.requests) == 1


def test_a_card_longer_than_the_context_is_cut_at_the_end(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(tags_reply("JWT"))
    long_card = CARD + "".join(f"- filler line {i}\n" for i in range(3000))
    assert tagger(fake, context_tokens=3000).tag(long_card, 3) == ["JWT"]
    text = fake.requests[0].user_text
    assert CARD in text and "- filler line 2999" not in text
    assert "the rest of the card is left out" in text


def test_a_context_too_small_for_the_prompt_is_an_error(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(tags_reply("JWT"))
    with pytest.raises(DistillError, match=r"model\.context_tokens=600"):
        tagger(fake, context_tokens=600).tag(CARD, 3)
    assert fake.requests == []


# ---- fallbacks, retries and errors ------------------------------------------------------

def test_plain_text_json_fallback(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(completion("Sure:\n```json\n{'tags': ['JWT', 'Postgres',]}\n```"))
    assert tagger(fake).tag(CARD, 3) == ["JWT", "Postgres"]
    assert len(fake.requests) == 1


def test_server_without_tool_calling_switches_to_json_text_once(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(error(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser'),
                 completion('{"tags": ["JWT"]}'))
    subject = tagger(fake, retries=0)
    assert subject.tag(CARD, 3) == ["JWT"]
    assert subject.tag(CARD, 3) == ["JWT"]
    first, second, third = fake.requests
    assert "tools" in first.body and "tools" not in second.body and "tools" not in third.body
    assert "Reply with exactly one JSON object" in second.user_text and '{"tags": [' in second.user_text


def test_server_error_then_success(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(error(500, "overloaded"), tags_reply("JWT"))
    assert tagger(fake).tag(CARD, 3) == ["JWT"]
    assert len(fake.requests) == 2


def test_server_errors_stay_transient_after_the_retries(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(error(503, "the GPU is on fire"))
    with pytest.raises(TransientDistillError, match="after 2 attempts: HTTP 503: the GPU is on fire"):
        tagger(fake, retries=1).tag(CARD, 3)
    assert len(fake.requests) == 2


@pytest.mark.parametrize(("status", "message"), [(400, "context length exceeded"), (401, "bad key")])
def test_client_errors_fail_at_once_with_the_provider_message(
    serve: Callable[..., FakeOpenAI], status: int, message: str
) -> None:
    fake = serve(error(status, message))
    with pytest.raises(DistillError, match=f"openai model 'fake-model' failed: HTTP {status}: {message}") as caught:
        tagger(fake).tag(CARD, 3)
    assert not isinstance(caught.value, TransientDistillError)
    assert KEY not in str(caught.value)
    assert len(fake.requests) == 1


def test_invalid_output_is_retried_then_an_error(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(completion("I would rather not."), completion('{"tags": "JWT"}'))
    with pytest.raises(DistillError, match="invalid output: tags must be a list") as caught:
        tagger(fake, retries=1).tag(CARD, 3)
    assert not isinstance(caught.value, TransientDistillError)
    assert len(fake.requests) == 3  # the free switch to JSON text (no tool call came back), then retries + 1


def test_timeout_is_transient(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(Reply(delay=5.0))
    with pytest.raises(TransientDistillError, match="timed out after 0.3 s"):
        tagger(fake, timeout=0.3, retries=0).tag(CARD, 3)


def test_tag_works_inside_a_running_event_loop(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(tags_reply("JWT"))
    subject = tagger(fake)

    async def caller() -> list[str]:
        return subject.tag(CARD, 3)

    assert asyncio.run(caller()) == ["JWT"]
    assert subject.tag(CARD, 3) == ["JWT"]


# ---- with the caller: daemon.distill.tagging.tag_file ------------------------------------------------

def test_tag_file_normalizes_and_writes_the_models_tags(serve: Callable[..., FakeOpenAI], tmp_path: Path) -> None:
    fake = serve(tags_reply("JWT", "jwt", "API gateway", "++", "Priya", "Postgres"))
    vault = Vault(tmp_path)
    vault.write("c.md", CARD, ABSENT)
    result = tag_file(vault, "c.md", tagger(fake), "memory_tags", 3, "added")
    assert result.success and result.tags == ("JWT", "API_gateway", "Priya")
    after = (tmp_path / "c.md").read_text(encoding="utf-8")
    assert props.read(after)["memory_tags"] == ["JWT", "API_gateway", "Priya"]
    assert props.body(after) == props.body(CARD)


def test_tag_file_reports_a_model_failure_and_leaves_the_card(serve: Callable[..., FakeOpenAI],
                                                              tmp_path: Path) -> None:
    fake = serve(error(400, "model 'fake-model' does not exist"))
    vault = Vault(tmp_path)
    vault.write("c.md", CARD, ABSENT)
    result = tag_file(vault, "c.md", tagger(fake), "memory_tags", 3, "modified")
    assert not result.success and "HTTP 400: model 'fake-model' does not exist" in result.error
    assert (tmp_path / "c.md").read_text(encoding="utf-8") == CARD
