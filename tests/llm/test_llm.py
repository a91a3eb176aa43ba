"""The agentscope distiller against a loopback OpenAI-compatible server started by each test.

The real agentscope client (and the openai SDK under it) talks HTTP to the
scripted server in ``llm_server.py``, which records every request, so the
tests assert the request bodies the model would see. No network beyond
127.0.0.1. The pure parsing tests run without agentscope; the server tests
skip cleanly when it is not installed.
"""

from __future__ import annotations

import asyncio
import base64
import json
import subprocess
import sys
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from llm_server import KEY, FakeOpenAI, Reply, agent, completion, error, servers

from daemon.conversations import images
from daemon.errors import ConfigError, DistillError, TransientDistillError
from daemon.conversations.formats import parse_messages
from daemon.llm import AgentscopeDistiller, InvalidOutput, card_from_fields, check_endpoint, parse_json_object
from daemon.models import Card, DistillRequest, Skip

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24
REPO = Path(__file__).resolve().parents[2]


# ---- the fake server's replies ------------------------------------------------------

def card_reply(name: str = "tea", description: str = "Alice's tea.", body: str = "- Alice prefers green tea.",
               skip: bool = False) -> Reply:
    """A ``write_memory_card`` tool call."""
    return completion(fields={"skip": skip, "name": name, "description": description, "body": body})


@pytest.fixture
def serve() -> Iterator[Callable[..., FakeOpenAI]]:
    pytest.importorskip("agentscope")
    yield from servers()


def distiller(fake: FakeOpenAI, max_images: int = 5, **model: Any) -> AgentscopeDistiller:
    config = agent(fake, **model)
    config["context_config"]["max_image_num"] = max_images
    return AgentscopeDistiller(config, environ={"TEST_LLM_KEY": KEY}, retry_delay=0.0)


def request(raw: list[dict[str, Any]], existing: Card | None = None, **extra: Any) -> DistillRequest:
    return DistillRequest("s1", date(2023, 1, 19), parse_messages(raw), existing, **extra)


CHAT = [
    {"id": "m1", "role": "user", "name": "Alice", "created_at": "2023-01-19T08:00:00",
     "content": "I prefer green tea, never coffee."},
    {"id": "m2", "role": "assistant", "created_at": "2023-01-19T08:00:05Z", "content": "Noted."},
]


# ---- parsing the answer (no agentscope needed) ----------------------------------------

@pytest.mark.parametrize("text", [
    '{"skip": false, "name": "tea", "description": "d", "body": "b"}',
    'Here is the card:\n```json\n{"skip": false, "name": "tea", "description": "d", "body": "b",}\n```\nDone.',
    "{'skip': False, 'name': 'tea', 'description': 'd', 'body': 'b'}",
    "Sure! {\"skip\": false, 'name': 'tea', \"description\": \"d\", \"body\": \"b\",} hope it helps",
])
def test_json_is_found_and_repaired(text: str) -> None:
    assert parse_json_object(text) == {"skip": False, "name": "tea", "description": "d", "body": "b"}


def test_an_answer_cut_by_the_token_budget_is_closed() -> None:
    cut = 'The card:\n```json\n{\n "skip": false,\n "name": "wiki",\n "body": "- Omar runs the export on Mon'
    assert parse_json_object(cut) == {"skip": False, "name": "wiki", "body": "- Omar runs the export on Mon"}
    assert parse_json_object('{"tags": ["JWT", "gate') == {"tags": ["JWT", "gate"]}


def test_repair_keeps_quotes_and_newlines_inside_strings() -> None:
    value = parse_json_object("{'body': 'it\\'s \"fine\", [x],\n- next', 'name': \"Bob's, tea\",}")
    assert value == {"body": "it's \"fine\", [x],\n- next", "name": "Bob's, tea"}


@pytest.mark.parametrize("text", ["no json here", "{not: valid", "[1, 2]", ""])
def test_no_json_object_is_invalid_output(text: str) -> None:
    with pytest.raises(InvalidOutput):
        parse_json_object(text)


