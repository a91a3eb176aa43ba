"""The extractive distiller (``daemon.distill.extractive``): what a card keeps, how it is named, how it merges."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daemon.distill.extractive import HEADINGS, SKIP_REASON, ExtractiveDistiller, slugify
from daemon.models import Card, DistillRequest, Message, Skip

TESTS = Path(__file__).resolve().parents[1]
FIXTURE = TESTS / "fixtures" / "conversation_basic.json"
GOLDEN = TESTS / "golden" / "card_basic.md"
REPO = TESTS.parent
WHEN = datetime(2024, 3, 14, 9, 0, tzinfo=timezone.utc)
DAY = date(2024, 3, 14)


def msg(text: str, name: str = "Dana", role: str = "user", when: datetime | None = WHEN) -> Message:
    return Message(id=f"m{abs(hash((text, name))) % 10**8}", role=role, name=name, text=text, time=when)


def bot(text: str) -> Message:
    return msg(text, name="", role="assistant")


def request(messages: list[Message], existing: Card | None = None, hint: str | None = None,
            day: date = DAY, session_id: str = "s1") -> DistillRequest:
    return DistillRequest(session_id=session_id, day=day, messages=tuple(messages), existing=existing,
                          hint=hint, timezone=timezone.utc)


def card_of(messages: list[Message], **kwargs: object) -> Card:
    result = ExtractiveDistiller().distill(request(messages, **kwargs))  # type: ignore[arg-type]
    assert isinstance(result, Card), result
    return result


def sections(body: str) -> dict[str, str]:
    """Heading title -> the text under it."""
    parts = re.split(r"^## (.+)$", body, flags=re.M)
    return {title.strip(): text for title, text in zip(parts[1::2], parts[2::2], strict=True)}


_FORBIDDEN = set('/\\:*?"<>|#^[]')
_DEVICES = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def is_valid_name(name: str) -> bool:
    """The brief's rule for a card name, written independently of the implementation."""
    return (0 < len(name) <= 60 and name == name.lower() and not _FORBIDDEN & set(name)
            and all(ord(ch) >= 32 and ord(ch) != 127 for ch in name)
            and name[0] not in ". -" and name[-1] not in ". -" and "--" not in name
            and " " not in name and name.split(".")[0] not in _DEVICES)


def load_fixture() -> DistillRequest:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    messages = tuple(Message(id=m["id"], role=m["role"], name=m["name"], text=m["text"],
                             time=datetime.fromisoformat(m["time"])) for m in data["messages"])
    return DistillRequest(session_id=data["session_id"], day=date.fromisoformat(data["day"]),
                          messages=messages, timezone=timezone.utc)


OUR_HEADINGS = {h for by_kind in HEADINGS.values() for h in by_kind.values()}


def render(card: Card) -> str:
    return f"---\nname: {card.name}\ndescription: {card.description}\n---\n{card.body}"


# ---- what a card keeps ---------------------------------------------------------------

KINDS_CONVERSATION = [
    msg("I prefer tabs over spaces in every Python file I write."),
    bot("Noted. The staging database runs Postgres 15 on port 5433 behind the VPN gateway."),
    msg("We decided to use SQLite for the index instead of Postgres because it ships with Python."),
    msg("Currently the ChatGPT importer works and the Claude parser is next."),
    bot("To rebuild the index from scratch, run:\n\n```bash\nmemvault reindex --full\n```"),
]


def test_each_kind_of_statement_lands_under_its_heading() -> None:
    body = sections(card_of(KINDS_CONVERSATION).body)
    assert "I prefer tabs over spaces in every Python file I write." in body["Preferences"]
    assert "Postgres 15 on port 5433" in body["Key facts"]
    assert "use SQLite for the index instead of Postgres because it ships with Python" in body["Decisions"]
    assert "the Claude parser is next" in body["Current state and next steps"]
    assert "```bash\nmemvault reindex --full\n```" in body["Commands and procedures"]
    assert list(body) == ["Decisions", "Preferences", "Key facts", "Current state and next steps",
                          "Commands and procedures"]


