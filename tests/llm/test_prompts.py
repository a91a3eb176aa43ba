"""The agentscope prompt asks for the card shape the embedded distiller writes (issue 10, item 11).

Each test sends a conversation through the real agentscope client to the
loopback fake server and reads the system prompt and tool schema from the
request body: the rules must reach the model, in English and in Chinese.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Callable, Iterator

import pytest
from llm_server import KEY, FakeOpenAI, agent, completion, servers

from daemon.conversations.formats import parse_messages
from daemon.llm import AgentscopeDistiller
from daemon.models import DistillRequest

FIELDS = {"skip": False, "name": "gateway auth", "description": "d", "body": "- b"}

# (rule, the words of it that must reach the model); English, then Chinese.
RULES_EN = [
    ("description: one to three sentences saying what happened", "one to three sentences saying what happened"),
    ("description: decided, learned, planned or asked", "what was decided, learned, planned or asked"),
    ("description: names, numbers, the date when known", "with names, numbers and the date when known"),
    ("description: never a keyword list or quoted filler", "never a keyword list, never a quoted filler line"),
    ("no date as fact without timestamps", "When messages have no timestamps, state no date as fact"),
    ("name: the subject in 2-5 words", "the conversation's subject in 2-5 words"),
    ("name: not from markup", "never from markup such as image captions or tool placeholders"),
    ("name: not a speaker alone, not filler", "never a speaker's name alone, never a filler word"),
    ("body: true headings, Decisions only for decisions", '"Decisions" only for decisions, with the reason'),
    ("body: no greetings, thanks, acknowledgements, reactions, agreement",
     "greetings, thanks, acknowledgements, reactions and agreement"),
    ("body: no assistant announcing", "the assistant announcing what it will do"),
    ("body: no image-only lines", "image-only lines"),
    ("pronouns resolved", "Resolve pronouns to their referent"),
    ("speakers by name", "Attribute statements to speakers by name when names are given"),
    ("tool sessions from the tool calls", "summarise the work from the tool calls: files read, edited or created, "
                                          "commands run with their outcome, what changed and why, what is next"),
    ("no tool placeholders, no narration", 'No "[tool ...]" placeholders, no narration'),
    ("commands section", 'short reusable commands under "Commands and procedures"'),
    ("relative dates resolved, phrase kept", "Resolve relative dates and keep the original phrase"),
    ("pure small talk skipped", "pure small talk with nothing worth remembering, set skip to true"),
]
RULES_ZH = ["一到三句话说明发生了什么", "决定、了解、计划或询问了什么", "不要写成关键词列表", "不要引用客套话",
            "消息没有时间戳时，不要把任何日期当作事实写出", "用 2–5 个词概括对话主题", "不要取自图片说明或工具占位符",
            "不要只用说话人的名字", "不要用客套词", "“决定”只放决定并写明理由", "问候、致谢、确认、反应和附和",
            "助手宣布将要做什么", "只有图片的消息", "把代词还原为所指的对象", "按名字归属",
            "读取、编辑或新建的文件，运行的命令及其结果，改了什么、为什么改，下一步是什么", "不要照抄“[tool …]”占位符",
            "“命令和步骤”", "把相对日期换算成绝对日期并保留原话", "只是寒暄闲聊"]


@pytest.fixture
def serve() -> Iterator[Callable[..., FakeOpenAI]]:
    pytest.importorskip("agentscope")
    yield from servers()


def sent_prompt(fake: FakeOpenAI, raw: list[dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    distiller = AgentscopeDistiller(agent(fake), environ={"TEST_LLM_KEY": KEY}, retry_delay=0.0)
    distiller.distill(DistillRequest("s1", date(2023, 1, 19), parse_messages(raw), None))
    (request,) = fake.requests
    return request.system_text, request.body["tools"][0]["function"]["parameters"]["properties"]


@pytest.mark.parametrize(("rule", "words"), RULES_EN, ids=[r for r, _ in RULES_EN])
def test_the_english_prompt_carries_each_rule(serve: Callable[..., FakeOpenAI], rule: str, words: str) -> None:
    fake = serve(completion(fields=FIELDS))
    system, _ = sent_prompt(fake, [{"role": "user", "name": "Sam", "content": "We switch the gateway to JWT."}])
    assert words in system, rule


def test_the_chinese_prompt_carries_each_rule(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(completion(fields=FIELDS))
    system, _ = sent_prompt(fake, [{"role": "user", "name": "小王", "content": "我们决定网关改用 JWT，因为会话无法扩展。"}])
    missing = [rule for rule in RULES_ZH if rule not in system]
    assert not missing


def test_the_tool_schema_describes_the_same_shape(serve: Callable[..., FakeOpenAI]) -> None:
    fake = serve(completion(fields=FIELDS))
    _, properties = sent_prompt(fake, [{"role": "user", "content": "We switch the gateway to JWT."}])
    assert "2-5 words" in properties["name"]["description"]
    assert "one to three sentences saying what happened" in properties["description"]["description"]