def test_fields_become_a_card_with_a_safe_name() -> None:
    card = card_from_fields({"skip": "false", "name": "Tea: 2023/01 [draft].md", "description": "two\nlines",
                             "body": "---\nstatus: x\n---\n## Tea\n- green"}, None, "s1")
    assert card == Card("Tea 2023 01 draft", "two lines", "## Tea\n- green\n")
    assert card_from_fields({"skip": True, "description": "small talk"}, None, "s1") == Skip("small talk")
    existing = Card("tea", "d", "b\n")
    assert card_from_fields({"skip": False, "name": "", "body": "new"}, existing, "s1") == Card("tea", "", "new\n")


def test_answers_are_repaired_rather_than_failed() -> None:
    derived = lambda: "gateway-jwt"  # noqa: E731 - the embedded distiller's name
    assert card_from_fields({"skip": True, "name": "jwt", "description": "d", "body": "- JWT chosen"}, None, "s1",
                            derived) == Card("jwt", "d", "- JWT chosen\n")  # a skip with a body is a card
    assert card_from_fields({"skip": False, "name": "", "body": "b"}, None, "s1", derived).name == "gateway-jwt"
    for copied in ("Dana @ 2024-03-05T09:02:17", "[Caroline @ 2023-07-15T13:51:00+09:48]"):
        assert card_from_fields({"name": copied, "body": "b"}, None, "s1", derived).name == "gateway-jwt"
    assert card_from_fields({"name": "Team @ work", "body": "b"}, None, "s1", derived).name == "Team @ work"
    speakers = frozenset({"dana", "omar"})
    assert card_from_fields({"name": "Dana", "body": "b"}, None, "s1", derived, speakers).name == "gateway-jwt"
    assert card_from_fields({"name": "Dana's wiki", "body": "b"}, None, "s1", derived, speakers).name == "Dana's wiki"
    assert card_from_fields({"name": "wiki", "description": "...", "body": "b"}, None, "s1").description == ""
    with pytest.raises(InvalidOutput, match="placeholder"):  # the JSON form's example copied back
        card_from_fields({"skip": False, "name": "...", "description": "...", "body": "..."}, None, "s1")


@pytest.mark.parametrize("fields", [
    {"skip": "maybe", "name": "a", "body": "b"},
    {"skip": False, "name": "a", "body": ""},
    {"skip": False, "name": "", "body": "b"},
    {"skip": False, "name": "a", "body": ["b"]},
])
def test_invalid_fields(fields: dict[str, Any]) -> None:
    with pytest.raises(InvalidOutput):
        card_from_fields(fields, None, "s1")


def test_importing_the_module_does_not_import_agentscope() -> None:
    code = "import sys, daemon.llm; print(sorted(m for m in sys.modules if m.split('.')[0] in " \
           "('agentscope', 'openai', 'mcp', 'pydantic')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_config_errors_name_the_key_or_variable() -> None:
    with pytest.raises(ConfigError, match="TEST_LLM_KEY"):
        AgentscopeDistiller(agent(), environ={})
    with pytest.raises(ConfigError, match=r"model\.api_key_env"):
        AgentscopeDistiller(agent(api_key_env="", provider="anthropic"), environ={})
    with pytest.raises(ConfigError, match=r"model\.name"):
        AgentscopeDistiller(agent(name=" "), environ={"TEST_LLM_KEY": KEY})
    with pytest.raises(ConfigError, match="provider"):
        AgentscopeDistiller(agent(provider="bard"), environ={"TEST_LLM_KEY": KEY})


# ---- one call: the request body -----------------------------------------------------------