def test_empty_sections_are_omitted() -> None:
    body = card_of([msg("We decided to ship the importer on Friday because QA signed off.")]).body
    assert list(sections(body)) == ["Decisions"]


def test_statements_are_attributed_to_their_speaker() -> None:
    body = card_of(KINDS_CONVERSATION).body
    assert "- Dana: I prefer tabs over spaces" in body
    assert "- Assistant: The staging database runs Postgres 15" in body


def test_code_blocks_are_kept_whole() -> None:
    code = ("```python\ndef rotate(key: bytes) -> bytes:\n\n    # today is not a date here\n"
            "    return key[::-1]  \n```")
    card = card_of([msg("Can you show the rotation helper?"), bot(f"Here is the helper:\n\n{code}\n\nDone.")])
    assert code in card.body
    assert "- Assistant: Here is the helper:\n\n" + code in card.body


def test_relative_dates_become_absolute_from_the_message_time() -> None:
    late = datetime(2026, 8, 19, 16, 30, tzinfo=timezone.utc)
    messages = (msg("We shipped the release yesterday after the load test passed.", when=late),)
    req = DistillRequest("s1", date(2026, 8, 20), messages, timezone=timezone(timedelta(hours=8)))
    card = ExtractiveDistiller().distill(req)
    assert isinstance(card, Card)
    assert "We shipped the release yesterday (19 August 2026) after the load test passed." in card.body


def test_a_date_no_calendar_has_does_not_stop_the_card() -> None:
    late = datetime(2026, 11, 30, 10, 0, tzinfo=timezone.utc)
    messages = (msg("Can we meet Monday (2026-02-30) to go over the quarterly plan?", when=late),
                msg("Yes, Monday works. Bring the forecast sheet.", name="", role="assistant", when=late))
    card = ExtractiveDistiller().distill(DistillRequest("s1", date(2026, 11, 30), messages, timezone=timezone.utc))
    assert isinstance(card, Card)
    assert "Can we meet Monday (30 February 2026) to go over the quarterly plan?" in card.body


def test_body_lines_are_statements_quoted_from_the_conversation() -> None:
    req = load_fixture()
    card = ExtractiveDistiller().distill(req)
    assert isinstance(card, Card)
    source = " ".join(m.text for m in req.messages)
    bullets = [line for line in card.body.splitlines() if line.startswith("- ")]
    assert bullets
    for line in bullets:
        speaker, _, said = line[2:].partition(": ")
        assert speaker in {"Dana", "Assistant"}
        assert len(said.split()) >= 4, line  # a statement, not a keyword
        said = re.sub(r" \((?:week of |weekend of |around )?(?:\d{1,2} )?[A-Z][a-z]+ \d{4}\)", "", said)
        for piece in re.split(r", |; | - ", said):
            assert piece.rstrip(".!:") in source, piece


def test_description_is_one_plain_line_about_who_and_what() -> None:
    card = ExtractiveDistiller().distill(load_fixture())
    assert isinstance(card, Card)
    assert "\n" not in card.description and not card.description.startswith(("#", "-", "`"))
    # What was decided leads, with its date; who and when close it (the messages carry times).
    assert card.description.startswith("We decided yesterday (13 March 2024) to drop server-side sessions")
    assert card.description.endswith("Chat with Dana on Thursday 14 March 2024.")
    assert "talked" not in card.description and " about " not in card.description  # no keyword list
    assert len(re.findall(r"[.!?](?:\s|$)", card.description)) <= 4