def test_structured_output_request_body_and_headers(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply())
    result = distiller(fake).distill(request(CHAT, hint="drinks"))
    assert result == Card("tea", "Alice's tea.", "- Alice prefers green tea.\n")
    (sent,) = fake.requests
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert KEY not in json.dumps(sent.body)
    body = sent.body
    assert (body["model"], body["temperature"], body["stream"]) == ("fake-model", 0.3, False)
    assert [t["function"]["name"] for t in body["tools"]] == ["write_memory_card"]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "write_memory_card"}}
    assert set(body["tools"][0]["function"]["parameters"]["required"]) == {"skip", "name", "description", "body"}
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert all(m.get("name") in (None, "system", "user") for m in body["messages"])
    system = sent.system_text
    for phrase in ("decisions", "current state", "procedures", "verbatim", "conversation date", "event date",
                   "relative time", "no date", "Never add status", "small talk"):
        assert phrase in system
    text = sent.user_text
    assert "Card date: 2023-01-19" in text and "Session ID: s1" in text and "Extra hint: drinks" in text
    assert "[Alice @ 2023-01-19T08:00:00]\nI prefer green tea, never coffee." in text
    assert "[assistant @ 2023-01-19T08:00:05Z]\nNoted." in text  # the raw timestamp, not a parsed one
    assert "Existing card" not in text


def test_chinese_conversation_gets_the_chinese_prompt(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply(name="喝茶偏好"))
    raw = [{"role": "user", "name": "小王", "created_at": "2023-01-19T08:00:00", "content": "我更喜欢绿茶，不喝咖啡。"}]
    assert distiller(fake).distill(request(raw)) == Card("喝茶偏好", "Alice's tea.", "- Alice prefers green tea.\n")
    (sent,) = fake.requests
    assert "记忆卡片" in sent.system_text and "对话日期" in sent.system_text
    assert "卡片日期：2023-01-19" in sent.user_text and "[小王 @ 2023-01-19T08:00:00]\n我更喜欢绿茶" in sent.user_text


def test_update_sends_the_existing_card(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply(body="- Alice prefers green tea.\n- Bob likes oolong."))
    existing = Card("tea", "Alice's tea.", "- Alice prefers green tea.\n- (my own note)\n")
    raw = [{"id": "m3", "role": "user", "name": "Bob", "created_at": "2023-01-19T09:00:00",
            "content": "I like oolong."}]
    result = distiller(fake).distill(request(raw, existing))
    assert isinstance(result, Card) and "oolong" in result.body
    text = fake.requests[0].user_text
    assert ("<existing_card>\nname: tea\ndescription: Alice's tea.\n\n- Alice prefers green tea.\n"
            "- (my own note)\n</existing_card>") in text
    assert "Merge the new messages" in text and "append new ones at the end" in text


def test_dashscope_speaks_the_same_protocol(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply())
    assert isinstance(distiller(fake, provider="dashscope").distill(request(CHAT)), Card)
    (sent,) = fake.requests
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert (sent.body["model"], sent.body["temperature"], sent.body["enable_thinking"]) == ("fake-model", 0.3, False)


def test_skip(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply(name="", body="", description="just greetings", skip=True))
    raw = [{"role": "user", "content": "hi!"}]
    assert distiller(fake).distill(request(raw)) == Skip("just greetings")
    assert "[user]\nhi!" in fake.requests[0].user_text  # no timestamp: no "@" part


# ---- fallbacks, retries and errors ---------------------------------------------------------