def test_hint_steers_what_is_kept() -> None:
    facts = [msg(f"The {w} service keeps {n} replicas in the {z} zone and logs to {s}.")
             for w, n, z, s in [("billing", 3, "north", "Loki"), ("search", 5, "south", "Elastic"),
                                ("mailer", 2, "east", "Graylog"), ("gateway", 4, "west", "Splunk")]]
    facts.append(msg("Parking badges expire after ninety days."))
    tight = ExtractiveDistiller(body_ratio=0.0, min_body=130, max_body=130)
    plain = tight.distill(request(facts))
    hinted = tight.distill(request(facts, hint="remember the parking badges"))
    assert isinstance(plain, Card) and isinstance(hinted, Card)
    assert "Parking badges" not in plain.body
    assert "Parking badges expire after ninety days." in hinted.body


# ---- skipping ------------------------------------------------------------------------

@pytest.mark.parametrize(
    "texts",
    [["hi"], ["thanks!"], ["how are you"], ["好的"], ["谢谢"], ["Hi!", "Hello, how are you?", "Good, thanks!"],
     ["你好", "好的，谢谢！"], ["👍"], []],
)
def test_small_talk_is_skipped(texts: list[str]) -> None:
    result = ExtractiveDistiller().distill(request([msg(t) for t in texts]))
    assert result == Skip(SKIP_REASON)
    # One real statement among the pleasantries is enough for a card.
    with_news = [msg(t) for t in texts] + [msg("The staging server moved to Frankfurt on Monday.")]
    assert "moved to Frankfurt" in card_of(with_news).body


def test_small_talk_leaves_an_existing_card_unchanged() -> None:
    existing = card_of(KINDS_CONVERSATION)
    assert ExtractiveDistiller().distill(request([msg("thanks!")], existing=existing)) is existing
    news = card_of([msg("The staging server moved to Frankfurt on Monday.")], existing=existing)
    assert "- Dana: The staging server moved to Frankfurt on Monday" in sections(news.body)["Key facts"]


def test_an_ambiguous_conversation_still_gets_a_card() -> None:
    card = card_of([msg("How do I rotate the JWT signing key without logging everyone out?")])
    assert sections(card.body) == {
        "Open questions": "\n- Dana: How do I rotate the JWT signing key without logging everyone out?\n"}


# ---- Chinese ---------------------------------------------------------------------------

ZH_CONVERSATION = [
    msg("我们昨天决定把登录模块重构成JWT方案，而不是继续用服务端会话，因为移动端没法稳定保存Cookie。", name=""),
    bot("明白。建议访问令牌有效期设为15分钟，刷新令牌存在数据库里，方便随时吊销。"),
    msg("我更喜欢小的PR，每个PR只做一件事。", name=""),
    bot("生成签名密钥可以运行：\n\n```bash\nopenssl rand -hex 32 > instance/jwt.key\n```"),
    msg("目前令牌服务已经合并，下一步是切换移动端接口，计划下周一完成。", name=""),
    msg("好的，谢谢！", name=""),
]


def test_chinese_conversation_gets_chinese_headings_and_dates() -> None:
    card = card_of(ZH_CONVERSATION)
    body = sections(card.body)
    assert set(body) <= set(HEADINGS["zh"].values()) and len(body) == 5
    assert "- 我们昨天（2024-03-13）决定把登录模块重构成JWT方案" in body["决定"]
    assert "我更喜欢小的PR" in body["偏好"]
    assert "下周一（2024-03-18）完成" in body["现状与下一步"]
    assert "openssl rand -hex 32" in body["命令与步骤"]
    assert "2024-03-14" in card.description and "决定把登录模块重构成JWT方案" in card.description
    assert is_valid_name(card.name) and re.search(r"[\u4e00-\u9fff]", card.name)


# ---- names -----------------------------------------------------------------------------

def test_name_is_a_stable_dateless_topic_slug() -> None:
    first = card_of(KINDS_CONVERSATION)
    again = card_of(KINDS_CONVERSATION, day=date(2030, 1, 1), session_id="other")
    assert first.name == again.name
    assert is_valid_name(first.name)
    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{8}", first.name)
    other = card_of([msg("We moved the nightly backup job to Hetzner storage boxes because S3 egress "
                         "cost 400 dollars a month.")])
    assert other.name != first.name and "hetzner" in other.name.split("-")
    assert card_of(ZH_CONVERSATION).name != first.name