def test_plain_text_json_fallback(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(completion("Here you go:\n```json\n{'skip': false, 'name': 'tea', 'description': 'd',"
                            " 'body': '- green tea',}\n```"))
    assert distiller(fake).distill(request(CHAT)) == Card("tea", "d", "- green tea\n")
    assert len(fake.requests) == 1


def test_server_without_tool_calling_switches_to_json_text_once(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(error(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser'),
                 completion('{"skip": false, "name": "tea", "description": "d", "body": "b"}'))
    subject = distiller(fake, retries=0)
    assert subject.distill(request(CHAT)) == Card("tea", "d", "b\n")
    assert subject.distill(request(CHAT)) == Card("tea", "d", "b\n")
    first, second, third = fake.requests
    assert "tools" in first.body and "tools" not in second.body and "tools" not in third.body
    assert "Reply with exactly one JSON object" in second.user_text


def test_server_error_then_success(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(error(500, "overloaded"), card_reply())
    assert isinstance(distiller(fake).distill(request(CHAT)), Card)
    assert len(fake.requests) == 2


@pytest.mark.parametrize("retries", [0, 2])
def test_attempts_are_retries_plus_one_not_multiplied(serve: Callable[..., FakeOpenAI], retries: int) -> None:
    fake = serve(error(500, "the GPU is on fire"))
    with pytest.raises(TransientDistillError, match="HTTP 500: the GPU is on fire"):
        distiller(fake, retries=retries).distill(request(CHAT))
    assert len(fake.requests) == retries + 1


def test_rate_limit_is_transient(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(error(429, "slow down"))
    with pytest.raises(TransientDistillError, match="HTTP 429: slow down"):
        distiller(fake, retries=1).distill(request(CHAT))
    assert len(fake.requests) == 2


@pytest.mark.parametrize(("status", "message"), [(400, "context length exceeded"), (401, "bad key"),
                                                 (404, "model 'fake-model' not found")])
def test_client_errors_fail_at_once_with_the_provider_message(
    serve: Callable[..., FakeOpenAI], status: int, message: str
) -> None:
    fake = serve(error(status, message))
    with pytest.raises(DistillError, match=f"HTTP {status}: {message}") as caught:
        distiller(fake).distill(request(CHAT))
    assert not isinstance(caught.value, TransientDistillError)
    assert KEY not in str(caught.value)
    assert len(fake.requests) == 1


def test_timeout_is_transient(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(Reply(delay=5.0))
    with pytest.raises(TransientDistillError, match="timed out after 0.3 s"):
        distiller(fake, timeout=0.3, retries=1).distill(request(CHAT))
    assert len(fake.requests) == 2


def test_invalid_output_fails_after_the_retries(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(completion(fields=None, text="I would rather not."))
    with pytest.raises(DistillError, match="invalid output: no JSON object") as caught:
        distiller(fake, retries=1).distill(request(CHAT))
    assert not isinstance(caught.value, TransientDistillError)
    assert len(fake.requests) == 3  # the free switch to JSON text, then retries + 1
    assert "tools" in fake.requests[0].body and all("tools" not in r.body for r in fake.requests[1:])


def test_invalid_output_then_a_valid_card(serve: Callable[..., FakeOpenAI]) -> None:
    bad = Reply(body=completion(fields={"skip": False, "name": "tea"}).body)  # no body
    fake = serve(bad, card_reply())
    assert isinstance(distiller(fake).distill(request(CHAT)), Card)
    assert len(fake.requests) == 2


def test_unreachable_server_is_transient() -> None:
    pytest.importorskip("agentscope")
    fake = FakeOpenAI([card_reply()])
    url = fake.base_url
    fake.close()  # nothing listens on that port any more
    config = agent(None, base_url=url, retries=1)
    with pytest.raises(TransientDistillError, match="cannot reach"):
        AgentscopeDistiller(config, environ={"TEST_LLM_KEY": KEY}, retry_delay=0.0).distill(request(CHAT))


def test_distill_works_inside_a_running_event_loop(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply())
    subject = distiller(fake)

    async def caller() -> Card | Skip:
        return subject.distill(request(CHAT))

    assert isinstance(asyncio.run(caller()), Card)
    assert isinstance(subject.distill(request(CHAT)), Card)  # and again, on a fresh loop
    assert len(fake.requests) == 2


# ---- long conversations ------------------------------------------------------------------------

def merging_server(body: dict[str, Any]) -> Reply:
    """A model that appends every fact line of the request to the existing card."""
    content = body["messages"][-1]["content"]
    text = content if isinstance(content, str) else "".join(p.get("text", "") for p in content)
    old = text.split("<existing_card>", 1)[1].split("</existing_card>")[0] if "<existing_card>" in text else ""
    facts = [line.split()[0] for line in (old + "\n" + text.split("# Recent Conversation", 1)[1]).splitlines()
             if line.startswith("fact-")]
    return card_reply(name="facts", body="\n".join(dict.fromkeys(facts)))


def test_long_conversation_is_distilled_in_parts(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(merging_server)
    raw = [{"id": f"m{i}", "role": "user", "created_at": f"2023-01-19T08:{i:02d}:00",
            "content": f"fact-{i} " + "padding words " * 60} for i in range(12)]
    result = distiller(fake, context_tokens=4000).distill(request(raw))
    assert len(fake.requests) >= 2
    assert isinstance(result, Card)
    assert result.body.split() == [f"fact-{i}" for i in range(12)]
    first, *rest = fake.requests
    assert "this is part 1. More parts follow." in first.user_text
    assert "<existing_card>" in rest[0].user_text and "This is the last part." in fake.requests[-1].user_text
    sent = "".join(r.user_text for r in fake.requests)
    assert all(f"[user @ 2023-01-19T08:{i:02d}:00]" in sent for i in range(12))  # nothing dropped


def test_one_message_longer_than_the_context_is_split_not_cut(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply(name="words", body="- many words"))
    words = [f"w{i}" for i in range(3000)]
    raw = [{"role": "user", "name": "Ann", "created_at": "2023-01-19T08:00:00", "content": " ".join(words)}]
    distiller(fake, context_tokens=3000).distill(request(raw))
    assert len(fake.requests) >= 2
    history = [r.user_text.split("# Recent Conversation\n\n", 1)[1].split("\n", 1) for r in fake.requests]
    assert history[0][0] == "[Ann @ 2023-01-19T08:00:00]"
    assert all(h[0] == "[Ann @ 2023-01-19T08:00:00] (continued)" for h in history[1:])
    assert " ".join(h[1].strip() for h in history).split() == words


def test_a_context_too_small_for_the_prompt_is_an_error(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply())
    with pytest.raises(DistillError, match=r"model\.context_tokens=900"):
        distiller(fake, context_tokens=900).distill(request(CHAT))
    assert fake.requests == []


# ---- images ---------------------------------------------------------------------------------------

IMAGE_CHAT: list[dict[str, Any]] = [
    {"id": "m1", "role": "user", "name": "Alice", "created_at": "2023-01-19T08:00:00", "content": [
        {"type": "text", "text": "My desk setup:"},
        {"type": "data", "source": {"type": "base64", "media_type": "image/png",
                                    "data": base64.b64encode(PNG).decode()}},
        {"type": "text", "text": "and the receipt"},
        {"type": "image_url", "image_url": {"url": "https://img.test/receipt.jpg"}}]},
    {"id": "m2", "role": "assistant", "created_at": "2023-01-19T08:01:00", "content": "Nice desk."},
    {"id": "m3", "role": "user", "name": "Alice", "created_at": "2023-01-19T08:02:00", "content": [
        {"type": "image", "source": {"type": "url", "url": "https://img.test/lamp.webp"}}]},
]
SOURCES = {("m1", 1): "[[session/images/s1/msg-6d31-image-1.png]]", ("m1", 3): "https://img.test/receipt.jpg",
           ("m3", 0): "https://img.test/lamp.webp"}


def test_images_are_sent_in_order_beside_their_sources(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply(body="- Desk ([[session/images/s1/msg-6d31-image-1.png]])"))
    distiller(fake, vision=True).distill(request(IMAGE_CHAT, include_images=True, image_sources=SOURCES))
    content = fake.requests[0].user_content
    kinds = [part["type"] for part in content]
    assert kinds == ["text", "image_url", "text", "image_url", "text", "image_url", "text"]
    urls = [part["image_url"]["url"] for part in content if part["type"] == "image_url"]
    assert urls == ["data:image/png;base64," + base64.b64encode(PNG).decode(),
                    "https://img.test/receipt.jpg", "https://img.test/lamp.webp"]
    for i, part in enumerate(content):
        if part["type"] == "image_url":
            source = list(SOURCES.values())[urls.index(part["image_url"]["url"])]
            assert content[i - 1]["text"].endswith(f"Image source: {source}")
    assert content[0]["text"].endswith("[Alice @ 2023-01-19T08:00:00]\nMy desk setup:\nImage source: "
                                       "[[session/images/s1/msg-6d31-image-1.png]]")
    assert "[Alice @ 2023-01-19T08:02:00]\nImage source: https://img.test/lamp.webp" in content[4]["text"]
    assert "cite the exact source in the same sentence" in content[-1]["text"]


def test_the_pipeline_order_collect_validate_plan_then_distill(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply())
    req = request(IMAGE_CHAT, include_images=True)
    found = images.collect(req.messages)
    images.validate(found, "agentscope", True, 5, provider="openai")
    plan = images.plan(found, "session", req.session_id)  # the pipeline writes plan.files, then the record
    assert [a.path for a in plan.files] == [f"session/images/s1/msg-{b'm1'.hex()}-image-1.png"]
    distiller(fake, vision=True).distill(replace(req, image_sources=plan.sources))
    text = fake.requests[0].user_text
    assert all(f"Image source: {link}" in text for link in plan.links)
    assert images.merge_sources(["[[older.png]]"], list(plan.links)) == ["[[older.png]]", *plan.links]


def test_every_image_up_to_the_configured_limit_is_sent(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply())
    blocks = [{"type": "image_url", "image_url": {"url": f"https://img.test/{i}.png"}} for i in range(7)]
    raw = [{"id": "m1", "role": "user", "created_at": "2023-01-19T08:00:00", "content": blocks}]
    distiller(fake, max_images=7, vision=True).distill(request(raw, include_images=True))
    urls = [p["image_url"]["url"] for p in fake.requests[0].user_content if p["type"] == "image_url"]
    assert urls == [f"https://img.test/{i}.png" for i in range(7)]  # none dropped (agentscope's Agent keeps 5)


def test_without_include_images_only_text_is_sent(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply())
    distiller(fake, vision=True).distill(request(IMAGE_CHAT))
    content = fake.requests[0].user_content
    assert [p["type"] for p in content] == ["text"]
    assert "Image source" not in content[0]["text"] and "My desk setup:\nand the receipt" in content[0]["text"]


@pytest.mark.parametrize(("model", "max_images", "match"), [
    ({"vision": False}, 5, r"model\.vision=true"),
    ({"vision": True}, 2, r"Session has 3 images, exceeding context_config\.max_image_num=2"),
])
def test_images_are_checked_again_before_any_request(
    serve: Callable[..., FakeOpenAI], model: dict[str, Any], max_images: int, match: str
) -> None:
    fake = serve(card_reply())
    with pytest.raises(DistillError, match=match):
        distiller(fake, max_images=max_images, **model).distill(
            request(IMAGE_CHAT, include_images=True, image_sources=SOURCES))
    assert fake.requests == []


def test_a_base64_image_without_a_saved_attachment_is_an_error(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(card_reply())
    with pytest.raises(DistillError, match="no saved attachment"):
        distiller(fake, vision=True).distill(request(IMAGE_CHAT, include_images=True))
    assert fake.requests == []


# ---- memvault doctor --------------------------------------------------------------------------------

def test_check_endpoint(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(completion("OK"), error(401, "invalid api key"))
    message = check_endpoint(agent(fake), environ={"TEST_LLM_KEY": KEY})
    assert message.startswith(f"OK: openai model 'fake-model' at {fake.base_url} answered in")
    assert "tools" not in fake.requests[0].body
    with pytest.raises(DistillError, match="HTTP 401: invalid api key"):
        check_endpoint(agent(fake), environ={"TEST_LLM_KEY": KEY})
    with pytest.raises(ConfigError, match="TEST_LLM_KEY"):
        check_endpoint(agent(fake), environ={})


def test_local_server_without_a_key_variable(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(completion("OK"))
    check_endpoint(agent(fake, api_key_env=""), environ={})
    assert fake.requests[0].headers["authorization"] == "Bearer memvault-no-key"


def test_the_prompt_carries_the_exports_own_title_beside_the_hint() -> None:
    from daemon.llm.prompts import frame
    asked = request([{"role": "user", "content": "My flask app says database is locked."}],
                    title="SQLite Database Locked Error", hint="the fix")
    before, _ = frame(asked, None, "en", None, False, True)
    assert "Extra hint: the fix (title: SQLite Database Locked Error)" in before
    before, _ = frame(replace(asked, title="", hint=None), None, "en", None, False, True)
    assert "title:" not in before