@pytest.mark.parametrize(
    ("raw", "slug"),
    [("CON", "con-notes"), ("Com1", "com1-notes"), ("LPT9", "lpt9-notes"), ("Login Refactor", "login-refactor"),
     ('a/b\\c:d*e?f"g<h>i|j#k^l[m]n', "a-b-c-d-e-f-g-h-i-j-k-l-m-n"), ("...", ""), ("登录 重构", "登录-重构"),
     ("Ｆｕｌｌ　Ｗｉｄｔｈ", "full-width")],
)
def test_slugify(raw: str, slug: str) -> None:
    assert slugify(raw) == slug


@given(st.text(max_size=300))
def test_slugify_is_always_a_valid_name_or_empty(text: str) -> None:
    slug = slugify(text)
    assert slug == "" or is_valid_name(slug)


_WORDS = st.sampled_from("I we decided prefer the Postgres 15 minutes yesterday because next Monday run deploy "
                         "登录 重构 决定 昨天 COM1 con # [ ] ^ | : / \\ * ? < > . .. 'quoted' café Ǆ İstanbul ﬁle ＃ "
                         "\x00 \x7f ```".split(" "))
_TEXT = st.one_of(st.text(alphabet=st.characters(codec="utf-8"), max_size=200),
                  st.lists(_WORDS, min_size=1, max_size=40).map(" ".join))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_TEXT, st.text(max_size=20)), max_size=4), st.integers(0, 4),
       st.sampled_from(["COM1", "#", "[[x]]", "", "\n"]))
def test_any_conversation_with_news_gets_a_card_with_a_valid_name(
        turns: list[tuple[str, str]], where: int, noise: str) -> None:
    messages = [msg(text, name=name) for text, name in turns]
    news = f"We decided to use Postgres 15 for {noise} the archive because backups are simpler."
    messages.insert(min(where, len(messages)), msg(news))
    result = ExtractiveDistiller().distill(request(messages))
    assert isinstance(result, Card), result
    assert is_valid_name(result.name), result.name
    assert "\n" not in result.description and result.body.endswith("\n")
    assert set(sections(result.body)) <= OUR_HEADINGS
    body = sections(result.body)  # random CJK text may tip the card into Chinese
    assert "use Postgres 15 for" in body.get("Decisions", body.get("决定", ""))
    assert ExtractiveDistiller().distill(request(messages)) == result


# ---- updates ----------------------------------------------------------------------------

def test_same_messages_again_return_the_identical_card() -> None:
    for messages, quote in ((KINDS_CONVERSATION, "Postgres 15 on port 5433"), (ZH_CONVERSATION, "只做一件事"),
                            (list(load_fixture().messages), "rejected it because")):
        card = card_of(messages)
        assert quote in card.body and set(sections(card.body)) <= OUR_HEADINGS
        assert ExtractiveDistiller().distill(request(messages, existing=card)) is card


def test_update_keeps_user_edits_and_adds_only_new_statements() -> None:
    req = load_fixture()
    card = ExtractiveDistiller().distill(req)
    assert isinstance(card, Card)
    edited_body = card.body.replace("I prefer small PRs", "I prefer SMALL PRs (my edit)")
    edited_body += "\nMy own note: ask Sam about key rotation.\n"
    edited = Card("my-renamed-card", card.description, edited_body)
    later = datetime(2024, 3, 15, 16, 0, tzinfo=timezone.utc)
    new = (msg("The mobile endpoints are switched as of today.", when=later),
           msg("We chose RS256 over HS256 because the gateway only needs the public key.", when=later))
    merged = ExtractiveDistiller().distill(DistillRequest(req.session_id, req.day, new, existing=edited,
                                                          timezone=timezone.utc))
    assert isinstance(merged, Card)
    assert merged.name == "my-renamed-card"
    remaining = iter(merged.body.splitlines())
    assert all(line in remaining for line in edited_body.splitlines())  # every old line, in order
    assert "I prefer small PRs" not in merged.body  # the edited statement is not re-added
    assert merged.body.count("openssl rand -hex 32") == 1
    after = sections(merged.body)
    assert after["Decisions"].rstrip().endswith(
        "- Dana: We chose RS256 over HS256 because the gateway only needs the public key.")
    assert "- Dana: The mobile endpoints are switched as of today (15 March 2024)." in after[
        "Current state and next steps"]
    assert merged.description != card.description
    assert merged.description.startswith("We decided yesterday (13 March 2024)")  # the opening stays
    assert "switched as of today" in merged.description  # the news follows
    assert "decided yesterday" in merged.description  # the old decision is still covered


def test_update_creates_a_missing_heading_at_the_end() -> None:
    existing = Card("notes", "Dana talked about the importer.",
                    "## Key facts\n- Dana: The importer reads ChatGPT exports.\n\n## Links\n[[importer]]\n")
    merged = card_of([msg("I prefer the CLI over the web UI for imports.")], existing=existing)
    assert merged.body.startswith(existing.body.rstrip("\n"))
    assert merged.body.endswith("## Preferences\n- Dana: I prefer the CLI over the web UI for imports.\n")


def test_update_appends_at_the_end_of_the_existing_section() -> None:
    existing = Card("notes", "d", "## Decisions\n- Dana: We chose Flask.\n\n## Key facts\n- Dana: Old fact.\n")
    merged = card_of([msg("We decided to drop Celery because cron is enough.")], existing=existing)
    assert merged.body == ("## Decisions\n- Dana: We chose Flask.\n"
                           "- Dana: We decided to drop Celery because cron is enough.\n\n"
                           "## Key facts\n- Dana: Old fact.\n")


def test_update_with_nothing_new_returns_the_existing_card() -> None:
    existing = Card("notes", "user text", "Free text the user wrote.\n")
    assert ExtractiveDistiller().distill(request([msg("ok thanks")], existing=existing)) is existing
    assert ExtractiveDistiller().distill(request([msg("Why?")], existing=existing)) is existing
    statement = "We decided to keep the nightly job on cron because it already works."
    once = card_of([msg(statement)], existing=existing)
    assert once.body == f"Free text the user wrote.\n\n## Decisions\n- Dana: {statement}\n"
    assert ExtractiveDistiller().distill(request([msg(statement)], existing=once)) is once


# ---- determinism and the golden card ------------------------------------------------------

def test_output_does_not_depend_on_hash_seed() -> None:
    script = ("import json, tests.distill.test_distill as t\n"
              "from daemon.distill.extractive import ExtractiveDistiller\n"
              "c = ExtractiveDistiller().distill(t.load_fixture())\n"
              "z = ExtractiveDistiller().distill(t.request(t.ZH_CONVERSATION))\n"
              "print(json.dumps([c.name, c.description, c.body, z.name, z.description, z.body]))\n")
    outputs = {subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True,
                              check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2", "3")}
    assert len(outputs) == 1
    name, _, body, zh_name, _, zh_body = json.loads(outputs.pop())
    assert is_valid_name(name) and is_valid_name(zh_name)
    assert "## Decisions" in body and "## 决定" in zh_body


def test_golden_card() -> None:
    """Regenerate on purpose only: REGENERATE_GOLDEN=1 pytest tests/distill/test_distill.py -k golden."""
    card = ExtractiveDistiller().distill(load_fixture())
    assert isinstance(card, Card)
    if os.environ.get("REGENERATE_GOLDEN") == "1":
        GOLDEN.write_text(render(card), encoding="utf-8")
    assert render(card) == GOLDEN.read_text(encoding="utf-8")
