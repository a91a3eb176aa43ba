"""Cards a person wants to read: each rule of the embedded distiller, both ways (kept and dropped)."""

from __future__ import annotations

import re
from datetime import date, datetime, timezone
from pathlib import Path

from daemon.conversations.exports import read_export
from daemon.distill.extractive import SKIP_REASON, ExtractiveDistiller
from daemon.distill.tagging import ExtractiveTagger
from daemon.models import Card, DistillRequest, Message, Skip
from daemon.vault import cards

WHEN = datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)  # a Monday


def say(text: str, name: str = "", role: str = "user", when: datetime | None = WHEN, blocks: tuple = ()) -> Message:
    return Message(id=f"m{abs(hash((text, name, role))) % 10**9}", role=role, name=name, text=text, time=when,
                   blocks=blocks)


def distill(messages: list[Message]) -> Card | Skip:
    return ExtractiveDistiller().distill(DistillRequest("s1", date(2023, 5, 8), tuple(messages),
                                                        timezone=timezone.utc))


def card(messages: list[Message]) -> Card:
    result = distill(messages)
    assert isinstance(result, Card), result
    return result


def text_of(result: Card) -> str:
    return f"{result.name}\n{result.description}\n{result.body}"


PEOPLE = [
    say("Hey Nate! How have you been?", "Joanna"),
    say("Hi Joanna! I adopted a puppy named Toby last week. He's a German Shepherd and loves the lake.", "Nate"),
    say("[shares an image: a photo of a dog on a beach]", "Nate"),
    say("Aww, so cute! Take lots of pics!", "Joanna"),
    say("Fully agreed!", "Nate"),
    say("My screenplay about a lighthouse keeper was rejected by Blue Harbor Films yesterday. "
        "They just sent me a generic rejection letter.", "Joanna"),
    say("I'll keep you posted if I decide to go there.", "Joanna"),
    say("We decided to go camping at Lake Tahoe this weekend because the forecast is sunny.", "Nate"),
    say("Anytime Nate!", "Joanna"),
]


# ---- what the body leaves out, and what it keeps ----------------------------------------

def test_filler_is_left_out_and_substance_kept() -> None:
    body = card(PEOPLE).body
    for filler in ("Take lots of pics", "Fully agreed", "Anytime Nate", "How have you been", "so cute",
                   "keep you posted"):
        assert filler not in body, filler
    assert "adopted a puppy named Toby" in body
    assert "camping at Lake Tahoe this weekend" in body


def test_image_markup_never_reaches_the_card() -> None:
    result = card(PEOPLE)
    assert "shares an image" not in text_of(result) and "[image" not in text_of(result)
    assert not {"image", "photo", "shares", "pic"} & set(result.name.split("-"))


def test_decisions_hold_only_decisions_with_their_reason() -> None:
    body = card(PEOPLE).body
    decisions = body.split("## Decisions", 1)[1].split("\n## ", 1)[0]
    assert "decided to go camping at Lake Tahoe this weekend" in decisions
    assert "because the forecast is sunny" in decisions
    assert "if I decide" not in body


def test_a_pronoun_statement_brings_its_referent() -> None:
    body = card(PEOPLE).body
    if "He's a German Shepherd" in body:
        assert "Toby" in body
    if "They just sent me a generic rejection letter" in body:
        assert "Blue Harbor Films" in body


def test_narration_and_answered_questions_are_left_out() -> None:
    messages = [say("How do I make pytest stop at the first failure?"),
                say("Let me check the pytest documentation for you. Use the -x flag: `pytest -x` stops at the "
                    "first failing test, and `--maxfail=2` stops after two.", role="assistant"),
                say("Here's the updated command list.", role="assistant")]
    result = card(messages)
    assert "Let me check" not in result.body and "Here's the updated" not in result.body
    assert "How do I make pytest stop" not in result.body  # the question is the description's
    assert "`pytest -x` stops at the first failing test" in result.body
    assert result.description.startswith("The user asked how to make pytest stop at the first failure")


def test_user_assistant_bullets_carry_no_role_prefix_named_speakers_do() -> None:
    chat = card([say("Our staging database runs Postgres 15 on port 5433."),
                 say("Postgres 15 supports MERGE statements natively.", role="assistant")])
    assert "- User:" not in chat.body and "- Assistant:" not in chat.body
    assert "- Our staging database runs Postgres 15 on port 5433." in chat.body
    assert "- Nate: " in card(PEOPLE).body


def test_short_commands_go_under_commands_and_procedures() -> None:
    snippet = "```bash\npython3 -m venv .venv && . .venv/bin/activate\n```"
    result = card([say("How do I make a virtual environment?"),
                   say(f"Create and activate one in the project folder:\n\n{snippet}", role="assistant")])
    procedures = result.body.split("## Commands and procedures", 1)[1]
    assert snippet in procedures


# ---- description and name ---------------------------------------------------------------

def test_description_says_what_happened_not_a_keyword_list() -> None:
    result = card(PEOPLE)
    assert not re.search(r"talked (?:on .*)?about", result.description)  # no keyword list
    assert "camping at Lake Tahoe" in result.description or "Toby" in result.description
    assert result.description.endswith("Joanna and Nate talked on Monday 8 May 2023.")
    assert "Let me" not in result.description


def test_no_date_is_stated_without_timestamps() -> None:
    undated = [say(m.text, m.name, m.role, when=None) for m in PEOPLE]
    result = card(undated)
    assert "2023" not in result.description and "May" not in result.description
    assert "Monday" not in result.description


def test_the_name_is_the_subject_never_a_speaker_alone() -> None:
    result = card(PEOPLE)
    words = result.name.split("-")
    assert 2 <= len(words) <= 5
    assert result.name not in ("nate", "joanna", "conversation-notes", "saying")
    assert not {"nate", "joanna"} >= set(words)


# ---- small talk -------------------------------------------------------------------------

def test_small_talk_gives_no_card_and_one_fact_gives_one() -> None:
    chat = [say("hi"), say("Hello! How can I help you today?", role="assistant"), say("thanks, bye")]
    assert distill(chat) == Skip(SKIP_REASON)
    with_fact = chat + [say("My flight to Lisbon leaves on 14 June at 07:40 from gate B12.")]
    assert "Lisbon" in card(with_fact).body


# ---- tags -------------------------------------------------------------------------------

def tags_of(result: Card) -> list[str]:
    return ExtractiveTagger().tag(cards.render(result, "s1", "[[session/dialog/s1.jsonl]]"), 3)


def test_tags_are_entities_never_speakers_fragments_or_the_cards_name() -> None:
    result = card(PEOPLE)
    tags = [t.casefold() for t in tags_of(result)]
    assert "nate" not in tags and "joanna" not in tags
    assert result.name not in tags and all(len(t) >= 3 for t in tags)
    assert {"toby", "lake tahoe", "blue harbor films", "german shepherd"} & set(tags), tags


def test_a_card_without_names_still_gets_topic_tags() -> None:
    result = card([say("the sourdough starter needs feeding twice a day with rye flour and water at room "
                       "temperature, and the sourdough rises best overnight in a warm kitchen")])
    assert tags_of(result)


# ---- agent sessions ---------------------------------------------------------------------

AGENT = [
    say("Fix the failing login test in the auth module."),
    say("Let me look at the test first.", role="assistant",
        blocks=({"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "tests/test_auth.py"}},)),
    say("", blocks=({"type": "tool_result", "tool_use_id": "t1", "content": "def test_login(): ..."},)),
    say("The token expiry was compared in local time instead of UTC.", role="assistant",
        blocks=({"type": "tool_use", "id": "t2", "name": "Edit",
                 "input": {"file_path": "app/auth.py", "old_string": "a", "new_string": "b"}},
                {"type": "tool_use", "id": "t3", "name": "Bash",
                 "input": {"command": "pytest -q tests/test_auth.py", "description": "Run the auth tests"}})),
    say("", blocks=({"type": "tool_result", "tool_use_id": "t3",
                     "content": "..............\n14 passed in 0.52s"},)),
    say("Next step: add a regression test for daylight-saving changes.", role="assistant"),
]


def test_agent_sessions_are_summarised_from_their_tool_calls() -> None:
    result = card(AGENT)
    work = result.body.split("## Work done", 1)[1].split("\n## ", 1)[0]
    assert "`app/auth.py`" in work and "Edited" in work
    assert "`pytest -q tests/test_auth.py` → 14 passed in 0.52s" in work
    assert "`tests/test_auth.py`" in work  # looked at
    assert "[tool" not in text_of(result) and "Let me" not in text_of(result)
    assert "compared in local time instead of UTC" in result.body
    assert "regression test for daylight-saving" in result.body
    assert result.description.startswith("Task: Fix the failing login test in the auth module.")
    assert "14 passed" in result.description


def test_export_placeholders_become_work_not_bullets() -> None:
    result = card([say("Start the server in the background."),
                   say("[tool Bash: Start Phoenix server in background]\n[tool Read: /srv/app/mix.exs]",
                       role="assistant")])
    assert "- Ran: Start Phoenix server in background" in result.body
    assert "`/srv/app/mix.exs`" in result.body
    assert "[tool" not in result.body


# ---- the budget does not depend on roles ------------------------------------------------

def test_card_size_does_not_depend_on_who_is_called_user() -> None:
    both_user = [say(m.text, m.name, "user") for m in PEOPLE * 3]
    mixed = [say(m.text, m.name, "assistant" if m.name == "Nate" else "user") for m in PEOPLE * 3]
    a, b = card(both_user), card(mixed)
    size_a, size_b = len(text_of(a)), len(text_of(b))
    assert abs(size_a - size_b) <= 0.15 * max(size_a, size_b)


def test_claude_code_calls_reach_the_card_with_their_outcome_but_not_the_record() -> None:
    from daemon.conversations.exports.claude_code import read

    def line(kind: str, uuid: str, content: object, **extra: object) -> dict:
        message = {"role": kind, "content": content, **extra}
        return {"type": kind, "uuid": uuid, "sessionId": "s-cc", "timestamp": "2026-02-10T09:00:00Z",
                "message": message}

    lines = [
        line("user", "u1", "The parser tests fail, fix them."),
        line("assistant", "a1", [{"type": "text", "text": "Let me run the tests."},
                                 {"type": "tool_use", "id": "t1", "name": "Bash",
                                  "input": {"command": "pytest -q tests/test_parser.py",
                                            "description": "Run the parser tests"}}], id="m1"),
        line("user", "u2", [{"type": "tool_result", "tool_use_id": "t1",
                             "content": "....F\n1 failed, 4 passed in 0.31s"}]),
        line("assistant", "a2", [{"type": "text", "text": "The date parser ignored time zones; it now "
                                  "converts to UTC before comparing."}], id="m2"),
    ]
    conversation = next(iter(read(lines, "s-cc.jsonl")))
    first_reply = conversation.messages[1]
    assert first_reply.record["content"] == "Let me run the tests.\n[tool Bash: Run the parser tests]"
    assert "tool_result" not in str(first_reply.record)
    result = card(list(conversation.messages))
    assert "`pytest -q tests/test_parser.py` → 1 failed, 4 passed in 0.31s" in result.body
    assert "converts to UTC before comparing" in result.body


def test_restatements_apologies_and_answered_instructions_are_left_out() -> None:
    result = card([
        say("Simulate the average distance between two uniform points."),
        say("The red dashed line is the theoretical average of 1/3. My apologies, the first run had a bug. "
            "Output: image", role="assistant"),
        say("Run it again please"),
        say("The red dashed line is still the theoretical average of 1/3. The blue line converges from "
            "below after 2,000 runs.", role="assistant"),
    ])
    assert result.body.count("theoretical average of 1/3") == 1
    for left_out in ("My apologies", "Output: image", "Run it again"):
        assert left_out not in result.body, left_out
    assert "converges from below after 2,000 runs" in result.body


def test_a_bare_label_under_a_heading_is_named_by_it() -> None:
    answer = ("### opentelemetry_api\n- **Latest Version:** 1.5.0\n\n### opentelemetry_ash\n"
              "- **Latest Version:** 0.1.3 (early development)")
    result = card([say("What are the latest versions of the OpenTelemetry packages for Elixir?"),
                   say(answer, role="assistant")])
    assert "opentelemetry_api — **Latest Version:** 1.5.0" in result.body
    assert "opentelemetry_ash — **Latest Version:** 0.1.3" in result.body


def test_iterated_code_keeps_the_latest_four_blocks() -> None:
    blocks = [f"```python\nprint({n})\n```" for n in range(6)]
    result = card([say("Print the numbers, one cell at a time.")] +
                  [say(f"Attempt {n}:\n\n{code}", role="assistant") for n, code in enumerate(blocks)])
    assert "print(0)" not in result.body and "print(1)" not in result.body
    assert all(f"print({n})" in result.body for n in range(2, 6))


def test_equally_informative_statements_tie_the_same_way_in_every_process() -> None:
    """A crash and its restart run with different hash seeds; the card must come out the same."""
    import subprocess
    import sys
    from pathlib import Path

    script = """
import json, sys, tempfile
from pathlib import Path
sys.path.insert(0, "scripts")
from gen_chatgpt_export import export
from daemon.conversations.exports import read_export
from daemon.distill.extractive import ExtractiveDistiller
from daemon.models import Conversation, DistillRequest
path = Path(tempfile.mkdtemp()) / "conversations.json"
path.write_text(json.dumps(export(150, seed=7)))
cards = []
for item in read_export(path):
    if isinstance(item, Conversation):  # four symmetric decisions: a search index and a billing service, twice
        messages = item.messages
        card = ExtractiveDistiller().distill(DistillRequest(item.session_id, messages[0].time.date(), messages))
        cards.append(getattr(card, "name", ""))
print(json.dumps(cards))
"""
    root = Path(__file__).resolve().parents[2]
    outputs = {subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True,
                              env={**__import__("os").environ, "PYTHONHASHSEED": seed}).stdout
               for seed in ("1", "2", "3", "4", "5")}
    assert len(outputs) == 1, outputs


def test_an_agents_report_of_its_changes_is_work_done_a_persons_news_is_not() -> None:
    agent = card(AGENT + [say("Added a regression test for the UTC comparison in tests/test_auth.py.",
                              role="assistant")])
    work = agent.body.split("## Work done", 1)[1].split("\n## ", 1)[0]
    assert "Added a regression test for the UTC comparison" in work
    chat = card([say("Added a second bed to the guest room for the twins, so they can visit in June.", "Ana"),
                 say("That is great news about the twins visiting in June with their new puppy.", "Ben")])
    assert "## Work done" not in chat.body and "Added a second bed" in chat.body


# ---- review 2: rules added after a held-out review ------------------------------------------

def test_idle_chat_gives_no_card_but_a_short_real_question_does() -> None:
    idle = [say("hi"), say("Hi there! How can I help you today?", role="assistant"),
            say("nothing really, just bored lol"),
            say("That's fair! Sometimes it's nice to just chat. How's your day going?", role="assistant"),
            say("its ok. kinda slow"), say("Slow days can be nice too. Anything on your mind?", role="assistant"),
            say("ok thanks, bye"), say("Bye! Have a great rest of your day!", role="assistant")]
    assert isinstance(distill(idle), Skip)
    asked = [say("why does git say detached HEAD?"),
             say("You checked out a commit instead of a branch, so new commits belong to no branch. "
                 "Run `git switch -c fix` to keep them on a new branch named fix. "
                 "Then `git switch main` takes you back.", role="assistant")]
    assert "git switch -c fix" in card(asked).body
    short = [say("What's the capital of Australia?"), say("Canberra, not Sydney.", role="assistant")]
    assert "Canberra" in text_of(card(short))  # short is not idle: a real question was answered


def test_between_people_a_commitment_is_kept_while_an_assistant_announcing_its_work_is_not() -> None:
    meeting = [say("Mockups for the offline banner are the last open item.", "Hannah"),
               say("I'll write the test plan for airplane mode and 500 queued edits.", "Tomas"),
               say("I'll do mockups for the offline banner and the pending-changes counter.", "Elena")]
    body = card(meeting).body
    assert "I'll write the test plan" in body and "I'll do mockups" in body
    chat = [say("My CSV export has duplicate rows for the same customer email."),
            say("I'll check the export function first. Sort by updated_at and drop duplicates on the email "
                "column, keeping the last row.", role="assistant")]
    body = card(chat).body
    assert "I'll check" not in body and "drop duplicates on the email column" in body


def test_a_bare_answer_needs_its_question_and_agreement_is_left_out() -> None:
    chat = [say("are you home tonight?", "Mira"), say("yes, around 8.", "Jonas"),
            say("Raj does the conflict-handling spike by Friday, and Umzug Express confirmed the van for "
                "the move on Monday the 25th.", "Mira"),
            say("Friday works.", "Raj"), say("Next Friday works.", "Raj"),
            say("Lea's birthday dinner is next Friday at 7pm at Trattoria Lupo.", "Mira")]
    text = text_of(card(chat))
    assert "Around 8" not in text and "Friday works" not in text
    assert "spike by Friday (12 May 2023)" in text and "Trattoria Lupo" in text
    # A short answer to a question that is itself kept stays beside it.
    quiz = [say("How long did the Seoul trip last, Nate?", "Joanna"), say("Nine days in Seoul.", "Nate"),
            say("I adopted a puppy named Toby last week and he loves the lake.", "Nate")]
    body = card(quiz).body
    assert "Nine days in Seoul" in body and body.count("How long did the Seoul trip last") == 1


def test_a_statement_said_again_in_full_gives_its_place_to_the_fuller_one() -> None:
    chat = [say("Leave mypy for tomorrow."),
            say("The mypy return-type error at src/invoice/parse.py:41 is still open for tomorrow.",
                role="assistant"),
            say("The mypy return-type error at src/invoice/parse.py:41 is open; leave mypy for tomorrow, "
                "since the parser fix is what blocks the release."),
            say("3 epochs of 120M tokens is 360M tokens. I need to fine-tune on 120M tokens for 3 epochs.")]
    body = card(chat).body
    assert body.count("leave mypy for tomorrow") + body.count("Leave mypy for tomorrow") == 1
    assert "360M" in body  # a number only the shorter one says keeps it


def test_people_chats_describe_each_speakers_own_news_and_you_becomes_the_other() -> None:
    chat = [say("Hey Maria, since we last spoke I went to that community meeting about the school upgrades.",
                "John"),
            say("We should fight for more money for schools. Last week I volunteered at a shelter during an "
                "event for kids, and it was great.", "Maria"),
            say("They created all the props for the films, and I love their work.", "John"),
            say("I'm grateful for your help with the fundraiser flyers, John.", "Maria")]
    description = card(chat).description
    assert description.startswith(("John went to that community meeting", "Maria volunteered",
                                   "Last week (week of 1 May 2023) Maria volunteered"))
    assert "John went to that community meeting" in description and "Maria" in description
    assert "They created" not in description and "since we last spoke" not in description.lower()
    assert description.endswith("John and Maria talked on Monday 8 May 2023.")


def test_emoji_and_topic_labels_are_not_kept() -> None:
    chat = [say("So many things to plan 😅 first: Lea's birthday dinner is next Friday at Trattoria Lupo.", "Mira"),
            say("Second topic: dark mode.", "Priya"),
            say("The contrast of the charts fails WCAG AA in dark mode, 3.1:1 where we need 4.5:1.", "Aiko")]
    text = text_of(card(chat))
    assert "😅" not in text and "Second topic" not in text
    assert "Trattoria Lupo" in text and "4.5:1" in text


def test_questions_never_decide_and_paths_keep_their_case() -> None:
    chat = [say("我们下周三去杭州的事定了吗？", "小林"), say("定了！我们就坐 G7501，早上 8:30 出发，二等座 73 元。", "阿杰")]
    body = card(chat).body
    decisions = body.split("## 决定", 1)[1].split("##", 1)[0] if "## 决定" in body else ""
    assert "定了吗" not in decisions and "G7501" in decisions
    from daemon.distill.extractive import _capitalized
    assert _capitalized("tests/test_parse.py: 14 passed") == "tests/test_parse.py: 14 passed"
    assert _capitalized("the fix works") == "The fix works"


def test_chinese_sign_offs_and_greetings_are_left_out_and_the_plan_kept() -> None:
    chat = [say("你好，我想准备12月的日语能力考试N3，现在大概是N4水平，来得及吗？"),
            say("来得及。第1–6周：每天背30个新单词，每天学2到3个语法点。第7–10周：加入阅读和听力。", role="assistant"),
            say("好主意。谢谢！"),
            say("不客气，加油！有问题随时问我。", role="assistant")]
    result = card(chat)
    text = text_of(result)
    for filler in ("好主意", "不客气", "加油", "随时问我", "你好"):
        assert filler not in text, filler
    assert "每天背30个新单词" in text and "N3" in result.description


def test_a_chinese_chat_that_opens_on_a_trip_is_named_by_the_place_when_the_place_recurs() -> None:
    chat = [say("阿杰，我们下周三去杭州的事定了吗？", "小林"),
            say("定了！G7501 上海虹桥到杭州东，早上 8:30 出发。", "阿杰"),
            say("第一天去灵隐寺，第二天去龙井村喝茶。灵隐寺要预约。", "小林"),
            say("我来预约灵隐寺。天气预报说杭州有雨，记得带伞。", "阿杰")]
    assert card(chat).name == "杭州之行"
    # A place said in passing names nothing: the chat is about what recurs.
    chat = [say("下周三去成都的事先不说了，灵隐寺的门票买了吗？", "小林"),
            say("灵隐寺门票买了，45 元，飞来峰另外要 45 元。", "阿杰"),
            say("那灵隐寺要提前预约吗？", "小林"),
            say("要，我来预约灵隐寺。", "阿杰")]
    assert "成都" not in card(chat).name


def test_a_chat_between_people_is_named_by_what_recurs_not_by_a_unit_or_a_verb() -> None:
    chat = [say("Lea's birthday dinner is next Friday at Trattoria Lupo.", "Mira"),
            say("Should we get her a ceramics course voucher for the birthday dinner?", "Jonas"),
            say("Yes, the ceramics course at Tonwerk, about 90 euros.", "Mira"),
            say("I'll book tonight, 2 nights is 46 euros with the tent.", "Mira"),
            say("I'll order the ceramics course voucher online tomorrow.", "Jonas")]
    name = card(chat).name
    assert "ceramics" in name or "birthday" in name, name
    assert not re.search(r"(?:^|-)(?:euros|book|nights|keeps|throwing|cheaper)(?:-|$)", name), name


def test_a_pronoun_sentence_stays_on_its_referents_line_and_list_labels_go() -> None:
    chat = [say("So many things to plan first: Lea's birthday dinner is next Friday at Trattoria Lupo. "
                "She booked a table for 8 people.", "Mira"),
            say("Second thing: Umzug Express confirmed the van for the move on the 25th, pickup 8am.", "Mira"),
            say("I'll order the ceramics voucher online tomorrow.", "Jonas")]
    body = card(chat).body
    line = next(line for line in body.splitlines() if "She booked" in line)
    assert "Lea's birthday dinner" in line
    assert "first:" not in body and "Second thing" not in body and "Umzug Express confirmed" in body


def test_a_help_chat_is_described_by_the_problem_the_fix_and_how_it_turned_out() -> None:
    chat = [say("My flask app keeps throwing `database is locked` since I added a background import thread."),
            say("The CLI isn't installed by default on Raspberry Pi OS Lite, so check with Python instead. "
                "**Switch the database to WAL mode.** Readers then no longer block the writer.", role="assistant"),
            say("Ran the import of the big file (43k rows) while hammering the upload page, zero errors now.")]
    description = card(chat).description
    problem = description.index("flask app keeps throwing")
    fix = description.index("Advice: switch the database to WAL mode")
    outcome = description.index("The user ran the import")
    assert problem < fix < outcome and "**" not in description
    assert "Raspberry" not in description and description.endswith("On Monday 8 May 2023.")


def test_a_dense_conversation_keeps_more_of_itself_than_a_chatty_one() -> None:
    from daemon.distill.extractive import ExtractiveDistiller as Distiller
    budget = Distiller().budget
    assert budget(2000, 1700) > 1.5 * budget(2000, 1200) > budget(2000, 1100)  # a meeting, a chat, a chattier one
    assert budget(2000, 1700) / 2000 >= 0.5 and budget(2000, 1100) / 2000 < 0.3


def test_third_person_names_the_speaker_with_their_company_and_turns_their_we_into_they() -> None:
    from daemon.distill.describe import third_person
    assert third_person("My brother and I are going to Lisbon, we fly out on the 21st.", "Dev") == \
        "Dev and their brother are going to Lisbon, they fly out on the 21st."
    assert third_person("I'm a shooting guard and our season opener is next week.", "John") == \
        "John is a shooting guard and their season opener is next week."
    assert third_person("We should fight for more money.", "Maria") == "We should fight for more money."
    assert "US trip" in third_person("I told us about the US trip.", "Dev")


def test_an_exports_own_title_names_the_card_unless_it_is_generic() -> None:
    chat = [say("My flask app keeps throwing `database is locked` since I added a background import thread."),
            say("Switch the database to WAL mode: readers then no longer block the writer.", role="assistant")]
    request = DistillRequest("s1", date(2023, 5, 8), tuple(chat), timezone=timezone.utc,
                             title="SQLite Database Locked Error")
    result = ExtractiveDistiller().distill(request)
    assert isinstance(result, Card) and result.name == "sqlite-database-locked-error"
    for generic in ("New chat", "Untitled", "", "bleep bloop"):  # generic, or never spoken of
        named = ExtractiveDistiller().distill(DistillRequest("s1", date(2023, 5, 8), tuple(chat),
                                                             timezone=timezone.utc, title=generic))
        assert isinstance(named, Card) and named.name == card(chat).name and "chat" not in named.name
    from daemon.distill.describe import name_from_title
    said = [chat[0].text, chat[1].text]
    # A long title names the card by what it says before its setting ("… in seed packet prune") or its comma.
    assert name_from_title("SQLite database locked in flask app after background import thread", "en", said) == \
        "sqlite-database-locked"
    assert name_from_title("SQLite database locked, then WAL mode makes background imports fine", "en", said) == \
        "sqlite-database-locked"
    # A long title with no such head, or a sentence (a first message used as a title), names nothing.
    assert name_from_title("my flask app keeps throwing database is locked since the import thread", "en", said) == ""
    assert name_from_title("Why is my flask sqlite database locked in the background thread?", "en", said) == ""


def test_an_assistant_message_cut_short_by_its_export_loses_only_its_broken_end() -> None:
    cut = ("To solve this puzzle, the farmer takes the chicken across the river first, because the fox does not "
           "eat grain. Next, the farmer goes back alone and takes the fox across. Then the farmer should go back "
           "to the original side of the r")
    body = card([say("How does the farmer get the fox, the chicken and the grain across the river?"),
                 say(cut, role="assistant")]).body
    assert "takes the chicken across the river first" in body and "side of the r" not in body
    whole = cut.replace("side of the r", "side of the river with the chicken.")
    assert "original side of the river" in card([say("How does the farmer cross the river with all three?"),
                                                  say(whole, role="assistant")]).body


def test_the_work_sentence_names_the_test_verdict_and_never_just_looking_around() -> None:
    from daemon.distill.tools import ToolCall, work_summary
    looking = [ToolCall("Bash", "git status --short", "run", " M a.py", False),
               ToolCall("Bash", "ls src", "run", "a.py", False)]
    assert work_summary(looking) == ""
    work = looking + [ToolCall("Edit", "src/parse.py", "edit", "", False),
                      ToolCall("Bash", "pytest -q", "run", "1 failed, 13 passed", True),
                      ToolCall("Bash", "mypy src", "run", "Found 1 error in 1 file", True),
                      ToolCall("Bash", "pytest -q", "run", "14 passed in 0.42s", False)]
    summary = work_summary(work)
    assert "14 passed" in summary and "git status" not in summary and "parse.py" in summary


def test_the_ask_is_said_as_a_request_and_a_bare_question_or_a_later_question_is_not_a_highlight() -> None:
    from daemon.distill.describe import describe
    assert describe([], request="I'm trying to organize my life, can you recommend some task apps for my work?") \
        .startswith("The user asked the assistant to recommend some task apps for their work.")
    assert describe([], request="how could i implement a minesweeper solver with topology?") \
        .startswith("The user asked how to implement a minesweeper solver with topology.")
    starter = [say("My sourdough starter stopped rising. What's wrong?"),
               say("At 18 °C a starter is slow. Switch to 1:2:2 and feed every 12 hours.", role="assistant"),
               say("Can you show me the float test again for the weekend bake?")]
    description = card(starter).description
    assert "What's wrong" not in description and "Can you show" not in description
    assert description.startswith("The user's sourdough starter stopped rising.")


def test_code_does_not_shrink_the_budget_of_the_prose_around_it_and_a_bold_lead_is_the_headline() -> None:
    from daemon.distill.extractive import _density, _Stmt, _tokens
    code = "```python\n" + "\n".join(f"x{i} = compute({i})" for i in range(20)) + "\n```"
    prose = ("My flask app keeps throwing database is locked since I added a background import thread. "
             "The import holds the write lock for the whole file, longer than the 5 s timeout.")
    with_code = card([say(prose), say("**Switch the database to WAL mode.** Readers then never block the writer. "
                                      f"Set it once at startup:\n\n{code}", role="assistant"),
                      say("Ran the big import while hammering the upload page, zero errors now.")])
    assert "WAL mode" in with_code.body and "zero errors" in with_code.body
    bold = _Stmt(0, 0, "", "**Use WAL mode.** Readers never block.", "fact", _tokens("Use WAL mode. Readers never block."))
    plain = _Stmt(0, 0, "", "Use WAL mode. Readers never block.", "fact", bold.tokens)
    weights = {t: 1.0 for t in bold.tokens}
    assert _density(bold, weights, set()) > _density(plain, weights, set())


def test_an_ask_that_names_nothing_leaves_the_name_to_what_recurs() -> None:
    chat = [say("Can you help me sort out the next few weeks?"),
            say("Sure. What is on the calendar?", role="assistant"),
            say("The dentist moved my appointment to next Tuesday at 10:30. The dentist wants the new insurance "
                "card, and the dentist appointment clashes with the library run."),
            say("Bring the insurance card to the dentist appointment on Tuesday.", role="assistant")]
    name = card(chat).name
    assert name != "conversation-notes" and ("dentist" in name or "insurance" in name), name


def test_a_formula_is_kept_in_the_body_but_is_not_a_description_highlight() -> None:
    chat = [say("Given two independent variables x, y in U(0,1), what is the average distance between them?"),
            say("E[|x-y|] = \\int_0^1 \\int_0^1 |x-y| \\, dx \\, dy. The average distance between x and y is one "
                "third, and a Monte Carlo simulation of 10,000 draws converges to 0.333.", role="assistant")]
    result = card(chat)
    assert "\\int" in result.body and "\\int" not in result.description
    assert "Monte Carlo simulation of 10,000 draws" in result.description


def test_news_told_without_its_i_is_the_speakers_own_and_heads_the_description() -> None:
    chat = [
        say("Hey Jon! Good to see you. What's up? Anything new?", "Gina"),
        say("Hey Gina! Lost my job as a banker yesterday, so I'm gonna take a shot at starting my own "
            "business.", "Jon"),
        say("Sorry about your job Jon, but starting your own business sounds awesome! Unfortunately, I also lost "
            "my job at Door Dash this month.", "Gina"),
        say("I've been into dancing since I was a kid and it's been my passion and escape, so a dance studio it "
            "is, something like a place by the water with natural light and good floors for everybody.", "Jon"),
        say("Contemporary dance is so expressive and graceful, it speaks to me in a way that few other styles "
            "ever have, and I could watch it for hours on end without getting bored at all.", "Gina"),
    ]
    result = card(chat)
    assert "Lost my job as a banker" in result.body
    assert result.description.startswith("Jon lost their job as a banker")  # the speaker named, the verb kept
    # Both ways: a sentence opening on "Indeed" or on a reaction is not news told without its "I".
    from daemon.distill.lexicon import _DROPPED_I
    assert _DROPPED_I.match("Got a new puppy last week") and _DROPPED_I.match("Finally booked the flights")
    assert not _DROPPED_I.match("Indeed the weather was nice") and not _DROPPED_I.match("Sounds great to me")


def test_a_short_sentence_and_the_pronoun_sentence_after_it_are_one_statement() -> None:
    chat = [
        say("How is the new place?", "Maria"),
        say("I adopted a dog named Toby. He's a German Shepherd, four years old, from the shelter in Reno.", "Nate"),
        say("That's lovely, I'm happy for you both and I hope the two of you have a great time.", "Maria"),
    ]
    body = card(chat).body
    assert "- Nate: I adopted a dog named Toby. He's a German Shepherd" in body  # one bullet, referent inside
    # A pronoun sentence after a long one (over 40 characters) stays a statement of its own.
    long_first = [say("I adopted a dog named Toby from the big shelter on the far side of Reno in March. "
                      "He's a German Shepherd, four years old.", "Nate"),
                  say("That's lovely, I'm happy for you both.", "Maria")]
    from daemon.distill import extractive as x
    turns = x._turns(DistillRequest("s", date(2023, 5, 8), tuple(long_first)), "en")
    texts = [s.text for s in x._candidates(turns, x._names(["Nate", "Maria"]))]
    assert texts[:2] == ["I adopted a dog named Toby from the big shelter on the far side of Reno in March.",
                         "He's a German Shepherd, four years old."]


def test_an_ask_said_as_a_statement_and_the_verdict_lead_the_description_over_the_arithmetic() -> None:
    chat = [
        say("I got a quote for a heat pump and I'm trying to figure out if the buffer tank is worth it. "
            "The quote is €11,200 for the pump and €1,900 for the tank."),
        say("Heating 150 m² near Graz needs about 12,000 kWh a year. "
            "Without tank: 12,000 kWh ÷ 3.4 = 3,530 kWh × €0.30 = €1,059/year. "
            "With tank: 12,000 kWh ÷ 3.6 = 3,333 kWh × €0.30 = €1,000/year. "
            "The tank saves about €59/year, so **32 years** to pay back the €1,900.", role="assistant"),
        say("Basically: heat pump yes, buffer tank no unless the installer insists."),
    ]
    result = card(chat)
    assert result.description.startswith("The user got a quote for a heat pump and")
    assert "Basically: heat pump yes, buffer tank no" in result.description.split(". ", 2)[1]
    # Both ways: a plain statement is no ask, and the working steps weigh less than the result.
    from daemon.distill.extractive import _is_request
    from daemon.distill.lexicon import _RESULT, _WORKING
    assert _is_request("I'm trying to figure out if the battery is worth it.")
    assert not _is_request("I got a quote for a heat pump last week.")
    assert _WORKING.search("Without tank: 12,000 kWh ÷ 3.4 = 3,530 kWh") and not _WORKING.search("It costs €1,900.")
    assert _RESULT.match("Total ≈ €1,741/year → payback 12.1 years")


def test_chit_chat_about_the_weather_gives_no_card_but_something_to_remember_does() -> None:
    chat = [say("good morning!!"), say("Good morning! How are you today?", role="assistant"),
            say("sleepy lol. it's raining again"),
            say("Rainy mornings make it hard to wake up. A warm drink might help!", role="assistant"),
            say("yeah I have my coffee already"), say("Nice, enjoy it!", role="assistant"),
            say("haha thanks. do you like rain?"),
            say("I don't experience weather myself, but lots of people find the sound of rain relaxing.",
                role="assistant"),
            say("nah all good, just saying hi. have a nice day"), say("You too!", role="assistant")]
    assert isinstance(distill(chat), Skip)
    lazy = [say("morning! it's saturday finally"), say("Good morning, and happy Saturday! Any nice plans?", role="assistant"),
            say("slow start for sure. the cat is asleep on my legs so I literally can't get up lol"),
            say("That's the best excuse there is.", role="assistant"), say("ok just wanted to say hi, bye!"),
            say("Bye! Have a great weekend!", role="assistant")]
    assert isinstance(distill(lazy), Skip)  # a weekday is no name, a longer line about the cat is still chat
    frosty = [say("hiya! happy friday"), say("Happy Friday! How's your day been?", role="assistant"),
              say("long but fine. it's been bright and absolutely freezing here, proper blue sky, had to scrape frost "
                  "off the car this morning"),
              say("Bright and freezing is the best kind of cold. Warming up now?", role="assistant"),
              say("yeah, radiator + hoodie. thanks for the chat! have a good one"),
              say("Thanks, you too!", role="assistant")]
    assert isinstance(distill(frosty), Skip)  # the weather at length is still the weather
    frosty[4] = say("yeah. the boiler engineer comes on thursday to look at the radiator that won't heat up")
    assert "boiler engineer" in text_of(card(frosty))
    for remembered in ("I'm allergic to peanuts, remember that", "I prefer tea over coffee in the mornings",
                       "I decided to quit my job", "my sister is getting married in june"):
        said = [say("hi"), say("Hi! How are you?", role="assistant"), say(remembered),
                say("Noted, thanks for telling me!", role="assistant")]
        assert remembered.casefold() in card(said).body.casefold(), remembered
    # A real question in a chatty chat still gives a card.
    asked = chat[:6] + [say("what's a good dark roast for a moka pot?"),
                        say("Try Lavazza Crema e Gusto; grind it fine, but not espresso-fine.", role="assistant")]
    assert "Lavazza" in text_of(card(asked))


def test_between_friends_maxims_encouragement_and_photo_showing_are_left_out() -> None:
    chat = [
        say("I wrapped up my second script last night, it's about a lighthouse keeper in Maine.", "Joanna"),
        say("All that hard work and dedication will shine through, no doubt. I believe in your power to make a "
            "positive difference.", "Nate"),
        say("Pets bring tons of joy. I adopted two turtles from a shop in Tampa. Check out this moment I snapped!",
            "Nate"),
        say("Check out this photo of the ring my grandmother left me in Lisbon.", "Joanna"),
        say("We played board games and hung out together all weekend.", "Nate"),
    ]
    body = card(chat).body
    for gone in ("shine through", "believe in your power", "Pets bring tons of joy", "moment I snapped"):
        assert gone not in body, gone
    for kept in ("second script", "two turtles from a shop in Tampa", "ring my grandmother left me",
                 "played board games"):  # news, a photo that says something, and a past event with feeling words
        assert kept in body, kept
    from daemon.distill.extractive import _sentiment
    assert _sentiment("We should cherish every moment with them.")
    assert not _sentiment("I loved the hike to Multnomah Falls with my sister.")  # a name: news, not a maxim


def test_a_catch_up_full_of_news_has_room_for_each_piece_and_laughter_is_trimmed() -> None:
    news = [("I quit Brightline after six years.", "Dev"), ("Wow, no way! Why?", "Priya"),
            ("The commute was killing me haha", "Dev"), ("I got an offer from Helios Energy.", "Dev"),
            ("Amazing!!! So happy for you, that's so so great!!", "Priya"),
            ("We adopted a beagle puppy called Biscuit.", "Priya"), ("Omg cute!! Love that for you!", "Dev"),
            ("I signed up for a pottery class on Thursdays.", "Priya"), ("Nice nice, sounds fun!", "Dev"),
            ("My brother and I booked a week in Lisbon.", "Dev"), ("Ahh jealous, it will be amazing!", "Priya"),
            ("I finished reading Piranesi last night lol", "Priya"), ("Haha of course you did", "Dev"),
            ("Arjun got promoted to team lead.", "Priya"), ("Tell him congrats from me!!", "Dev")]
    chat = [say(text, who) for text, who in news] * 1 + [say("Anyway so good to catch up, talk soon!!", "Dev"),
                                                         say("Same, bye!!", "Priya")]
    body = card(chat).body
    for kept in ("Brightline", "Helios Energy", "Biscuit", "pottery", "Lisbon", "Piranesi", "team lead"):
        assert kept in body, kept
    assert "haha" not in body and " lol" not in body  # trailing laughter goes with the filler
    from daemon.distill.extractive import ExtractiveDistiller
    from daemon.distill.extractive import _NEWS_CHARS
    assert ExtractiveDistiller().budget(2000, 1100, news=9) == 9 * _NEWS_CHARS > ExtractiveDistiller().budget(2000, 1100)


def test_a_referent_comes_from_the_question_or_the_speakers_own_message_before_and_a_photo_keeps_its_caption() -> None:
    chat = [
        say("Did you hear about Jonah by the way?", "Marisol"),
        say("The wedding? Yes! He called me last week. He asked me to be his best man.", "Kwame"),
        say("Also I got a new roommate.", "Kwame"),
        say("Meet Mango.\n[shares an image: a photo of an orange tabby cat lying on a grey sofa]", "Kwame"),
        say("OMG. A CAT. You always said you were a dog person!", "Marisol"),
        say("I know I know. He's two years old, from Harbor Cat Rescue on Elm Street.", "Kwame"),
    ]
    body = card(chat).body
    assert "- Kwame: Marisol asked “Did you hear about Jonah by the way?” — He called me last week" in body
    assert "Meet Mango (an orange tabby cat lying on a grey sofa). He's two years old" in body  # one bullet
    # A caption beside many words is not kept: the words say it themselves.
    long_text = [say("I finally framed the print from the market in Porto and hung it over the desk.\n"
                     "[shares an image: a photo of a framed print on a wall]", "Kwame"),
                 say("It looks great there, well done on finally doing it!", "Marisol")]
    assert "framed print on a wall" not in card(long_text).body


def test_news_that_happened_and_names_something_heads_a_people_chats_description() -> None:
    chat = [say("I will ask my new boss about Friday haha", "Marisol"),
            say("I got the job at Greenfield Animal Hospital! Start in April.", "Marisol"),
            say("I adopted a cat from Harbor Cat Rescue two weeks ago.", "Kwame"),
            say("I'll cook something when you visit.", "Kwame")]
    description = card(chat).description
    assert "Marisol got the job at Greenfield Animal Hospital" in description
    assert "Kwame adopted a cat from Harbor Cat Rescue" in description
    assert "ask their new boss" not in description and "will cook" not in description  # promises come after


def test_chinese_laughter_and_noted_acks_are_left_out() -> None:
    chat = [say("我报名了4月26日的金鸡湖10公里跑，想在65分钟以内跑完。"),
            say("每周跑三次：周二间歇跑，周四轻松跑5公里，周六长距离6公里。", role="assistant"),
            say("哈哈好，这样更好。我把计划记下来了。")]
    body = card(chat).body
    assert "周二间歇跑" in body and "哈哈" not in body and "记下来" not in body and "这样更好" not in body


def test_meeting_decisions_let_s_decide_proposals_and_answers_under_their_questions() -> None:
    chat = [say("Let's decide: from December 5th the distribution moves to the Ridgeway gym, because the hall "
                "has no heating.", "Grace"),
            say("I'd switch to appointment slots of 15 minutes for the queue at the Ridgeway gym.", "Noor"),
            say("Can you set up Textline and test it with 10 households by next Wednesday?", "Grace"),
            say("By the 17th.", "Noor"),
            say("The Hartley Foundation grant gives us £3,000 for 200 holiday boxes.", "Grace")]
    body = card(chat).body
    decisions = body.split("## Decisions\n", 1)[1].split("\n\n", 1)[0]
    assert "distribution moves to the Ridgeway gym" in decisions  # "Let's decide:" decides
    assert "switch to appointment slots" not in decisions  # "I'd switch" proposes
    assert "by next Wednesday (17 May 2023)?\n- Noor: By the 17th" in body  # the answer under its question


def test_a_help_chat_keeps_what_the_user_was_convinced_of_and_the_next_steps_list() -> None:
    chat = [say("I'm trying to decide how to commute from next spring: the train pass is €63 a month, an e-bike "
                "costs about €3,200."),
            say("The pass costs **€756/year**. The e-bike costs about **€836/year** with depreciation, service "
                "and insurance. Cheapest is the pass, but the e-bike saves 59 hours a year.", role="assistant"),
            say("ok that convinces me. lease the e-bike, ride March to November, pass in winter"),
            say("Good plan. Next steps:\n1. ask HR which leasing provider they use;\n2. test-ride two models on a "
                "hilly 14 km route;\n3. check the battery is 500 Wh or more.", role="assistant"),
            say("I'll ask HR on Monday.")]
    result = card(chat)
    assert "The user decided to lease the e-bike" in result.description
    assert "## Decisions\n- Lease the e-bike, ride March to November, pass in winter" in result.body
    steps = result.body.split("## Current state and next steps\n", 1)[1]
    assert "HR" in steps and "battery" in steps
    # Both ways: "ok that convinces me" decides only the sentence right after it.
    plain = card(chat[:2] + [say("ok. lease the e-bike, ride March to November, pass in winter")])
    assert "## Decisions" not in plain.body


def test_the_answer_to_the_ask_is_kept_and_described_and_a_retried_code_cell_is_not() -> None:
    failed = "```python\nintegral = integrate(Abs(x - y), (x, 0, 1))\nintegral\n```\nOutput: 0"
    worked = "```python\nintegral = integrate(x - y, (x, y, 1)) * 2\nintegral\n```\nOutput: 1/3"
    chat = [say("given two random independent variables x,y in U(0,1), what is the average distance between them?"),
            say("To find the average distance between two independent variables \\( x \\) and \\( y \\) drawn from "
                "\\( U(0,1) \\), take the expectation of \\( |x-y| \\).", role="assistant"),
            say(failed, role="assistant"),
            say("My apologies; it looks like there was an error in the calculation. Let me correct that.",
                role="assistant"),
            say(worked, role="assistant"),
            say("The average distance between \\( x \\) and \\( y \\) when both are drawn from \\( U(0,1) \\) is "
                "\\( \\frac{1}{3} \\).", role="assistant"),
            say("can you plot the mean for 0.5 and 0.25 too?"),
            say("Here's the plot: the mean converges to 1/3 for both, from below.", role="assistant")]
    result = card(chat)
    assert "is \\( \\frac{1}{3} \\)" in result.body  # the body keeps what was said
    assert "drawn from U(0,1) is 1/3." in result.description  # the description says it in plain text
    assert "(x, y, 1)) * 2" in result.body and "Abs(x - y)" not in result.body  # the cell that was taken back goes
    assert "can you plot the mean" not in result.body  # a later question to the assistant is in its answer


def test_a_heading_names_the_code_after_it_labels_are_facts_and_source_links_go() -> None:
    answer = ("## OpenTelemetry package versions\n\n### 1. **opentelemetry_api**\n"
              "- **Latest Version:** 1.5.0 (released October 17, 2025)\n- **Recommended Constraint:** `~> 1.5`\n\n"
              "### Example mix.exs dependencies block\n\n```elixir\ndefp deps do\n  [{:opentelemetry_api, \"~> 1.5\"}]\n"
              "end\n```\n\n### Sources:\n- [opentelemetry_api on Hex.pm](https://hex.pm/packages/opentelemetry_api)")
    result = card([say("Search hex.pm for the latest opentelemetry_api version for mix.exs"),
                   say(answer, role="assistant")])
    assert "- Example mix.exs dependencies block:\n\n```elixir" in result.body  # the heading, not the line above
    assert "## Current state" not in result.body  # "released October 17" in a labelled line is a fact
    assert "opentelemetry_api — **Latest Version:** 1.5.0" in result.body
    assert "Hex.pm](https://" not in result.body  # a list of sources is the record's


def test_an_agent_told_only_to_continue_is_named_by_its_work_and_a_command_keeps_its_case() -> None:
    def tool(name: str, **args: str) -> dict:
        return {"type": "tool_use", "id": f"t{abs(hash(name + str(args))) % 10**6}", "name": name, "input": args}

    work = [say("continue implementation"),
            say("Added the Spotter.Telemetry tracing module for the spotter-4te epic. Tracing spans now wrap "
                "every hook controller, and tracing headers carry the trace ID.", role="assistant",
                blocks=(tool("Edit", file_path="lib/spotter/telemetry.ex", old_string="a", new_string="b"),))]
    name = card(work).name
    assert "continue" not in name and "implementation" not in name and "trac" in name
    started = card([say("mix phx.server doesnt seem to start"),
                    say("Port 4000 was taken by an old beam process; I stopped it and the server starts.",
                        role="assistant", blocks=(tool("Bash", command="mix phx.server"),))])
    assert started.description.startswith("Task: mix phx.server doesn't seem to start")  # (its apostrophe put back)


def test_wondering_if_the_assistant_could_is_an_ask_and_an_answers_opening_cheer_is_left_out() -> None:
    result = card([say("I'm trying to stay on top of my fitness goals and was wondering if you could recommend "
                       "some workouts that can help me increase my step count."),
                   say("Making the leap to a daily step goal! Brisk 20-minute walks after lunch add about 2,500 "
                       "steps, and taking the stairs adds another 500.", role="assistant")])
    assert result.description.startswith("The user is trying to stay on top of their fitness goals and was "
                                          "wondering if the assistant could recommend some workouts")
    assert "Making the leap" not in result.body and "Brisk 20-minute walks" in result.body


def test_a_word_that_recurs_is_named_with_the_phrase_that_holds_it() -> None:
    from collections import Counter
    from daemon.distill import describe
    texts = ["I won my first video game tournament last week!", "A tournament? Which video game tournament?",
             "The tournament was Street Fighter, and I watched movies after the tournament.",
             "Congrats on the tournament! Movies are my thing too."]
    assert describe.name([], texts, frozenset({"nate", "joanna"}), Counter(fact=3), "en") == "video-game-tournament"
    # Both ways: a past tense ends a phrase ("the flat wrote back" names the flat, not "flat wrote").
    from daemon.distill.phrases import topics
    assert "flat wrote" not in " ".join(topics(["The Lindenstraße flat wrote back", "the Lindenstraße flat"],
                                               frozenset(), k=4)).lower()


def test_a_help_chat_opened_on_a_problem_is_described_by_the_problem_the_fix_inline_and_the_outcome() -> None:
    chat = [say("my monthly sales report in pandas is wrong. April shows 9,140.20 but the till says 18,236.50."),
            say("`pd.to_datetime` without a format reads `03/04/2026` as March 4, but your till means 3 April. "
                "The fix is to give pandas the exact format:\n\n```python\n"
                "df[\"date\"] = pd.to_datetime(df[\"date\"], format=\"%d/%m/%Y\")\n```", role="assistant"),
            say("April is now 18,236.50, matches the till exactly."),
            say("Good. Keep the format strict for every export from now on.", role="assistant")]
    description = card(chat).description
    assert description.startswith("The user's monthly sales report in pandas is wrong. The fix is to give pandas the "
                                  "exact format: `df[\"date\"] = pd.to_datetime(df[\"date\"], format=\"%d/%m/%Y\")`.")
    assert "April is now 18,236.50, matches the till exactly." in description
    # Both ways: a statement of the user's that is no problem ("my report has three tabs") is no ask.
    from daemon.distill.extractive import _is_request
    assert _is_request("my monthly sales report in pandas is wrong.")
    assert not _is_request("my monthly sales report has three tabs.")


def test_a_plans_chat_is_described_by_its_dated_plans_before_promises() -> None:
    chat = [say("The landlord of the Lindenstraße flat wrote back! Viewing is tomorrow at 17:30, Lindenstraße 14.",
                "Sofia"),
            say("The anniversary dinner is next Tuesday, 7pm at my parents' place.", "Malik"),
            say("I'll bake the pistachio cake then, your dad loved it last time.", "Sofia"),
            say("I'll book the canoe and the campsite tonight.", "Malik")]
    description = card(chat).description
    assert description.startswith("Viewing is tomorrow (9 May 2023) at 17:30")
    assert "next Tuesday (16 May 2023)" in description and "will bake" not in description


def test_a_reaction_to_what_was_said_is_left_out_but_still_counts_as_talk() -> None:
    from daemon.distill.extractive import _reaction
    assert _reaction("That's a busy few weeks.", frozenset())
    assert not _reaction("That's the 14th, the day of the Rome flight.", frozenset())  # a name: news
    assert not _reaction("How do I book it?", frozenset())  # a question
    chat = [say("My sister Lena flies in from Lisbon on the 29th and stays 5 nights."),
            say("That's a busy few weeks. Pick her up at 14:50 at Terminal 1.", role="assistant")]
    body = card(chat).body
    assert "busy few weeks" not in body and "Terminal 1" in body


def test_the_assistants_instruction_is_advice_not_a_decision() -> None:
    chat = [say("My sourdough starter stopped rising. It's on the kitchen counter, about 18 °C."),
            say("Switch to 1:2:2 (50 g starter, 100 g flour, 100 g water) and feed every 12 hours. Move it "
                "somewhere around 24 °C, like the oven with only the light on.", role="assistant"),
            say("ok. we decided to use the oven light and 1:2:2 twice a day.")]
    result = card(chat)
    assert "Advice: switch to 1:2:2" in result.description and "The assistant decided" not in result.description
    decisions = result.body.split("## Decisions\n", 1)[1].split("\n\n", 1)[0]
    assert "Switch to 1:2:2" not in decisions and "We decided to use the oven light" in decisions


def test_an_ask_names_the_card_by_what_it_names_first_on_a_tie() -> None:
    from collections import Counter
    from daemon.distill import describe
    ask = "Tell me about the facts behind the belief that dog saliva is anti bacterial etc"
    assert describe.name([ask], [ask], frozenset(), Counter(fact=3), "en") == "dog-saliva"


def test_who_and_when_at_the_end_of_a_description_are_not_tagged() -> None:
    text = ("---\nname: canoe-trip\ndescription: The canoe trip on the Altmühl is booked. Sofia and Malik talked on "
            "Thursday 9 July 2026.\n---\n## Key facts\n- The canoe from Kanu Kuhn costs 48 euros per day.\n")
    tags = [t.casefold() for t in ExtractiveTagger().tag(text, 5)]
    assert "sofia" not in tags and "malik" not in tags and "thursday" not in tags
    assert {"altmühl", "kanu kuhn"} & set(tags), tags


def test_an_error_the_user_is_getting_is_the_ask() -> None:
    from daemon.distill.extractive import _is_request
    assert _is_request("I get a borrow checker error in my parser") and _is_request("cargo build fails with E0502")
    assert not _is_request("I see the problem now") and not _is_request("my build is fine")
    result = card([say("I get a borrow checker error in my parser when I push to the tokens vector."),
                   say("You hold `first` (a shared borrow of `tokens`) while pushing. Clone the value first: "
                       "`let first = tokens[0].clone();`", role="assistant"),
                   say("that fixed it, compiles now")])
    assert result.description.startswith("The user gets a borrow checker error in their parser")
    assert "that fixed it" in result.description.lower() or "compiles now" in result.description


def test_asides_and_sign_offs_between_people_are_left_out() -> None:
    chat = [say("Lunch break. Café Amsel called back: the back room for Lea's party on the 19th, up to 25 people.",
                "Hana"),
            say("Classic. I'll do the guest list tonight and send the invites.", "Jonas"),
            say("This weekend my parents are coming, they arrive Saturday around 11.", "Hana"),
            say("Gotta go, meeting. See you tonight!", "Hana")]
    body = card(chat).body
    for gone in ("Lunch break", "Classic", "Gotta go", "See you tonight"):
        assert gone not in body, gone
    assert "Café Amsel" in body and "guest list" in body and "my parents are coming" in body
    asked = card([say("When do your parents arrive from Leipzig?", "Jonas"), say("Saturday around 11.", "Hana")])
    assert "Saturday around 11" in asked.body  # a few words that answer a question stay (beside it)


def test_news_under_way_and_a_schedule_count_as_news_and_a_present_habit_decides_nothing() -> None:
    from daemon.distill.extractive import _classify, _news, _Stmt, _trim
    for text in ("I'm adopting a dog!", "We're moving in together in December!", "I start as head chef on the 1st."):
        assert _news(_Stmt(0, 0, "Elif", text, "fact", frozenset())), text
    assert not _news(_Stmt(0, 0, "Elif", "I'm feeling tired today.", "fact", frozenset()))
    assert _trim("Guess who finally has a driving licence", frozenset()) == "I finally have a driving licence"
    # "We write X instead of Y" says how things are; "We'll use X instead of Y" decides.
    assert _classify("We write the save in place instead of writing a temp file.", None) == "fact"
    assert _classify("We'll use Postgres instead of Redis.", None) == "decision"
    assert _classify("I don't want to fix netcode and the save bug at once.", None) != "procedure"
    assert _classify("To fix the build, run make clean.", None) == "procedure"
    # A photo's caption joins only words that name what it shows.
    from daemon.distill.extractive import _speech
    assert _speech("Don't laugh\n[shares an image: a photo of a lopsided blue bowl]") == "Don't laugh"
    assert "(a grey greyhound" in _speech("Meet Biscuit.\n[shares an image: a photo of a grey greyhound]")


def test_a_build_that_fails_is_the_ask_the_named_fix_is_advice_and_an_emoji_ends_a_sentence() -> None:
    chat = [say("I'm writing a small Rust CLI called `shelf`. `cargo build` fails and I don't get why."),
            say("The borrow checker is right here. The usual fix is to look up an **index** instead of a "
                "reference, so the push is allowed.", role="assistant"),
            say("ok it compiles now 🎉 cargo build is clean, and new game titles get added too. thanks!")]
    result = card(chat)
    assert "`cargo build` fails and the user doesn't get why." in result.description
    assert "The usual fix is to look up an index instead of a reference" in result.description
    assert "It compiles now: cargo build is clean" in result.body and "now cargo build" not in result.body
    from daemon.distill.lexicon import _OUTCOME
    assert _OUTCOME.search("it compiles now") and _OUTCOME.search("the build is clean")
    assert not _OUTCOME.search("it compiles slowly")


def test_a_short_question_without_a_name_frames_only_a_short_answer() -> None:
    meeting = [say("Start with QA?", "Ayesha"),
               say("The big one is bug #412: save files get corrupted when you quit during the autosave, 3 of 40 "
                   "runs this week.", "Henrik"),
               say("Did you hear about Jonah?", "Marisol"),
               say("The wedding? Yes! He asked me to be his best man in September.", "Kwame")]
    body = card(meeting).body
    assert "Start with QA" not in body and "bug #412" in body
    assert "Did you hear about Jonah?" in body and "best man" in body  # a name frames the answer's "he"


def test_the_users_our_and_we_ll_go_with_are_said_in_the_third_person() -> None:
    chat = [say("Our gas boiler is 24 years old and we need to replace it. Which one is cheapest over time: a new "
                "gas boiler or an air-source heat pump?"),
            say("Over 20 years the air-source heat pump costs about €45,740 against €54,920 for gas.", role="assistant"),
            say("We'll go with the air-source heat pump.")]
    description = card(chat).description
    assert description.startswith("The user's gas boiler is 24 years old and they need to replace it.")
    assert "The user decided to go with the air-source heat pump." in description


def test_a_new_problem_brought_to_an_agent_later_is_in_the_description_a_plan_for_tomorrow_is_not() -> None:
    def tool(name: str, **args: str) -> dict:
        return {"type": "tool_use", "id": f"t{abs(hash(name + str(args))) % 10**6}", "name": name, "input": args}

    session = [say("start phoenix in background"),
               say("Phoenix server is starting in the background.", role="assistant",
                   blocks=(tool("Bash", command="mix phx.server"),)),
               say("scrolling back in xterm.js still does not work (maybe because outer web catches it)?"),
               say("The page captures the wheel events before xterm.js sees them.", role="assistant",
                   blocks=(tool("Read", file_path="assets/js/app.js"),))]
    assert "Then: scrolling back in xterm.js still does not work" in card(session).description
    later = session[:2] + [say("ok leave the logs for tomorrow, I'll check them then.")]
    assert "Then:" not in card(later).description


def test_a_test_runs_status_words_and_domains_are_never_tags() -> None:
    from daemon.distill.tagging import _fragment
    assert _fragment("FAIL github.com") and _fragment("Tests") and _fragment("github.com")
    assert not _fragment("Grafana") and not _fragment("Steam Deck")


def test_review5_rules_a_table_a_choice_a_question_in_small_words_and_a_dated_promise() -> None:
    from daemon.distill.extractive import _classify, _is_small_talk, _sentences
    table = ("| | Paperwhite | Clara BW |\n|---|---|---|\n| Price | $159.99 | $139.99 |\n"
             "| Weight | 211 g | 174 g |\n")
    assert _sentences(table) == ["Price: Paperwhite $159.99, Clara BW $139.99.", "Weight: Paperwhite 211 g, Clara BW 174 g."]
    assert not _is_small_talk("Which one makes the most sense?") and _is_small_talk("How are you?")
    assert _classify("I'm getting the Kobo Libra Colour, skipping the stylus.", None) == "decision"
    meeting = [say("Jakub, can you draft the announcement email to members?", "Amara"),
               say("Yes, I'll send it by Friday, the 12th.", "Jakub"),
               say("Theo, the booking system?", "Amara"),
               say("I'll update both by May 15th, so it's live well before June.", "Theo")]
    body = card(meeting).body
    assert "Friday, the 12th (12 May 2023)" in body and "May 15th (2023)" in body  # short, but dated promises


def test_review5_rules_people_news_sign_offs_and_private_names() -> None:
    chat = [say("Speaking of Sam... we got engaged. In Lisbon, two weeks ago.", "Felix"),
            say("My sister Hanna had her baby! A little girl, Mila, born on May 2nd, 3.4 kg.", "Felix"),
            say("The repair shop on Lindenstraße opens on the 1st of June.", "Felix"),
            say("See you on the 5th! Love to Sam and baby Mila", "Nadia")]
    result = card(chat)
    assert "Speaking of Sam... we got engaged." in result.body  # one short sentence of news, with its referent
    assert "born on May 2nd (2023)" in result.body  # born: the most recent May 2nd
    assert "Love to Sam" not in result.body
    tags = [t.casefold() for t in tags_of(result)]
    assert "hanna" not in tags and "lisbon" in tags  # "my sister Hanna" is who the news is about, not a topic
    assert _is_small_talk_zh("你好林悦！") and not _is_small_talk_zh("你好！我叫林悦，在北京学车。")


def _is_small_talk_zh(text: str) -> bool:
    from daemon.distill.extractive import _is_small_talk
    return _is_small_talk(text)


def test_a_name_never_starts_on_a_number_or_a_word_that_names_nothing() -> None:
    from collections import Counter
    from daemon.distill import describe
    texts = ["The cottage is free from the 16th, the 16th works.", "Time flies, no time at all, the 16th then.",
             "The Keswick cottage has a wood stove.", "The Keswick cottage is £240."]
    name = describe.name([], texts, frozenset(), Counter(fact=3), "en")
    assert not name[:1].isdigit() and not name.startswith("time") and "keswick" in name
    from daemon.distill.extractive import _classify
    assert _classify("I'll take the afternoon off.", None) != "decision"  # a plan, not a choice


def test_a_one_word_feeling_is_no_news_and_this_weekday_with_its_day_is_resolved() -> None:
    from daemon.distill.extractive import _news, _Stmt
    for text in ("I'm coming, obviously.", "I'm starving"):
        assert not _news(_Stmt(0, 0, "Malik", text, "fact", frozenset())), text
    assert _news(_Stmt(0, 0, "Felix", "We got engaged.", "fact", frozenset()))
    from daemon.distill.reltime import resolve_relative
    assert resolve_relative("Cast comes off this Thursday, the 11th.", date(2023, 5, 8)) == \
        "Cast comes off this Thursday, the 11th (2023-05-11)."


def test_a_catch_up_is_named_by_its_news_not_the_chatter_and_no_name_ends_on_a_verb() -> None:
    chat = [say("Last time I saw you, you had that giant cast! How's the giant cast?", "Nadia"),
            say("The cast comes off on Thursday, finally.", "Felix"),
            say("I'm opening a bike repair shop called Spoke & Chain, the bike repair shop opens on the 5th.", "Felix"),
            say("A bike repair shop! I got the charge nurse job at St. Mary's.", "Nadia"),
            say("Haha the giant cast was the worst.", "Felix")]
    assert card(chat).name == "bike-repair-shop"
    from collections import Counter
    from daemon.distill import describe
    texts = ["crumbling infrastructure affected the town", "crumbling infrastructure affected the school"]
    assert describe.name([], texts, frozenset(), Counter(fact=2), "en") == "crumbling-infrastructure"


# ---- round six: answers that finish a piece of news, dated news, lists, meetings, help chats ----------------

def test_a_few_words_after_news_join_its_bullet_and_a_follow_up_answer_joins_the_news_it_asks_about() -> None:
    chat = [say("Guess what, I got the job at Greenfield Animal Hospital! Veterinary nurse!", "Marisol"),
            say("NO WAY. Congrats!!", "Kwame"),
            say("I just signed with a new team, excited for the season!", "Kwame"),
            say("Which team did you sign with?", "Marisol"),
            say("The Minnesota Wolves! I can't wait to play with them.", "Kwame")]
    body = card(chat).body
    assert "I got the job at Greenfield Animal Hospital! Veterinary nurse!" in body
    assert re.search(r"I signed with a new team[^\n]*The Minnesota Wolves!", body)
    # A question that asks for more news, not about the news before it: the answer stands on its own.
    chat = [say("I adopted a greyhound called Biscuit last week.", "Elif"),
            say("Anything else going on with you?", "Ronan"),
            say("Pottery class at the community studio in Leith.", "Elif")]
    body = card(chat).body
    assert not re.search(r"Biscuit[^\n]*Pottery class", body)


def test_a_date_said_again_joins_nothing_and_an_echoed_date_question_is_no_bullet() -> None:
    chat = [say("I paid the £80 deposit, the other £160 is due by next Monday.", "Sofia"),
            say("The 15th?", "Mateo"),
            say("The 15th. I'll pay it on Monday, don't let me forget.", "Sofia"),
            say("You should come meet him. Next Saturday?", "Kwame"),
            say("Next Saturday as in the 20th? Yes! I'll bring empanadas.", "Marisol")]
    body = card(chat).body
    assert "due by next Monday (15 May 2023)" in body
    assert not re.search(r"next Monday \(15 May 2023\)[^\n]*The 15th", body)
    assert "Kwame: Next Saturday" not in body  # the answer says the date again


def test_an_aim_and_a_finally_had_are_news_and_news_answering_how_are_you_needs_no_question() -> None:
    from daemon.distill.extractive import _bare_answer, _news, _Stmt
    for text in ("I'm hoping to get into local politics.", "My goal is to run a marathon.", "I finally have a licence"):
        assert _news(_Stmt(0, 1, "John", text, "fact", frozenset())), text
    for text in ("I'm hoping to see you soon.", "I'm working from home that day anyway."):
        assert not _news(_Stmt(0, 1, "John", text, "fact", frozenset())), text
    stmt = _Stmt(1, 1, "Elif", "I finally have a driving licence", "fact", frozenset({"finally", "driving", "licence"}),
                 reply=True)
    assert not _bare_answer(stmt, [_Stmt(0, 0, "Ronan", "How are you?", "fact", frozenset()), stmt])
    stmt = _Stmt(1, 1, "Elif", "Friday works.", "fact", frozenset({"friday", "works"}), reply=True)
    assert _bare_answer(stmt, [_Stmt(0, 0, "Ronan", "When?", "fact", frozenset()), stmt])
    from daemon.distill.extractive import _is_question
    assert _is_question("You passed?!") and not _is_question("You passed!")


def test_we_brings_the_person_the_question_named_unless_the_speaker_just_named_them() -> None:
    chat = [say("Anything else new? How's Kasia?", "Elif"),
            say("She's great. Actually, we're moving in together in December! A flat in Portobello.", "Ronan")]
    assert "How's Kasia?" in card(chat).body
    chat = [say("Rosa and I finally booked Iceland for June!", "Marisol"),
            say("Your sister Rosa? The trip you talked about for years?", "Kwame"),
            say("We rented a campervan and we're doing the south coast and the glacier lagoon.", "Marisol")]
    assert "Your sister Rosa" not in card(chat).body


def test_a_description_says_whose_note_follows_the_others() -> None:
    from daemon.distill.describe import Point, describe
    points = [Point("Ronan", "We signed the lease on Friday (9 October 2026).", "fact"),
              Point("Elif", "The whole family is going to Izmir for a big party.", "fact")]
    text = describe(points, people=["Elif", "Ronan"], day=date(2026, 10, 12))
    assert "Elif: The whole family is going to Izmir" in text
    text = describe(points[1:], people=["Elif", "Ronan"], day=date(2026, 10, 12))
    assert text.startswith("The whole family is going to Izmir")  # first, it names nobody else's


def test_weather_chat_with_its_dates_grounded_gives_no_card() -> None:
    chat = [say("hiya"), say("Hi there! How's your day going?", role="assistant"),
            say("pretty good! it finally snowed here this morning"),
            say("Oh lovely! Is it the first snow of the season where you are?", role="assistant"),
            say("anyway, just wanted to say thanks for yesterday, you were a big help"),
            say("You're very welcome! Stay warm and enjoy the snow!", role="assistant")]
    assert isinstance(distill(chat), Skip)
    chat[4] = say("anyway, my flight to Oslo is tomorrow at 7")
    assert isinstance(distill(chat), Card)


def test_a_help_chat_is_described_by_its_problem_and_how_it_turned_out() -> None:
    chat = [say("My Node API can't reach Postgres when I run everything with docker compose. "
                "It works fine when I run the API on my laptop with `npm run dev`. What's wrong?"),
            say("**1. The API starts before Postgres is ready.** `depends_on` only waits for the container. "
                "Inside a container, localhost is the container itself.", role="assistant"),
            say("also maybe unrelated but compose printed this once: `bind: address already in use`"),
            say("Port 5432 is taken on your host: publish Postgres on 5433.", role="assistant"),
            say("that did it. ran `docker compose up` from scratch and GET /health returns 200. thanks!!")]
    result = card(chat)
    assert result.description.startswith("The user's Node API can't reach Postgres")
    assert "That did it: ran `docker compose up` from scratch and GET /health returns 200" in result.description
    body = result.body
    assert "maybe unrelated" not in body.lower() and "Compose printed this once: `bind: address already in use`" in body
    assert "**" not in body.replace("**1.", "")  # a bold lead split by the sentence end leaves no stray marker
    procedures = body.split("## Commands and procedures", 1)[-1] if "## Commands" in body else ""
    assert "It works fine when I run the API" not in procedures  # what happened, not how to


def test_a_list_item_finishes_its_lead_in_and_a_decision_for_your_gp_decides_nothing() -> None:
    from daemon.distill.extractive import _classify, _sentences
    prose = ("**See a doctor promptly if:**\n- the knee becomes hot, red or very swollen;\n- you can't put weight "
             "on it.\n\n**What's usually tried first:**\n- **Paracetamol:** 1 g up to 4 times a day.\n- Rest.")
    said = _sentences(prose)
    assert "See a doctor promptly if the knee becomes hot, red or very swollen." in said
    assert "See a doctor promptly if you can't put weight on it." in said
    assert not any(s.startswith("What's usually tried first Paracetamol") for s in said)  # a capital: its own
    assert _classify("An occasional short course is OK, but that's a decision for your pharmacist.", None) != "decision"
    assert _classify("We decided to skip ibuprofen.", None) == "decision"


def test_a_thing_with_its_day_is_news_between_people_a_date_said_again_or_todays_agenda_is_not() -> None:
    from daemon.distill.extractive import _news, _Stmt
    for text in ("The defence is on Friday 11 December (2026).", "Contract signed on Thursday (12 November 2026)."):
        assert _news(_Stmt(0, 1, "Priya", text, "fact", frozenset())), text
    for text in ("The 22nd (22 May 2026), not this week (week of 11 May 2026).",
                 "Two things today (12 June 2024): the release and dark mode.", "Is it on 11 December (2026)?"):
        assert not _news(_Stmt(0, 1, "Priya", text, "fact", frozenset())), text


def test_picked_him_up_is_news_not_a_decision() -> None:
    from daemon.distill.extractive import _classify, _news, _Stmt
    text = "Picked him up from Greyhound Rescue Hamburg last Saturday."
    assert _classify(text, None) != "decision" and _news(_Stmt(0, 1, "Jonas", text, "fact", frozenset()))
    assert _classify("We picked the red one.", None) == "decision"


def test_deal_and_trust_me_are_talk() -> None:
    chat = [say("Can you bring the camping stove on Saturday?", "Kwame"),
            say("Deal. My cast comes off on Thursday and fixing bikes with one hand is slow, trust me.", "Felix")]
    body = card(chat).body
    assert "Deal" not in body and "trust me" not in body
    assert "My cast comes off on Thursday (11 May 2023) and fixing bikes with one hand is slow." in body


def test_a_meeting_is_named_by_its_one_agenda_item_and_agreed_colon_is_a_decision() -> None:
    chat = [say("Really one item tonight: the Eastgate Community Choir winter concert.", "Ruth"),
            say("St. Columba's Church has Saturday 19 December free, hall hire is £450.", "Lars"),
            say("I'd propose £12 full price, £8 concessions, under-16s free.", "Kofi"),
            say("Agreed: £12, £8 concessions, under-16s free.", "Ruth"),
            say("I'll set it up on Ticket Tailor and open sales on 1 December.", "Kofi")]
    result = card(chat)
    assert "choir" in result.name and "concert" in result.name
    assert "Agreed: £12, £8 concessions, under-16s free." in result.body.split("## Decisions", 1)[1].split("##")[0]
    chat[0] = say("Two things today: the v2.3 release and the winter concert.", "Ruth")
    assert "release" not in card(chat).name  # two items: what came of the talk names it
    # After the hellos too; a long item is named in the description up to where it goes ("on the front wall…").
    hellos = [say("Right, evening everyone, let's make a start.", "Ruth"), say("hi all", "Lars"), say("evening!", "Kofi"),
              say("One main item tonight: Lars's proposal for a Yamaha piano for the stage at the hall on Vicarage Road.",
                  "Ruth")]
    result = card(hellos + chat[1:])
    assert result.name == "yamaha-piano", result.name
    assert "talked about Lars's proposal for a Yamaha piano for the stage on " in result.description, result.description


def test_an_option_named_by_a_letter_is_kept_and_we_are_becomes_the_user_is() -> None:
    chat = [say("We're remortgaging. £240,000 left to pay and our current deal ends in February. The broker gave us "
                "A) a 2-year fix at 4.19% and B) a 5-year fix at 4.39%. Which one is actually cheapest?"),
            say("B is cheaper over 2 years: **£31,657** against **£32,009** for A.", role="assistant"),
            say("OK, we'll go with B, the 5-year fix at 4.39%, and overpay £200 a month. I'll tell the broker.")]
    result = card(chat)
    assert result.description.startswith("The user is remortgaging. £240,000 left to pay")
    assert "go with B, the 5-year fix at 4.39%" in result.body.split("## Decisions", 1)[1]
    from daemon.distill.describe import third_person
    assert third_person("I first watched it in 2019.", "Joanna") == "Joanna first watched it in 2019."


def test_a_name_holds_no_third_person_verb() -> None:
    from collections import Counter
    from daemon.distill import describe
    texts = ["splitting a bill between 3 people gives shares of 33.33", "the bill gives shares that lose a cent"]
    assert "gives" not in describe.name(texts, texts, frozenset(), Counter(fact=2), "en")
    # Nor a past verb, after a person's name or on its own ("Lou refused" is something someone did).
    said = ["Lou refused the tea.", "Lou refused it again, classic Lou.", "Lou is lovely, Lou says hi.",
            "The canal froze near Heyford.", "Lou refused to come."]
    assert "refused" not in describe.name([], said, frozenset({"noor"}), Counter(fact=3), "en")
    # Nor a deed ("visited home", "worked hard"), nor half a contraction ("office haven't" was office-haven-t).
    deeds = ["I visited home last week.", "We visited home again.", "I worked hard on the garden.",
             "Worked hard all summer.", "The garden looks great now.", "The garden party is on Sunday."]
    assert describe.name([], deeds, frozenset(), Counter(fact=3), "en") == "garden-party"
    from daemon.distill.phrases import phrase_counts
    counts = phrase_counts(["The office haven't called.", "My office haven't replied, the office manager is away."],
                           frozenset())[0]
    assert not any("haven" in key for key in counts) and counts["office manager"] == 1
    # Nor in what a decision says ("Agreed: …, leaving Kielder 10:30" names no "leaving-kielder").
    agreed = ["Agreed: Sunday 13th, 4pm from Rafa's, leaving Kielder 10:30, Dev drives"]
    assert not describe.name(agreed, agreed + ["Kielder car park by 5", "the Kielder car park is dark"],
                             frozenset({"rafa", "dev"}), Counter(decision=1), "en").startswith(("leaving", "agreed"))
    # A past participle before its noun is a subject: "canned food" stays.
    assert describe.name([], ["We collected canned food.", "More canned food came in.", "Canned food drive done."],
                         frozenset(), Counter(fact=3), "en") == "canned-food"


def test_a_description_gives_a_subjectless_plan_its_speaker_and_leaves_news_about_it_for_the_body() -> None:
    from daemon.distill.describe import Point, _as_note, highlights
    assert _as_note(Point("Tim", "Been discussing a Harry Potter fan project.", "state"), "en", True) == \
        "Tim has been discussing a Harry Potter fan project."
    assert _as_note(Point("Jon", "Gonna check out career options!", "state"), "en", True) == \
        "Jon is going to check out career options!"
    points = [Point("Joanna", "I first watched it around 3 years ago (2019).", "fact"),
              Point("Joanna", "I adopted a cat named Miso last week.", "fact")]
    assert highlights(points, 1, people=True)[0].text.startswith("I adopted a cat")


def test_a_meeting_is_described_by_its_agenda_and_a_proposal_comes_with_its_yes() -> None:
    chat = [say("Really one item tonight: the Eastgate Community Choir winter concert.", "Ruth"),
            say("I'd propose £12 full price, £8 concessions, under-16s free.", "Kofi"),
            say("Agreed: £12, £8 concessions, under-16s free.", "Ruth")]
    assert "talked about the Eastgate Community Choir winter concert on Monday 8 May 2023." in card(chat).description
    chat = [say("I got the postdoc in Edinburgh! I start in January.", "Priya"),
            say("I want to see you before you leave. Can I come up to Kiel after your defence?", "Jonas"),
            say("Yes please! Come the day after, Saturday the 12th. We'll celebrate.", "Priya")]
    body = card(chat).body
    assert "Can I come up to Kiel after your defence?" in body and "Come the day after" in body
    chat[1] = say("Can I bring my guitar to the party?", "Jonas")
    assert "Can I bring my guitar" not in card(chat).body  # the answer does not take it up


def test_people_and_pets_the_talk_is_about_are_not_tags() -> None:
    from daemon.distill.tagging import ExtractiveTagger
    text = ("---\nname: move\ndescription: Hana moves on Saturday.\n---\n## Key facts\n- Mateo: I'll ask Gemma tomorrow "
            "for the Friday off at Harbor Logistics.\n- Ines: Jonas owns that code in Harbor Logistics.\n"
            "- Priya: Obviously you bring Biscuit to Kiel.\n- 林悦：王师傅说科目二在海淀考场。\n")
    tags = {t.casefold() for t in ExtractiveTagger().tag(text, 6)}
    assert not tags & {"gemma", "jonas", "biscuit", "王师傅"}, tags
    assert "harbor logistics" in {t.replace("_", " ") for t in tags}


def test_a_short_list_under_its_heading_is_one_line() -> None:
    from daemon.distill.extractive import _sentences
    said = _sentences("**Dough**\n- 325 g bread flour\n- 35 g caster sugar\n- 40 g butter, softened\n\n"
                      "**Method**\n1. Mix flour, sugar and yeast. Knead for 10 minutes.\n2. Rise for an hour.")
    assert "Dough: 325 g bread flour; 35 g caster sugar; 40 g butter, softened." in said
    assert "Mix flour, sugar and yeast." in said  # steps that are sentences stay sentences
    said = _sentences("### opentelemetry_api\n- **Latest Version:** 1.5.0\n- **Constraint:** `~> 1.5`")
    assert any("Latest Version" in s and "Constraint" not in s for s in said)  # labelled facts stay apart


def test_small_things_a_reader_trips_on() -> None:
    from daemon.distill.describe import third_person
    from daemon.distill.extractive import _classify, _sentences
    from daemon.distill.tagging import _fragment
    assert third_person("I'm 58 and take lisinopril 10 mg.", "The user") == "The user is 58 and takes lisinopril 10 mg."
    assert _fragment("日到期") and not _fragment("水电燃气")  # what is left of "12月15日到期" names nothing
    assert _sentences("**要带的：**\n- 身份证\n- 房产证复印件")[0] == "要带的：身份证、房产证复印件。"  # one colon
    said = _sentences("**关于押金：**\n- 合同12月15日到期，建议书面通知房东。\n- 交房时对照照片。")
    assert said == ["合同12月15日到期，建议书面通知房东。", "交房时对照照片。"]  # sentences stay sentences
    assert _classify("建议现在就用微信书面通知房东不续租。", None) != "decision"  # advice, not a decision
    assert _classify("那就选搬家公司。", None) == "decision"


def test_news_told_of_him_brings_what_he_is_and_a_gig_keeps_its_band_and_place() -> None:
    chat = [say("I have a new flatmate.", "Jonas"), say("Who??", "Priya"),
            say("Rescue greyhound, 4 years old. Picked him up from Greyhound Rescue Hamburg last Saturday.", "Jonas"),
            say("How's Kiel treating you?", "Jonas"),
            say("Also the band finally has a real gig. The Paper Lanterns at Molotow, next Friday. "
                "We're opening for a band from Copenhagen.", "Jonas")]
    body = card(chat).body
    assert re.search(r"Rescue greyhound, 4 years old\.[^\n]*Picked him up", body)
    assert re.search(r"The band finally has a real gig\.[^\n]*The Paper Lanterns at Molotow", body)
    assert "treating you" not in body
    from daemon.distill.tagging import _fragment
    assert _fragment("i.e") and _fragment("e.g.")


def test_an_answer_that_says_the_questions_words_again_is_kept_and_a_day_said_again_is_not() -> None:
    chat = [say("The farmer needs to transport a fox, a chicken and some grain across a river using a boat. "
                "How does he do it?"),
            say("First, the farmer should take the chicken across the river using the boat.", role="assistant")]
    assert "The farmer should take the chicken across the river" in card(chat).body  # not "restated" by the ask
    chat = [say("我下周三搬家，从望京搬到五道口，有一架钢琴。大概要花多少钱？"),
            say("下周三是5月13日。搬家公司大概800到1200元，钢琴另加300元。", role="assistant")]
    body = card(chat).body
    assert "钢琴另加300元" in body and "下周三（2023-05-10）是" not in body


def test_an_agents_small_edit_shows_the_lines_it_changed() -> None:
    from daemon.distill.tools import ToolCall, _changes, work_lines
    edit = {"file_path": "/src/shelfie/api/books.py",
            "old_string": "    offset = page * per_page\n    rows = db.execute(q)",
            "new_string": "    if page < 1:\n        return error(400)\n    offset = (page - 1) * per_page\n    rows = db.execute(q)"}
    assert _changes(edit) == (("offset = page * per_page", "offset = (page - 1) * per_page"),)
    lines = work_lines([ToolCall("Edit", edit["file_path"], "edit", changes=_changes(edit))])
    assert "- In `books.py`: `offset = page * per_page` → `offset = (page - 1) * per_page`" in lines
    big = {"old_string": "x = 1", "new_string": "y = " + "2" * 200}  # too long to read as a line: left out
    assert _changes(big) == () and _changes({"old_string": "a", "new_string": "a\nb"}) == ()  # only added


def test_an_edit_undone_by_git_checkout_is_marked_reverted_and_is_no_change() -> None:
    from daemon.distill.tools import ToolCall, work_lines, work_summary
    calls = [ToolCall("Edit", "/code/rota/src/rota/availability.py", "edit", changes=(("day < r.end", "day <= r.end"),)),
             ToolCall("Bash", "pytest -q", "run", "1 failed, 46 passed"),
             ToolCall("Bash", "git checkout -- src/rota/availability.py", "run", ""),
             ToolCall("Edit", "/code/rota/src/rota/forms.py", "edit", changes=(("DateRange(start, end)",
                                                                                 "DateRange(start, end + 1)"),)),
             ToolCall("Bash", "pytest -q", "run", "47 passed")]
    lines = work_lines(calls)
    assert "- Edited: `/code/rota/src/rota/forms.py`" in lines, lines
    assert "- In `availability.py` (reverted): `day < r.end` → `day <= r.end`" in lines
    assert "- In `forms.py`: `DateRange(start, end)` → `DateRange(start, end + 1)`" in lines
    assert work_summary(calls).startswith("Edited `forms.py`;")
    # Edited again after the checkout, the file is changed after all.
    again = calls + [ToolCall("Edit", "/code/rota/src/rota/availability.py", "edit")]
    assert "availability.py" in next(line for line in work_lines(again) if line.startswith("- Edited:"))


def test_a_help_chat_about_a_machine_keeps_causes_as_facts_and_its_update_as_the_outcome() -> None:
    chat = [say("help my washing machine wont drain. it stopped mid cycle with E18 on the display, what do i do"),
            say("E18 is a drain fault. The usual causes:\n\n1. **Blocked pump filter** (coins, hair grips, fluff).\n"
                "2. **Kinked or blocked drain hose** behind the machine, often after it's been pushed back.\n\n"
                "Start with the filter behind the flap at the bottom right.", role="assistant"),
            say("filter's out. a 20p coin and a bra underwire"),
            say("That underwire is likely the culprit. Refit the filter and run Rinse & Spin.", role="assistant"),
            say("update: it worked!! rinse and spin drained fine, no E18.")]
    result = card(chat)
    assert "The user asked for help: their washing machine won't drain." in result.description, result.description
    assert "It worked: rinse and spin drained fine, no E18." in result.description
    assert "## Decisions" not in result.body and "Kinked or blocked drain hose" not in _section(result.body,
                                                                                              "Current state and next steps")
    from daemon.distill.extractive import _classify
    assert _classify("We pushed back the launch to March.", None) == "decision"  # a date moved is still decided
    assert _classify("I'm blocked on the API key.", None) == "state"


def test_a_final_tally_decides_and_a_second_verb_after_a_long_clause_is_third_person() -> None:
    chat = [say("I'm moving to Porto next August for work and want to get to B1 Portuguese. Class £295 or tutor?"),
            say("A mix makes sense: the class gives structure, a tutor gives speaking.", role="assistant"),
            say("and if i did the £30 local tutor instead of italki?"),
            say("14 × £30 = £420, so £715 in total.", role="assistant"),
            say("nah italki it is. so final: college class £295 + italki every other week £252 = £547.")]
    result = card(chat)
    assert "Final: college class £295 + italki every other week £252 = £547." in result.description, result.description
    from daemon.distill.extractive import _is_filler, _trim
    assert _is_filler("Take your time.", frozenset()) and _is_filler("No rush!", frozenset())
    assert _is_filler("Night, Pickle is sitting on my laptop again", frozenset(), True)
    assert _is_filler("Bargain for edinburgh tbh", frozenset(), True) and _is_filler("We need to celebrate.", frozenset())
    assert not _is_filler("Night! see you at the station at 9:47 on Sunday 6th with the tickets and the railcard",
                          frozenset(), True)
    assert _trim("Sent the £52, we're square", frozenset()) == "Sent the £52"
    assert _trim("Won't deploy till the login's in obvs", frozenset()) == "Won't deploy till the login's in"
    assert _trim("Thanks everyone, see you saturday at 8 for the swim, it's going to be 11 degrees brrr",
                 frozenset()).endswith("see you saturday at 8 for the swim")
    assert _is_filler("Fair enough, I'll stop banging on about £25", frozenset(), True)
    assert _trim("So it's £156 each, me and Marcus.", frozenset({"marcus"})) == "It's £156 each."
    assert "Decided: Final" not in result.description and "Nah" not in text_of(result)
    assert result.description.startswith("The user is moving to Porto next August for work and wants to get to B1")
    from daemon.distill.extractive import _classify
    assert _classify("Final answer: 42, as computed.", None) == "decision"
    assert _classify("The final is on Sunday.", None) != "decision"


def test_a_help_chat_opened_with_a_mood_and_a_label_is_framed_by_what_it_is_about() -> None:
    chat = [say("ok postgres question, this is driving me mad. doing the monthly report for the climbing wall. we have "
                "212 active members but the query only returns 168 rows. i thought LEFT JOIN keeps everyone??"),
            say("The `WHERE` clause on `bookings` turns the LEFT JOIN back into an inner join. Move the date conditions "
                "into `ON`.", role="assistant"),
            say("I already tried FULL OUTER JOIN and still get 168 so idk what's going on"),
            say("FULL OUTER JOIN keeps the filter in `WHERE` too. Move it into `ON`.", role="assistant"),
            say("omg yes. 212 rows, 44 people on 0 sessions. which actually matches the door system so 👍")]
    result = card(chat)
    assert result.description.startswith("Doing the monthly report for the climbing wall."), result.description
    text = text_of(result)
    assert "driving" not in text and "idk" not in text and "Postgres question." not in text
    assert "212 rows, 44 people on 0 sessions, which matches the door system." in text
    from daemon.distill.extractive import _sentences
    assert _sentences("looks cosy. which dates?") == ["looks cosy.", "which dates?"]  # a question stays one


def test_the_first_outcome_a_user_reports_is_kept_and_an_update_label_leads_into_it() -> None:
    advice = ("Ask for a deferral, not an excusal. Reply online within 7 days. Give the wedding and honeymoon dates "
              "and attach the flight booking. Tell your head teacher once it is confirmed. Keep the acceptance email. "
              "Ask the school whether they keep paying you while you serve. ") * 3
    chat = [say("got a jury summons for 4 january 2027 but we're getting married on the 2nd and the honeymoon is "
                "japan 6th-20th jan. what do i do??", when=datetime(2026, 11, 10, 18, 0, tzinfo=timezone.utc)),
            say(advice, role="assistant", when=datetime(2026, 11, 10, 18, 1, tzinfo=timezone.utc)),
            say("update!! they accepted the deferral 🎉 new start date is monday 8 march 2027. anything else?",
                when=datetime(2026, 11, 19, 8, 0, tzinfo=timezone.utc)),
            say("No, treat 8 March as fixed.", role="assistant", when=datetime(2026, 11, 19, 8, 1, tzinfo=timezone.utc)),
            say("amazing thank you!! now back to seating plans", when=datetime(2026, 11, 19, 8, 2, tzinfo=timezone.utc))]
    result = card(chat)
    assert "They accepted the deferral." in result.description, result.description
    text = text_of(result)
    assert "seating plans" not in text and "8 March (2027)" in text
    assert "married on the 2nd (2 January 2027)" in text or "married on the 2nd (2027-01-02)" in text, text


def test_code_the_user_said_did_not_work_leaves_the_card_and_the_later_fix_stays() -> None:
    first = "```csharp\nfor (int i = 0; i < enemies.Count; i++) { enemies.RemoveAt(i); }\n```"
    fix = "```csharp\nfor (int i = enemies.Count - 1; i >= 0; i--) { enemies.RemoveAt(i); }\n```"
    chat = [say("unity question. removing enemies in foreach throws InvalidOperationException"),
            say("Use an index loop instead:\n\n" + first, role="assistant"),
            say("ok the exception is gone but some enemies take no damage now. so that didnt really work"),
            say("Walk the list backwards:\n\n" + fix, role="assistant"),
            say("going with the backwards loop tbh. tested it: all 6 died and gold went up by 90 which is right")]
    result = card(chat)
    assert "enemies.Count - 1" in result.body and "i < enemies.Count" not in result.body
    assert "tbh" not in text_of(result) and "gold went up by 90" in text_of(result)
    # Without the user saying so, both blocks stay.
    kept = card(chat[:2] + [say("ok the exception is gone, thanks")] + chat[3:])
    assert "i < enemies.Count" in kept.body


def test_people_saying_good_night_over_a_joke_give_no_card() -> None:
    chat = [say("hiii Oskar, you still up?", "Lena"), say("barely, long day", "Oskar"),
            say("why don't skeletons fight each other? they don't have the guts", "Lena"),
            say("that's terrible. I love it", "Oskar"), say("I have a thousand more where that came from", "Lena"),
            say("please save them for tomorrow lol. thanks though, needed that", "Oskar"), say("good night Lena", "Oskar")]
    assert isinstance(distill(chat), Skip)
    chat.insert(4, say("I'm an auntie!! Eilidh had a wee girl last Tuesday.", "Lena"))
    assert isinstance(distill(chat), Card)


def test_a_choice_after_the_numbers_is_the_cards_decision_and_says_who() -> None:
    chat = [say("Trying to decide between two used cars. A) Yaris Hybrid £11,500, 68 mpg. B) Golf 1.5 TSI £10,200, "
                "48 mpg. Which is cheaper to run?"),
            say("The Yaris is about **£506 a year cheaper** to run and pays back its higher price in 2.6 years.",
                role="assistant"),
            say("ok that settles it. going for the Yaris. I'm going to offer £11,000 cash and test drive it on Saturday.")]
    result = card(chat)
    assert "Going for the Yaris." in result.body.split("## Decisions", 1)[1]
    assert "The user is going for the Yaris." in result.description
    assert "£11,000 cash" in result.body
    assert result.description.startswith("The user is trying to decide between two used cars.")


def test_requests_wishes_and_obligations_are_not_kept_as_facts_or_decisions() -> None:
    from daemon.distill.extractive import _classify
    chat = [say("Shelfie: /api/books skips the first page. Can you find out why and fix it"),
            say("`offset = page * per_page` treats pages as 0-based, so page 1 starts at row 20.", role="assistant"),
            say("Good catch on the mobile thing, I'll tell Yusuf.")]
    body = card(chat).body
    assert "Can you find out why" not in body and "Good catch" not in body and "I'll tell Yusuf." in body
    assert _classify("The mobile client must switch to page=1 before Tuesday's release.", None) != "decision"
    assert _classify("We switched to Postgres last year.", None) == "decision"
    chat = [say("我们明年5月2日结婚，想订湖畔花园，18桌大概多少钱？"),
            say("我来帮你算一下。18桌 × 5888元 = 105,984元，加10%服务费共116,582.4元。祝你们试菜顺利，新婚快乐！",
                role="assistant")]
    body = card(chat).body
    assert "116,582.4" in body and "新婚快乐" not in body and "我来帮你算一下" not in body


def test_a_last_day_is_no_past_tense() -> None:
    from daemon.distill.reltime import resolve_relative
    assert resolve_relative("Last day at Lighthouse is the 18th of December.", date(2026, 11, 29)) == \
        "Last day at Lighthouse is the 18th of December (2026)."
    assert resolve_relative("Last week we met on the 18th of November.", date(2026, 11, 29)) == \
        "Last week (week of 2026-11-16) we met on the 18th of November (2026)."


def test_short_answers_to_follow_ups_build_up_the_news_they_ask_about() -> None:
    chat = [say("I handed in my notice. I got into the MSc I applied for", "Tariq"), say("Which one?", "Freya"),
            say("Urban planning", "Tariq"), say("Where??", "Freya"),
            say("Strathclyde. It's part-time over two years", "Tariq"), say("When do you start?", "Freya"),
            say("11 January. Last day at the bookshop is the 18th of December", "Tariq")]
    body = card(chat).body
    assert re.search(r"I got into the MSc I applied for\. Urban planning\. Strathclyde\. 11 January \(2024\)\.", body)
    assert "Tariq: I'm an auntie" not in body
    chat = [say("Well... I'm an auntie!!", "Freya"), say("WHAT. Eilidh had the baby?", "Tariq")]
    assert "Freya: I'm an auntie!!" in card(chat).body


def test_a_dotted_name_is_one_word_of_a_name() -> None:
    from daemon.distill.phrases import phrase_counts, ranked
    assert ranked(phrase_counts(["mix phx.server doesnt seem to start. It ends."], frozenset()), 1) == ["mix phx.server"]


def test_a_message_cut_by_its_export_keeps_what_was_said_up_to_the_cut() -> None:
    user = ("I'm trying to stay on top of my fitness goals and was wondering if you could recommend some workouts "
            "that can help me increase my step count. By the way, I've been tracking my progress with my new Fit")
    helper = ("Congratulations on taking the first step towards a healthier lifestyle! Walking more is the easiest "
              "win: take the stairs, walk during calls and park further away from the door. Firstly, kudos on inves")
    body = card([say(user[:200]), say(helper[:199], role="assistant")]).body
    result = card([say(user[:200]), say(helper[:199], role="assistant")])
    assert "with my new Fit…" in body and "kudos on inves" not in body  # (the word begun says more than none)
    assert "Fit" not in ExtractiveTagger().tag(cards.render(result, "s1", "[[x]]"), 3)  # (but names no tag)
    typed = "It works fine locally but on the raspberry pi it dies maybe every 20 min, files are like 40k rows and " \
            "I have no idea where to start looking, any pointers on what could make it die like that"
    body = card([say(typed), say("Check the logs with journalctl first.", role="assistant")]).body
    assert "every 20 min" in body  # a user who types without end marks was not cut


def test_news_with_a_liking_in_it_is_news_not_a_preference() -> None:
    chat = [say("What business are you thinking of?", "Gina"),
            say("I'm starting a dance studio 'cause I'm passionate about dancing. I love all dances, but contemporary "
                "is my top pick.", "Jon")]
    body = card(chat).body
    preferences = body.split("## Preferences", 1)[1].split("\n## ", 1)[0]
    assert "contemporary is my top pick" in preferences and "dance studio" not in preferences


def test_a_help_chat_is_described_by_the_fix_not_an_optional_extra_and_its_outcome_comes_after_an_answer() -> None:
    chat = [say("My nightly backup script stopped doing anything useful. Cron runs it at 02:30 and there's no error "
                "in the mail, but only ONE project gets backed up. Why?"),
            say("**Optional: make failures loud.** Add an ERR trap near the top.\n\nFix: use an assignment, which "
                "always succeeds: `count=$((count + 1))`", role="assistant"),
            say("Made both changes, ran it by hand: backed up 14 projects, 0 errors.")]
    description = card(chat).description
    assert "Fix: use an assignment" in description and "Optional" not in description
    assert "backed up 14 projects, 0 errors" in description and "no error in the mail" not in description


def test_a_chat_description_takes_a_dated_promise_over_a_remark_that_leans_on_what_was_said() -> None:
    from daemon.distill.describe import Point, _as_note, highlights
    points = [Point("Joel", "I'm working from home that day anyway. Tuesday (24 November 2026) 8–12", "fact", "user"),
              Point("Joel", "I'll pick up the van the day after tomorrow (20 November 2026) from the Enterprise.",
                    "state", "user"),
              Point("Hana", "I got the keys today (18 November 2026), the flat on Marlowe Road is mine", "fact", "user")]
    assert [p.who for p in highlights(points, 2, people=True)] == ["Hana", "Joel"]
    assert highlights(points, 2, people=True)[1].text.startswith("I'll pick up the van")
    assert _as_note(Point("Mateo", "I'll send you my half tonight.", "state"), "en", True, "Sofia") == \
        "Mateo will send Sofia their half tonight."


def test_an_error_the_user_pasted_is_named_by_its_first_line_not_kept_as_a_procedure() -> None:
    chat = [say("`cargo build` fails and I don't get why:\n\n```\nerror[E0499]: cannot borrow `self.games` as mutable "
                "more than once at a time\n  --> src/library.rs:27:13\n```"),
            say("Rust refuses a second mutable borrow of `self.games`. Look up an index instead:\n\n```rust\n"
                "let i = self.games.iter().position(|g| g.title == title);\n```", role="assistant")]
    body = card(chat).body
    assert "`cargo build` fails and I don't get why: `` error[E0499]: cannot borrow `self.games` as mutable more than " \
           "once at a time ``" in body
    assert "src/library.rs:27:13" not in body and "let i = self.games.iter()" in body


def test_a_yes_between_people_keeps_the_question_it_answers() -> None:
    chat = [say("Nadiaaa! How's Bristol?", "Ollie"), say("Good, busy, cold. You?", "Nadia"),
            say("So... did you get the flat??", "Ollie"), say("Yes! Moving on the 14th.", "Nadia"),
            say("Did you do the Cardiff Half in the end?", "Nadia"), say("I did! Look at this beauty", "Ollie"),
            say("What was your time?", "Nadia"), say("1:52:40", "Ollie")]
    body = card(chat).body
    assert "Nadia: Ollie asked “Did you get the flat?” — Yes! Moving on the 14th (14 May 2023)." in body
    assert re.search(r"Ollie: Nadia asked “Did you do the Cardiff Half in the end\?” — I did![^\n]*1:52:40", body)
    chat = [say("hey, are you home tonight?", "Mira"), say("yes, around 8. what's up", "Jonas"),
            say("Lea's birthday dinner is next Friday, 7pm at Trattoria Lupo.", "Mira")]
    assert "are you home tonight" not in card(chat).body.lower()  # asking after the other: no news


def test_letters_and_wishes_in_an_answer_are_left_out_and_named_people_are_not_tags() -> None:
    chat = [say("My landlord wants to keep £450 of my £1,200 deposit. What should I do?"),
            say("Reply in writing and give a clear deadline, e.g. 14 days.\n\nDear Mr Hargreaves,\n\nI cleaned the "
                "property thoroughly before the tenancy ended.\n\nKind regards\n\nI hope it gets sorted quickly!",
                role="assistant")]
    body = card(chat).body
    assert "Dear Mr" not in body and "Kind regards" not in body and "I hope it gets sorted" not in body
    assert "give a clear deadline" in body
    from daemon.distill.tagging import ExtractiveTagger
    text = ("---\nname: x\ndescription: y\n---\n## Key facts\n- Mr Hargreaves keeps £450 of the DPS deposit.\n"
            "- I'll forward that to Ruth. Ruth is rewriting export.py.\n- How's Pickle?\n")
    tags = {t.casefold() for t in ExtractiveTagger().tag(text, 6)}
    assert not tags & {"hargreaves", "ruth", "pickle"}, tags


def test_a_trip_is_named_by_where_not_by_who_and_a_day_answer_leads() -> None:
    chat = [say("Help me plan a long weekend for me and my partner Jonas: London to Lisbon and Porto in February. "
                "Budget is £1,200 for the two of us."),
            say("Fly easyJet Gatwick 06:50 to Lisbon, take the 10:09 Alfa Pendular from Lisbon to Porto, fly home "
                "from Porto at 16:35. Two nights in Lisbon and two in Porto.", role="assistant")]
    result = card(chat)
    assert "jonas" not in result.name and "lisbon" in result.name
    assert result.description.startswith("The user asked for help to plan a long weekend for them and their partner")
    chat = [say("If Tuesday 1 December 2026 is day 1 of my 100-day running streak, what date is day 100?"),
            say("1 Dec → 31 Dec 2026: 30 days. January 2027: 31 days (61). 1 December 2026 + 99 days = 10 March "
                "2027. Day 100 is **Wednesday 10 March 2027**.", role="assistant")]
    assert "Day 100 is Wednesday 10 March 2027." in card(chat).description


def test_a_question_kept_inside_its_yes_is_not_kept_again_on_its_own() -> None:
    chat = [say("Bäckerei Kaiser needs the cake order by Thursday.", "Hana"),
            say("Chocolate raspberry like last year?", "Jonas"),
            say("Yes. For 25 people it's €68. I can go on Thursday morning before work", "Hana")]
    body = card(chat).body
    assert body.count("Chocolate raspberry like last year") == 1 and "— Yes. For 25 people it's €68." in body


def test_what_the_user_asks_to_keep_in_mind_is_kept_and_here_is_a_recipe_is_narration() -> None:
    answer = " ".join(f"Step {i}: knead the dough for {i} minutes and let it rest in a warm place until it doubles."
                      for i in range(1, 30))
    chat = [say("I want to bake milk bread in a 900 g tin. My son is allergic to eggs. Can you give me a recipe?"),
            say("Here's a recipe sized for a 900 g (2 lb) loaf tin.\n\n" + answer, role="assistant")]
    body = card(chat).body
    assert "My son is allergic to eggs." in body and "Here's a recipe" not in body


def test_a_chat_description_takes_news_before_a_memory_of_long_ago() -> None:
    from daemon.distill.describe import Point, highlights
    points = [Point("John", "Growing up, I saw how crumbling infrastructure affected my neighborhood.", "fact", "user"),
              Point("John", "I'm hoping to get into local politics.", "fact", "user")]
    assert highlights(points, 1, people=True)[0].text == "I'm hoping to get into local politics."


def test_a_yes_that_agrees_a_plan_keeps_the_plan_and_says_it_was_agreed() -> None:
    chat = [say("Hey Sam, how was the weekend?", "Alex"), say("Good thanks, quiet one.", "Sam"),
            say("Can we meet on Thursday to go over the quarterly plan?", "Alex"),
            say("Yes, Thursday works. Bring the forecast sheet.", "Sam"), say("Will do, see you then", "Alex")]
    result = card(chat)
    assert "Sam: Alex asked “Can we meet on Thursday (11 May 2023) to go over the quarterly plan?” — Yes, Thursday works. " \
           "Bring the forecast sheet." in result.body
    assert result.description.startswith("Sam agreed to meet on Thursday (11 May 2023) to go over the quarterly plan.")
    assert "- Alex: Can we meet" not in result.body  # the question is inside its yes, not kept twice
    chat[3] = say("Yes, sounds good. Bring the forecast sheet.", "Sam")
    assert "— Yes, sounds good. Bring the forecast sheet." in card(chat).body
    alone = [say("Can we meet Thursday to go over the quarterly plan?", "Alex"), say("Thursday works.", "Sam"),
             say("I'll book the small room.", "Alex")]
    assert "Thursday (11 May 2023) works" not in card(alone).body  # no yes: the reply alone is filler, as before


def test_a_yes_or_no_to_the_users_question_leads_the_advice_in_the_description() -> None:
    chat = [say("Can I freeze cooked rice and reheat it later?"),
            say("Yes, that's fine. Cool it within an hour, freeze it in flat bags and reheat until it's steaming hot "
                "all the way through.", role="assistant")]
    assert "“Can I freeze cooked rice and reheat it later?” Answer: yes. Advice: cool it" in card(chat).description
    chat = [say("Can I use bleach on a marble worktop?"),
            say("No. Bleach etches marble. Use a pH-neutral stone cleaner and a soft cloth instead.", role="assistant")]
    assert "Answer: no." in card(chat).description
    for reply in ("No problem! Use a pH-neutral stone cleaner and a soft cloth.",
                  "Yes, but only diluted: a pH-neutral stone cleaner is safer."):
        chat[1] = say(reply, role="assistant")
        assert "Answer:" not in card(chat).description  # not a verdict, or one the reply takes back
    chat = [say("Can I use bleach on marble? And what about vinegar?"),
            say("No. Both etch it. Use a pH-neutral stone cleaner.", role="assistant")]
    assert "Answer:" not in card(chat).description  # the no may answer the second question


def test_between_people_a_recipe_mentioned_is_news_a_command_is_a_procedure() -> None:
    chat = [say("Yesterday I tried my newest dairy-free recipe and it was a winner with my family!", "Joanna"),
            say("Ooh nice, what was it?", "Nate"),
            say("Chocolate raspberry tart with almond flour and coconut oil.", "Joanna")]
    body = card(chat).body
    assert "tried my newest dairy-free recipe" in body and "Commands and procedures" not in body
    chat = [say("The deploy broke again on Friday.", "Ines"),
            say("Run `make deploy ENV=staging` first, then check the logs in Grafana.", "Ravi"),
            say("Got it, will do that tomorrow.", "Ines")]
    assert "## Commands and procedures\n- Ravi: Run `make deploy ENV=staging` first" in card(chat).body


def test_telling_lead_ins_guesses_and_judgements_are_cut_from_news() -> None:
    chat = [say("Long time no talk! I wanted to tell ya I just joined a writers group. It's unbelievable--such "
                "inspirational people.", "Joanna"),
            say("That's awesome! I bet the nerves and excitement are quite a rush!", "Nate"),
            say("Hey, just wanted to let you know that I'm running for office again.", "John"),
            say("I'll keep ya posted.", "Joanna")]
    body = card(chat).body
    assert "- Joanna: I joined a writers group.\n" in body and "It's unbelievable" not in body
    assert "- John: I'm running for office again." in body
    assert "tell ya" not in body and "let you know" not in body and "I bet" not in body and "keep ya posted" not in body
    kept = card([say("I'll let you know how the interview goes.", "Joanna"),
                 say("I adopted Toby. He's a German Shepherd.", "Nate")]).body
    assert "I'll let you know" not in kept and "I adopted Toby. He's a German Shepherd." in kept


def test_a_dated_event_before_the_ask_frames_it_and_a_feeling_is_left_out() -> None:
    when = datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc)
    chat = [say("你好！我叫林悦，在北京学车。后天上午要考科目二了，有点紧张。教练说我倒车入库老是压线。能帮我想想这两天怎么准备吗？",
                when=when),
            say("后天就是11月18日。明天只练倒车入库，左右各连续做10次，目标是10次里至少9次成功。祝你后天一次通过！",
                role="assistant", when=when)]
    result = ExtractiveDistiller().distill(DistillRequest("s1", date(2026, 11, 16), tuple(chat), timezone=timezone.utc))
    assert isinstance(result, Card)
    assert result.description.startswith("用户叫林悦，在北京学车。后天（2026-11-18）上午要考科目二了。用户问：")
    assert "紧张" not in result.description and "一次通过" not in result.body
    chat = [say(f"My name is Ana. I live in Porto. {said} Can you help me plan the week?", when=when)
            for said in ("The budget is 1500 EUR (about 1600 USD).", "My sister lands on Friday.")]
    answer = say("Spend Friday at the Ribeira and keep Saturday for the Douro valley.", role="assistant", when=when)
    lead = [ExtractiveDistiller().distill(DistillRequest("s1", when.date(), (c, answer), timezone=timezone.utc))
            for c in chat]
    assert "1600 USD" not in lead[0].description  # an amount in brackets is no date
    assert lead[1].description.startswith("The user's name is Ana. They live in Porto. Their sister lands on Friday "
                                          "(20 November 2026). The user asked")


def test_a_date_is_noted_once_per_sentence_and_sentences_joined_in_a_bullet_keep_their_full_stop() -> None:
    when = datetime(2026, 7, 9, 18, 0, tzinfo=timezone.utc)
    chat = [say("Amara's graduation is in two weeks, Thursday the 23rd at 2pm in the main university Aula", "Malik",
                when=when),
            say("Oh and my cousin Dele said he'll sort the projector for the picture round", "Malik", when=when),
            say("Dele is a star", "Imani", when=when),
            say("haha don't tell him that, his head's big enough", "Malik", when=when)]
    body = ExtractiveDistiller().distill(DistillRequest("s1", when.date(), tuple(chat), timezone=timezone.utc)).body
    assert "in two weeks (23 July 2026), Thursday the 23rd at 2pm" in body
    assert "for the picture round His" not in body


def test_what_follows_an_agreed_plan_in_its_message_stays_with_it() -> None:
    chat = [say("Can we meet on Thursday to go over the questions? I've done 6 rounds.", "Rosa"),
            say("Yes, Thursday works. Bring your laptop, mine's dead. Mine after work, 6ish?", "Imani"),
            say("6 at yours", "Rosa")]
    body = card(chat).body
    assert "— Yes, Thursday works. Bring your laptop, mine's dead. Mine after work, 6ish?" in body


def test_a_riddle_and_a_quip_over_the_weather_give_no_card() -> None:
    sunday = datetime(2026, 11, 29, 8, 0, tzinfo=timezone.utc)
    chat = [say(text, name, when=sunday) for text, name in (
        ("morning Pablo ☕", "Wren"), ("morning! is it me or is it properly foggy out there", "Pablo"),
        ("very Sherlock Holmes", "Pablo"), ("haha. ok I have one for you. why did the scarecrow win an award?", "Wren"),
        ("go on", "Pablo"), ("because he was outstanding in his field", "Wren"),
        ("I did. thanks, needed that, proper sunday brain today", "Pablo"), ("anytime! enjoy the fog", "Wren"))]
    result = ExtractiveDistiller().distill(DistillRequest("s1", sunday.date(), tuple(chat), timezone=timezone.utc))
    assert isinstance(result, Skip), result
    chat[4] = say("the one in the Highland Show? she told me about it", "Pablo", when=sunday)
    chat.insert(5, say("yes, Maisie's scarecrow won first prize in Perth on Saturday", "Wren", when=sunday))
    assert isinstance(ExtractiveDistiller().distill(DistillRequest("s1", sunday.date(), tuple(chat),
                                                                   timezone=timezone.utc)), Card)  # real news


def test_a_catch_up_told_in_short_answers_keeps_the_details_with_the_news() -> None:
    chat = [say(text, name) for text, name in (
        ("Arjun!! I've been dying to ask. Did you get the job?", "Gwen"), ("Yes! Start on the 3rd.", "Arjun"),
        ("AHHH congratulations!!! Halden & Pryce?", "Gwen"), ("Halden & Pryce. Junior architect 😁", "Arjun"),
        ("I knew it. How many interviews in the end?", "Gwen"), ("Two. The second one was a design task", "Arjun"),
        ("Brutal. And the money?", "Gwen"), ("34k. Bit more than I asked for actually", "Arjun"),
        ("Obviously. But first, how's the little monster?", "Arjun"),
        ("Miso? Currently asleep in the laundry basket. Look", "Gwen"), ("And the curtains?", "Arjun"),
        ("Gone. Shredded. RIP curtains", "Gwen"), ("How's Gerald?", "Gwen"),
        ("Asleep till March. He's in the hibernation fridge in the garage", "Arjun"),
        ("Did the craft fair go ok?", "Arjun"), ("Sold 14 mugs! £180", "Gwen"),
        ("Maybe in the new year. Oh, and Bethan's engaged!", "Gwen"), ("WHAT. To Rhys?", "Arjun"),
        ("To Rhys. Wedding's next August, in Tenby", "Gwen"), ("Gotta go, Miso is eating a plant 🙈", "Gwen"))]
    result = card(chat)
    assert "Arjun: Gwen asked “Did you get the job?” — Yes! Start on the 3rd (3 June 2023). Halden & Pryce. Junior architect. " \
           "“How many interviews in the end?” — Two. “And the money?” — 34k." in result.body
    assert result.description.startswith("Arjun got the job. Start on the 3rd (3 June 2023). Halden & Pryce.")
    assert "Gwen: Miso, currently asleep in the laundry basket." in result.body
    assert "Bethan's engaged! To Rhys." in result.body and "RIP curtains" not in result.body
    assert "dying to ask" not in result.body
    assert "Arjun: Gwen asked “How's Gerald?” — Asleep till March. He's in the hibernation fridge" in result.body
    assert "Decisions" not in result.body and "Gotta go" not in result.body  # "Sold 14 mugs!" decides nothing


def test_a_meeting_keeps_what_it_settled_with_its_topic_and_whose_task_it_is() -> None:
    chat = [say(text, name) for text, name in (
        ("Christmas pre-orders. I want a plan today.", "Ingrid"), ("Price? Last year was £12.", "Femi"),
        ("Butter's up about 30% on last year. I'd say £14.", "Bao"), ("£14 it is. Mince pies?", "Ingrid"),
        ("Boxes of 6 at £9. I can do 120 boxes.", "Bao"), ("People always ask about gluten-free.", "Carmen"),
        ("Not this year, I can't guarantee no cross-contamination.", "Bao"), ("Ok, no gluten-free.", "Ingrid"),
        ("And deliveries?", "Dominik"), ("Only on Saturday the 19th, within 5 miles, £4 fee.", "Ingrid"),
        ("Great. Femi, set the stock limit to 180 stollen on the site so we don't oversell.", "Ingrid"),
        ("Deal. 7ish?", "Bao"), ("7 it is. No way, really.", "Ingrid"))]
    result = card(chat)
    assert "## Decisions\n- Ingrid: Femi asked “Price?” — £14 it is.\n- Ingrid: No gluten-free." in result.body
    assert "Bao: Ingrid asked “Mince pies?” — Boxes of 6 at £9." in result.body
    assert "Ingrid: Dominik asked “Deliveries?” — Only on Saturday the 19th, within 5 miles" in result.body
    assert "Femi to set the stock limit to 180 stollen" in result.body
    assert result.description.startswith("Price: £14.")
    assert "7 it is" not in result.body and "No way" not in result.body  # a time alone, and a reaction, decide nothing


def test_a_preface_is_not_the_ask_and_a_choice_after_that_settles_it_is_decided() -> None:
    chat = [say("hi! quick money question that's been bugging me"), say("Sure, go ahead.", role="assistant"),
            say("I walk to the café for a flat white twice a day, £3.40 each. What does a home machine save per year?"),
            say("At 450 cups a year the café costs £1,530; the Melitta Caffeo Solo with a frother costs £168.60 a year "
                "to run plus £298 upfront.", role="assistant"),
            say("perfect, that settles it. Melitta Caffeo Solo + frother, and the Friday café flat white stays.")]
    result = card(chat)
    assert "The user asked: “What does a home machine save per year?”" in result.description
    assert "Decided: Melitta Caffeo Solo + frother, and the Friday café flat white stays." in result.description
    assert "## Decisions\n- Melitta Caffeo Solo + frother" in result.body and "quick money question" not in result.body


def test_the_code_the_user_said_works_is_kept_and_a_past_choice_reads_as_done() -> None:
    fix = "```go\ngo func() {\n\twg.Wait()\n\tclose(results)\n}()\n```"
    later = [f"```go\nworkers := {n}\n```" for n in range(2, 7)]
    chat = [say("My Go worker pool dies with a deadlock. What am I doing wrong?"),
            say(f"Close `results` from its own goroutine:\n\n{fix}", role="assistant"),
            say("ohhh that makes total sense. let me try"), say("ok it runs!! but how many workers?")] + \
        [say(f"Try this:\n\n{code}", role="assistant") for code in later] + [say("went with A, counting in the main loop.")]
    result = card(chat)
    assert fix in result.body and "workers := 2" not in result.body  # the fix, then the latest three
    assert all(f"workers := {n}" in result.body for n in (4, 5, 6))
    assert "makes total sense" not in result.body
    assert "The user went with A, counting in the main loop." in result.description
    from daemon.distill.tagging import ExtractiveTagger
    assert "m52s" not in ExtractiveTagger().tag("---\nname: x\n---\n- 1,240 photos in 41s; it took 3m52s before.", 5)


def test_a_users_dated_plan_is_kept_and_an_explanation_that_says_dropping_decides_nothing() -> None:
    when = datetime(2026, 11, 30, 17, 0, tzinfo=timezone.utc)
    chat = [say("Users report 14-digit ISBN-13s in bookswap. Find the bug please.", when=when),
            say("Fixed the check digit in `src/isbn.ts`. 37 rows need a migration; simply dropping the last character "
                "would be wrong, because the correct check digit is 0.", role="assistant", when=when),
            say("nice one. I'll write the migration for the 37 rows tomorrow and Halvard can review the PR", when=when),
            say("I'll check the logs first.", role="assistant", when=when)]
    result = ExtractiveDistiller().distill(DistillRequest("s1", when.date(), tuple(chat), timezone=timezone.utc))
    assert "I'll write the migration for the 37 rows tomorrow (1 December 2026) and Halvard can review the PR" \
        in result.body
    assert "Decisions" not in result.body and "I'll check the logs" not in result.body


def test_a_chinese_card_keeps_the_same_share_of_its_chat_as_an_english_one() -> None:
    # The budget is sized on the chat with a Chinese character counted twice; a statement's cost counts it twice
    # too, so a Chinese card is not twice the share of its chat an English card is (it kept 93 % here before).
    import random
    pool = "山水花鸟风云雪月春夏秋冬东西南北金木火土日星河海湖江林草竹松梅兰菊桃李杏柳杨桂茶米麦豆瓜果菜鱼羊牛马鸡犬猫龙虎豹熊鹿兔狐狼鹰雁燕鸽鹤凤龟蛇蜂蝶蚁蝉"
    rng = random.Random(7)
    facts = [f"{''.join(rng.sample(pool, 4))}{n}号要{''.join(rng.sample(pool, 3))}。" for n in range(1, 61)]
    chat = [say("帮我整理一下这些安排吧？"), say("".join(facts), role="assistant")]
    kept = [line for line in card(chat).body.splitlines() if line.startswith("- ")]

    def weight(text: str) -> int:
        return len(text) + len(re.findall(r"[\u4e00-\u9fff]", text))
    assert kept and sum(map(weight, kept)) <= 0.8 * sum(weight(m.text) for m in chat)


def test_chinese_to_decide_is_no_decision_let_me_check_is_filler_and_a_joined_pair_is_no_tag() -> None:
    from daemon.distill.tagging import ExtractiveTagger
    chat = [say("要决定子女教育和房贷放在谁那边，我先问问？"),
            say("要决定子女教育和房贷放在谁那边，关键看你和你老公谁的税率高。", role="assistant"),
            say("等一下，我查一下他的工资条"), say("查到了，邓宇月薪25000，五险一金个人部分大概4000。那就这么定：子女教育和房贷都放邓宇那边。")]
    body = card(chat).body
    assert "## 决定\n- 那就这么定" in body and "我查一下" not in body
    assert "- 要决定子女教育" not in body.split("## 关键事实")[0]
    tags = ExtractiveTagger().tag("---\nname: x\n---\n- 子女教育和房贷都放邓宇那边。\n- 子女教育和房贷要确认。\n", 5)
    assert not any("和" in t for t in tags), tags


def test_yeses_that_confirm_details_and_a_count_said_first_join_the_news() -> None:
    chat = [say(text, name) for text, name in (
        ("So... did you get the flat??", "Ollie"), ("Yes! Moving on the 14th.", "Nadia"),
        ("NO WAY. The one in Easton?", "Ollie"), ("That's the one", "Nadia"),
        ("Oh that's gorgeous. How many bedrooms?", "Ollie"), ("Two, so you've got somewhere to sleep now", "Nadia"),
        ("Tell her congrats from me. Ok, celebration: dinner at mine?", "Ollie"), ("Yes please. When?", "Nadia"))]
    body = card(chat).body
    assert "Nadia: Ollie asked “Did you get the flat?” — Yes! Moving on the 14th (14 May 2023). “The one in Easton?” — That's the " \
           "one. “How many bedrooms?” — Two." in body
    assert "the one. “How many bedrooms?” — Two. “Celebration" not in body  # an invitation is no detail of the flat


def test_a_help_chat_tells_the_users_situation_and_what_they_did_and_advice_is_no_preference() -> None:
    chat = [say("Hi! My rear brake is driving me mad. Commuter bike, Shimano MT200 hydraulic discs, about 3 years "
                "old. Is this something I can fix myself?"),
            say("**Spongy lever → air in the hydraulic system.** The fix is a **bleed**. Never use DOT brake fluid; it "
                "destroys the seals.", role="assistant"),
            say("I booked the bleed at Halfway Cycles for Saturday morning, £25.")]
    result = card(chat)
    assert "Commuter bike, Shimano MT200 hydraulic discs, about 3 years old." in result.description
    assert "The user booked the bleed at Halfway Cycles for Saturday (13 May 2023) morning, £25." in result.description
    assert "Preferences" not in result.body and "Never use DOT brake fluid" in result.body


def test_a_catch_up_leads_with_the_news_the_other_asked_about_and_a_lone_question_goes() -> None:
    chat = [say(text, name) for text, name in (
        ("So... did you get the flat??", "Ollie"), ("Yes! Moving on the 14th.", "Nadia"),
        ("NO WAY. The one in Easton?", "Ollie"), ("That's the one", "Nadia"),
        ("How's the library job?", "Ollie"), ("Good actually. Passed my probation last week", "Nadia"),
        ("Amazing! How's Pickle?", "Nadia"), ("ha", "Ollie"),
        ("Bethan's engaged!", "Nadia"), ("WHAT. To Rhys?", "Ollie"), ("To Rhys. Wedding's next August, in Tenby", "Nadia"))]
    result = card(chat)
    assert result.description.startswith("Nadia got the flat. Moving on the 14th (14 May 2023).")
    assert "How's Pickle?" not in result.body  # asked, never answered
    assert "Bethan's engaged! To Rhys. Wedding's next August, in Tenby" in result.body
    assert "Passed my probation last week (week of 1 May 2023)" in result.body


def test_how_it_went_and_a_detail_confirmed_with_more_are_news() -> None:
    chat = [say(text, name) for text, name in (
        ("Dr Idris!!! How did the viva go??", "Selin"), ("Passed! 🎓", "Idris"),
        ("AAAAH. So proud of you", "Selin"), ("Thanks 😊 And there's more. I got the postdoc", "Idris"),
        ("The Glasgow one??", "Selin"), ("That one. Marine ecology, in the Fraser lab", "Idris"),
        ("Amazing. How are you?", "Idris"), ("On a happier note, I got the head of department job", "Selin"),
        ("No way! Science at Hollybank?", "Idris"), ("Yep. From January", "Selin"))]
    result = card(chat)
    assert "Idris: Selin asked “How did the viva go?” — Passed!" in result.body
    assert "Idris: I got the postdoc. “The Glasgow one?” — That one. Marine ecology, in the Fraser lab" in result.body
    assert "Selin: I got the head of department job. “Science at Hollybank?” — Yep." in result.body
    assert "Idris got the postdoc." in result.description and "“" not in result.description


def test_what_is_kept_from_someone_is_kept() -> None:
    chat = [say("Mum and Dad's anniversary dinner is at The Old Granary, £45 a head.", "Yara"),
            say("Perfect. I'll do a slideshow.", "Caspar"),
            say("Great. And we do NOT tell Mum. She'll want to organise it herself", "Yara"),
            say("lips sealed 🤐", "Caspar")]
    assert "We do NOT tell Mum." in card(chat).body


def test_a_speaker_the_card_does_not_quote_is_still_no_tag() -> None:
    from daemon.distill.tagging import ExtractiveTagger
    text = ("---\nname: repair-cafe\ndescription: The hall is booked. Odile, Ravi, Kemal and Paloma talked about the "
            "December session and money on Sunday 22 November 2026.\n---\n## Key facts\n- Odile: Next session at "
            "St Aidan's Hall, Kemal brings the PAT tester. Kemal checks the kettles.\n")
    tags = {t.casefold() for t in ExtractiveTagger().tag(text, 5)}
    assert "kemal" not in tags, tags


def test_going_with_an_option_decides_and_asking_for_input_is_narration() -> None:
    chat = [say("Help me compare some phone options for the next 2 years."),
            say("Sure. Tell me the options and roughly how much data you use, and I'll put numbers on them.",
                role="assistant"),
            say("A is a contract at £44 a month, C is a refurb iPhone 15 at £479 plus a £12 SIM."),
            say("Over 24 months A costs £1,136.40 and C costs £767.", role="assistant"),
            say("right. going with C then: the refurb iPhone 15 plus the £12 30GB SIM.")]
    result = card(chat)
    assert "## Decisions\n- Going with C then: the refurb iPhone 15" in result.body
    assert "The user is going with C then" in result.description and "Tell me the options" not in result.body


def test_a_detail_checked_with_right_joins_the_news_and_each_detail_has_room() -> None:
    chat = [say(text, name) for text, name in (
        ("Dr Idris!!! How did the viva go??", "Selin"), ("Passed! 🎓", "Idris"),
        ("AAAAH. It was Tuesday, right?", "Selin"), ("Tuesday. Three and a half hours", "Idris"),
        ("Who were the examiners?", "Selin"), ("Professor Okafor from Leeds, and Dr Brandt as the internal", "Idris"))]
    result = ExtractiveDistiller().distill(DistillRequest("s1", date(2026, 11, 29), tuple(
        Message(id=m.id, role=m.role, name=m.name, text=m.text, time=datetime(2026, 11, 29, 20, 5, tzinfo=timezone.utc))
        for m in chat), timezone=timezone.utc))
    assert "Idris: Selin asked “How did the viva go?” — Passed! Tuesday (24 November 2026). Three and a half hours. Professor " \
           "Okafor from Leeds" in result.body


def test_sign_offs_maxims_and_resolve_between_friends_are_left_out() -> None:
    chat = [say("I adopted a rescue greyhound called Juno last week!", "Maria"),
            say("No prob! Always here to help.", "John"), say("Life sure can be a roller coaster.", "Maria"),
            say("Little steps count! I won't give up!", "John"), say("Let's keep improving our community.", "Maria"),
            say("Been a busy week since we talked.", "John"), say("Stay safe and chat soon!", "Maria")]
    body = card(chat).body
    assert "Juno" in body
    for filler in ("No prob", "roller coaster", "Little steps", "give up", "Let's keep", "busy week", "Stay safe"):
        assert filler not in body, filler


def test_resolve_and_catching_up_are_left_out_but_a_ride_is_news() -> None:
    chat = [say("Been a few days since we chatted. I won't quit, no matter what.", "Jon"),
            say("Crazy ride so far, but I'm hanging in there. I'll keep pushing to make my dreams happen.", "Jon"),
            say("My neighbour gave me a ride to Leeds station on Friday.", "Gina")]
    body = card(chat).body
    assert "gave me a ride to Leeds station" in body
    chat.append(say("Never saw this coming. Crossing my fingers for you! - I got a puppy two weeks ago, Max!", "Jon"))
    body = card(chat).body
    assert "Jon: I got a puppy two weeks ago" in body
    for filler in ("few days since", "won't quit", "hanging in there", "dreams happen", "Never saw", "Crossing"):
        assert filler not in body, filler


def test_a_help_chat_tells_the_users_dated_plan_and_keeps_only_the_code_that_replaced_theirs() -> None:
    when = datetime(2026, 11, 28, 10, 0, tzinfo=timezone.utc)
    chat = [say("Kotlin question. My app crashes on load, here's the model:\n\n```kotlin\ndata class Movie(val runtime: "
                "Int)\n```\n\nWhat's wrong?", when=when),
            say("A missing key needs a default. So give it a default:\n\n```kotlin\ndata class Movie(val runtime: Int? "
                "= null)\n```", role="assistant", when=when),
            say("That fixed it! I'll ring Halvard on Monday about the release.", when=when)]
    result = ExtractiveDistiller().distill(DistillRequest("s1", when.date(), tuple(chat), timezone=timezone.utc))
    assert "val runtime: Int? = null" in result.body and "(val runtime: Int)" not in result.body
    assert "Kotlin question" not in result.body
    assert "the user will ring Halvard on Monday (30 November 2026) about the release." in result.description
    from daemon.distill.tagging import ExtractiveTagger
    assert "halvard" not in {t.casefold() for t in ExtractiveTagger().tag(
        "---\nname: x\ndescription: The user writes it tomorrow and Halvard can review the PR.\n---\n- Halvard can "
        "review the PR.\n", 5)}


def test_what_a_chat_opens_to_talk_about_says_what_it_was_about() -> None:
    chat = [say("Hiii. Ok we need to talk about the anniversary dinner 😬", "Yara"),
            say("Saturday the 19th at The Old Granary?", "Caspar"), say("Yes, £45 a head, I'll book it.", "Yara")]
    assert "Yara and Caspar talked about the anniversary dinner on Monday 8 May 2023." in card(chat).description


def test_news_of_someone_a_sell_out_and_a_pet_asked_after_by_name_are_kept() -> None:
    chat = [say(text, name) for text, name in (
        ("Maeve!! How was the winter fair??", "Lorcan"), ("Sold out 😭🎉", "Maeve"),
        ("Will do. Also Femke got the job!", "Lorcan"), ("The Utrecht one??", "Maeve"),
        ("Yep. Research software engineer at the university. Starts in March", "Lorcan"),
        ("So you're moving?? 😮", "Maeve"), ("We are. End of February.", "Lorcan"),
        ("Same haha. And Pemberton? Is he asleep yet?", "Lorcan"),
        ("In the fridge since the 15th. Hibernating until March", "Maeve"))]
    body = card(chat).body
    assert "Maeve: Lorcan asked “How was the winter fair?” — Sold out." in body
    assert "Lorcan: Femke got the job! “The Utrecht one?” — Yep. Research software engineer" in body
    assert "Maeve: Pemberton: in the fridge since the 15th (15 April 2023)." in body


def test_a_decisions_reason_said_mainly_because_goes_with_it_and_done_by_a_day_is_a_promise() -> None:
    chat = [say("We've narrowed it to two: Blithe Spirit or The Importance of Being Earnest.", "Delphine"),
            say("Blithe Spirit royalties are £285 for the three nights. Earnest is public domain.", "Cormac"),
            say("Decision then: The Importance of Being Earnest. Mainly because there are no royalties and it has 9 "
                "parts for our 12 actors.", "Delphine"),
            say("I'll order the scripts. 14 copies at £6.50, so £91. Done by the 11th.", "Cormac")]
    result = card(chat)
    assert "## Decisions\n- Delphine: Decision: The Importance of Being Earnest. Mainly because there are no royalties" \
        in result.body
    assert result.description.startswith("Decision: The Importance of Being Earnest. Mainly because")
    assert "Done by the 11th (11 May 2023)" in result.body


def test_a_pasted_error_a_line_in_names_the_problem_with_the_ask() -> None:
    chat = [say("hey! GitHub Actions question. our coverage workflow started failing on every PR this week and I don't "
                "get why 😩\n\n```\nRun actions/github-script@v7\nRequestError [HttpError]: Resource not accessible by "
                "integration\n    at index.js:9537:21\n```"),
            say("The token this workflow runs with is read-only. Add `permissions: pull-requests: write`.",
                role="assistant")]
    result = card(chat)
    assert result.description.startswith("The user's coverage workflow started failing on every PR this week")
    assert "`RequestError [HttpError]: Resource not accessible by integration`" in result.description
    assert "GitHub Actions question" not in result.description + result.body


def test_chinese_a_preface_a_request_for_input_and_a_doctor_deciding_whether_are_not_kept() -> None:
    chat = [say("想请教一下给爸妈安排体检的事。我爸69岁，我妈66岁。我在比较两个套餐，能帮我看看吗？"),
            say("把两个套餐的价格和包含的项目发给我，我帮你看看哪些项目比较重要。医生会根据骨密度T值决定要不要用药。",
                role="assistant"),
            say("我弟宋凯说他出一半 那就定了：两个人都选A套餐，1580元一个人。")]
    result = card(chat)
    assert "想请教" not in result.description and "发给我" not in result.body
    assert result.body.startswith("## 决定\n- 我弟宋凯说他出一半 那就定了") and result.body.count("## 决定\n-") == 1
    assert "医生会根据骨密度T值决定要不要用药" not in result.body.split("## 关键事实")[0]


def test_someone_elses_decision_and_a_letters_heading_do_not_lead_the_description() -> None:
    when = datetime(2026, 11, 29, 20, 0, tzinfo=timezone.utc)
    chat = [say("I got a parking charge letter and I'm pretty sure I paid. Can you help me work out what to do?",
                when=when),
            say("POPLA is the independent appeals service. Its decision binds the operator.\n\n**Re: Parking Charge "
                "Notice 58821934, vehicle KX19 VBN**\n\nI am the registered keeper and I dispute this charge.",
                role="assistant", when=when),
            say("I'm appealing tonight. I'll put a reminder in for the 8th to check where it's at.", when=when)]
    result = ExtractiveDistiller().distill(DistillRequest("s1", when.date(), tuple(chat), timezone=timezone.utc))
    assert "Its decision" not in result.description and "Re: Parking" not in result.description
    assert "Decisions" not in result.body


def test_an_amount_said_after_a_reaction_joins_its_news_and_a_bare_see_you_is_a_sign_off() -> None:
    chat = [say(text, name) for text, name in (
        ("How's Juniper?", "Maeve"), ("She ate a sock. Surgery last Thursday, home on Saturday.", "Lorcan"),
        ("Poor girl. And your poor bank account", "Maeve"), ("£1,400.", "Lorcan"),
        ("Come to my taster! Sunday the 14th, 11am, at Inkwell.", "Maeve"), ("See you on the 14th x", "Lorcan"))]
    body = card(chat).body
    assert "Home on Saturday (6 May 2023). £1,400." in body or "home on Saturday (6 May 2023). £1,400." in body
    assert "See you on the 14th" not in body and "11am, at Inkwell" in body


def _section(body: str, heading: str) -> str:
    match = re.search(rf"(?ms)^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", body)
    return match.group(1) if match else ""


def test_the_assistants_advice_goes_under_advice_and_what_is_so_stays_a_fact() -> None:
    body = card([
        say("I got a parking charge from ParkSure for £100 but I paid £2.50 in the Parkwise app."),
        say("This is a private parking charge, not a council fine. **Don't ignore it.** Ignored charges go to "
            "debt collectors. You should appeal to ParkSure in writing within 28 days. The £60 discount lasts "
            "14 days from the notice date.", role="assistant"),
        say("It's dated 24 November, so the discount runs to 8 December."),
    ]).body
    advice, facts = _section(body, "Advice"), _section(body, "Key facts")
    assert "Don't ignore it" in advice and "appeal to ParkSure in writing" in advice
    assert "private parking charge" in facts and "discount lasts" in facts
    assert "private parking charge" not in advice and "ParkSure for £100" not in advice
    # (The user's own reply that leans on the advice is not advice: "It's dated…" stays the user's fact.)
    assert "It's dated 24 November" not in advice


def test_advice_between_people_or_in_chinese_questions_is_not_an_advice_heading() -> None:
    body = card([
        say("I'm moving to Leeds in March for the new job at Arup.", "Kai"),
        say("You should ask them about relocation money, they paid mine.", "Mira"),
        say("Good shout, I'll ask Arup on Monday.", "Kai"),
    ]).body
    assert "## Advice" not in body  # between friends a tip is talk, kept as what was said
    zh = card([
        say("我家小猫两个月大，1.1公斤，叫团子，想问一下疫苗应该怎么打？"),
        say("刚到新家的小猫容易应激。建议先观察7到10天，再去医院打第一针猫三联。别担心，疫苗反应一般一两天就好。"
            "猫三联通常打3针，每针间隔3到4周。", role="assistant"),
    ]).body
    assert "建议先观察7到10天" in _section(zh, "建议")
    assert "别担心" not in _section(zh, "建议")


def test_an_emoji_between_two_sentences_ends_the_first_even_before_a_capital() -> None:
    body = card([
        say("Paid with the Parkwise app, £2.50 for 2 hours. I typed KX19 VBM instead of KX19 VBN 🤦‍♀️ Letter says "
            "they are members of the British Parking Association."),
        say("That is a keying error; under the BPA Single Code of Practice it should be cancelled.", role="assistant"),
    ]).body
    assert "- I typed KX19 VBM instead of KX19 VBN.\n" in body and "VBN Letter" not in body


def test_it_works_now_joins_what_the_user_then_says_and_tells_the_outcome_before_the_next_step() -> None:
    result = card([
        say("My Android app crashes when it loads the watchlist: MissingFieldException for runtime."),
        say("Give `runtime` a default: `val runtime: Int? = null`. A missing key then uses the default.",
            role="assistant"),
        say("YES it loads! All 20 movies in the watchlist show up, the upcoming one with no runtime."),
        say("Great! Add a unit test that decodes a saved sample without `runtime`.", role="assistant"),
        say("good idea, I'll add that test tonight. thanks"),
    ])
    assert "It loads: all 20 movies in the watchlist show up" in result.body
    description = result.description
    assert description.index("It loads: all 20 movies") < description.index("will add that test tonight")


def test_what_the_user_did_after_the_advice_beats_a_reminder_and_bold_advice_is_labelled() -> None:
    description = card([
        say("I got a £100 parking charge from ParkSure and I'm pretty sure I paid in the app. What should I do?"),
        say("**Don't ignore it.** Ignored charges go to debt collectors. Appeal to ParkSure in writing with the "
            "receipt; a keying error like yours is normally cancelled.", role="assistant"),
        say("My husband says just pay the £60. No way. I'm appealing tonight. I'll put a reminder in for the 8th "
            "to check where it's at."),
    ]).description
    assert "Advice: don't ignore it." in description
    assert "The user is appealing tonight (8 May 2023)" in description
    assert "reminder" not in description or description.index("appealing") < description.index("reminder")


def _at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=timezone.utc)


SIXTIETH = [
    say("hey, Zafferano got back to me about mum's 60th", "Nadia", when=_at(18, 19, 2)),
    say("ooh and?", "Tomasz", when=_at(18, 19, 3)),
    say("they can do next Saturday, 7pm, table for 8", "Nadia", when=_at(18, 19, 4)),
    say("can you sort the cake? the pistachio one from Lumière", "Nadia", when=_at(18, 19, 7)),
    say("yes. I'll go in tomorrow on my lunch break", "Tomasz", when=_at(18, 19, 8)),
    say("oh no. the stocktake got moved to Saturday the 28th, I'm in till 9pm", "Tomasz", when=_at(18, 19, 22)),
    say("ok what about Sunday lunch instead? I'll ask if they have the 29th", "Nadia", when=_at(18, 19, 23)),
    say("sorry!! Sunday works for me any time", "Tomasz", when=_at(18, 19, 24)),
    say("done! Sunday 29th, 1pm, table for 8. mum says lunch is better anyway", "Nadia", when=_at(18, 19, 41)),
    say("haha classic Hanna. great", "Tomasz", when=_at(18, 19, 41)),
]


def test_a_plan_changed_later_is_left_out_and_the_booking_said_with_done_is_kept() -> None:
    result = card(SIXTIETH)
    text = text_of(result)
    assert "7pm, table for 8" not in text  # the Saturday dinner was moved: stated as the plan, it would mislead
    assert "Done: Sunday 29th (29 November 2026), 1pm, table for 8." in result.body
    assert result.description.startswith("Done: Sunday 29th (29 November 2026), 1pm, table for 8.")
    assert "Classic Hanna" not in text  # a remark on what someone is like
    # Unchanged, the first plan stays.
    kept = card(SIXTIETH[:5])
    assert "next Saturday (28 November 2026), 7pm, table for 8" in text_of(kept)


def test_the_occasion_a_chat_opens_on_names_it() -> None:
    assert card(SIXTIETH).name == "mums-60th"
    assert "talked about mum's 60th" in card(SIXTIETH).description
    # Not an occasion: named by what recurs, as before.
    other = [say("hey, did you read the article about the new tram line?", "Nadia", when=_at(18, 9)),
             say("yes, the tram line opens in March, stops at the station and the hospital", "Tomasz", when=_at(18, 9)),
             say("the tram line will save me 20 minutes a day", "Nadia", when=_at(18, 9))]
    assert card(other).name == "tram-line" and "talked about" not in card(other).description


MEETING = [
    say("Evening all. Residents' committee, one real item tonight: secure bike storage. Has everyone got the quotes?",
        "Oluwaseun", when=_at(17, 19, 0)),
    say("Yes, got them", "Margit", when=_at(17, 19, 1)),
    say("Sorry, 2 mins, putting the kids to bed", "Benedikt", when=_at(17, 19, 1)),
    say("On the hangar: the waiting list for Alder Road is about two years.", "Yusra", when=_at(17, 19, 5)),
    say("Agreed, I'd drop the hangar. Everyone ok with that?", "Oluwaseun", when=_at(17, 19, 6)),
    say("Yes", "Margit", when=_at(17, 19, 6)),
    say("yes", "Declan", when=_at(17, 19, 6)),
    say("£4,200 is over the £3,000 limit, so it would have to wait for the AGM on 9 December, and Cyclehoop told "
        "us 8 weeks lead time.", "Margit", when=_at(17, 19, 8)),
    say("Shall we vote? Convert the bin store with Hallam, £2,600 from the reserve fund.", "Oluwaseun",
        when=_at(17, 19, 10)),
    say("For", "Margit", when=_at(17, 19, 10)),
    say("Against, for the record.", "Benedikt", when=_at(17, 19, 11)),
    say("For. So 4 to 1, the bin store it is.", "Oluwaseun", when=_at(17, 19, 12)),
    say("Next: charging. I'd suggest £15 a year per space to cover keyfobs and maintenance", "Oluwaseun",
        when=_at(17, 19, 13)),
    say("£15 works, the fobs are £8 each", "Margit", when=_at(17, 19, 14)),
    say("did anyone else hear the fox screaming last night lol", "Benedikt", when=_at(17, 19, 30)),
]


def test_a_meeting_keeps_its_vote_with_the_motion_what_all_agreed_and_leaves_banter_out() -> None:
    result = card(MEETING)
    decisions = _section(result.body, "Decisions")
    assert "Decision (4 to 1): convert the bin store with Hallam, £2,600 from the reserve fund." in decisions
    assert "Agreed: drop the hangar." in decisions
    assert "Agreed: £15 a year per space" in decisions
    assert result.description.startswith("Decision (4 to 1): convert the bin store")
    assert "secure bike storage" in result.description and result.name == "secure-bike-storage"
    text = text_of(result)
    for noise in ("fox", "2 mins", "Has everyone got", "Everyone ok with that", "the bin store it is"):
        assert noise not in text, noise
    assert "AGM on 9 December (2026)" in text  # "Cyclehoop told us" is another clause's past


def test_a_vote_counted_for_and_against_carries_the_motion_as_amended() -> None:
    chat = [say("Aled, do you want to put it as a motion?", "Harriet", when=_at(25, 19, 0)),
            say("Yes. I propose we buy a defib for the front wall of the hall, up to £1,980 from reserves.", "Aled",
                when=_at(25, 19, 1)),
            say("Can I propose an amendment? No order until the parish grant decision.", "Olumide", when=_at(25, 19, 2)),
            say("happy to accept that", "Aled", when=_at(25, 19, 3)),
            say("So, the motion as amended: buy the defib, budget up to £1,980, no order until the grant decision. "
                "All in favour?", "Harriet", when=_at(25, 19, 4)),
            say("for", "Aled", when=_at(25, 19, 5)), say("for", "Olumide", when=_at(25, 19, 5)),
            say("And I'm for. Three for, none against, no abstentions. Motion carried.", "Harriet", when=_at(25, 19, 6))]
    result = card(chat)
    decisions = _section(result.body, "Decisions")
    assert "Carried (three for, none against): buy the defib, budget up to £1,980, no order until the grant " \
           "decision." in decisions, decisions  # (in the minutes' words: the message says "Motion carried")
    assert result.description.startswith("Carried (three for, none against)"), result.description  # the headline
    assert "No order until the parish grant decision" not in decisions  # the amendment the motion now holds
    # Without a count, the result says how it went.
    uncounted = chat[:-1] + [say("Motion carried.", "Harriet", when=_at(25, 19, 6))]
    assert "Carried: buy the defib" in _section(card(uncounted).body, "Decisions")


def test_a_plan_restated_after_a_deal_is_the_decision_and_the_weekend_after_next_follows_the_chats_days() -> None:
    chat = [say("meteor shower is the weekend after next. Kielder?", "Imogen", when=_at(30, 20, 0)),
            say("in. isn't the peak sunday night", "Dev", when=_at(30, 20, 2)),
            say("peak's the night of the 13th but saturday the 12th is as good", "Imogen", when=_at(30, 20, 3)),
            say("saturday's all cloud. sunday is clear from 6pm", "Rafa", when=_at(30, 20, 9)),
            say("we could go earlier and come back earlier? leave at 4", "Rafa", when=_at(30, 20, 11)),
            say("ok fine, sunday the 13th. but we leave the car park at 10:30 sharp, I'm serious", "Dev",
                when=_at(30, 20, 12)),
            say("deal!! so sunday 13th, 4pm from Rafa's, leaving Kielder 10:30, Dev drives", "Imogen",
                when=_at(30, 20, 13))]
    result = card(chat)
    assert "Agreed: Sunday 13th (13 December 2026), 4pm from Rafa's, leaving Kielder 10:30, Dev drives" in \
        _section(result.body, "Decisions"), result.body
    assert result.description.startswith("Agreed: Sunday 13th (13 December 2026), 4pm"), result.description
    text = text_of(result)
    assert "weekend of 12 December 2026" in text and "19 December" not in text and "20 December" not in text
    assert "I'm serious" not in text and "10:30 sharp" in text
    # "deal" with no day and time after it agrees to nothing in particular.
    plain = card(chat[:-1] + [say("deal!! I'll bring soup, leek and potato", "Imogen", when=_at(30, 20, 13))])
    assert "Agreed: I'll bring soup" not in text_of(plain)


def test_laughter_before_the_parenthesis_or_comma_it_ends_is_trimmed() -> None:
    from daemon.distill.extractive import _trim
    assert _trim("We have about 140 packets (half of them ancient lol).", frozenset()) == \
        "We have about 140 packets (half of them ancient)."
    assert _trim("The tomatoes went in haha, the beans go in next week.", frozenset()) == \
        "The tomatoes went in, the beans go in next week."
    # A word that only looks like laughter stays: "Lola" and "hahnium" are not "lol" and "haha".
    assert _trim("We got Lola (the cat) a new bed.", frozenset()) == "We got Lola (the cat) a new bed."


def test_pasted_compiler_output_is_the_ask_and_it_compiles_but_is_a_new_problem_not_the_outcome() -> None:
    error = ("```\nerror[E0499]: cannot borrow `self.jobs` as mutable more than once at a time\n  --> src/queue.rs:12:9\n"
             "```")
    chat = [say("rust again. im building a tiny job queue called `tally` for our choir's rota. "
                "getting this and I dont get it:\n\n" + error),
            say("Two `&mut` borrows overlap: take the job out first with `pop_front`, then push.", role="assistant"),
            say("ok it compiles 🎉 but the rota prints every job twice"),
            say("You push the job back before printing; print first.", role="assistant"),
            say("that was it, prints once now. thanks!")]
    result = card(chat)
    assert "The user gets error[E0499]: cannot borrow `self.jobs` as mutable more than once at a time." in \
        result.description, result.description
    assert result.description.startswith("The user is building a tiny job queue called `tally`"), result.description
    text = text_of(result)
    assert "It compiles: the rota" not in text and "It compiles, but the rota prints every job twice" in text
    # An ask said in words stays the ask; the pasted error is then only evidence.
    asked = card([say("rust again. why does this fail to compile?\n\n" + error)] + chat[1:])
    assert "The user gets error" not in asked.description


def test_contractions_typed_without_their_apostrophe_read_as_written_code_aside() -> None:
    from daemon.distill.extractive import _apostrophes
    assert _apostrophes("im stuck and I dont get it, thats weird") == "I'm stuck and I don't get it, that's weird"
    assert _apostrophes("ive tried `dont_panic` and it cant find them, theyre gone") == \
        "I've tried `dont_panic` and it can't find them, they're gone"
    assert _apostrophes("my washing machine wont drain") == "my washing machine won't drain"
    for word in ("Ill be there", "IM me later", "it lets me in", "Well done"):
        assert _apostrophes(word) == word


def test_overwhelm_after_and_is_trimmed_and_an_options_letter_keeps_its_capital() -> None:
    from daemon.distill.extractive import _trim
    assert _trim("I need pet insurance for my dog Biscuit and I'm drowning in quotes.", frozenset()) == \
        "I need pet insurance for my dog Biscuit."
    assert _trim("We leave the car park at 10:30 and I mean it!", frozenset()) == "We leave the car park at 10:30!"
    # What follows "and" that says something stays.
    assert _trim("I need pet insurance and I'm drowning in vet bills since her surgery.", frozenset()) == \
        "I need pet insurance and I'm drowning in vet bills since her surgery."
    from daemon.distill.describe import Point, describe
    chosen = describe([Point("", "A with the £150 excess, £21.40 a month.", "decision", "user")])
    assert "Decided: A with the £150 excess, £21.40 a month." in chosen, chosen
    article = describe([Point("", "A quote with the £150 excess is the one.", "decision", "user")])
    assert "Decided: a quote with the £150 excess is the one." in article, article


PLANS_CALLED_OFF = [
    say("tomorrow after work we pick up the tree from Hollins Farm, need to be there by 5:30", "Juno", when=_at(26, 19, 0)),
    say("yep. i'll leave work at 4:45 and meet you there", "Baz", when=_at(26, 19, 1)),
    say("next friday is your work christmas do, i'm coming as your plus one. the Botanist, 7:30", "Juno",
        when=_at(26, 19, 2)),
    say("then the saturday after we're taking Poppy ice skating at the Winter Rink, 11am", "Juno", when=_at(26, 19, 3)),
    say("and mum wants to know if we're driving up to Norwich in three weeks or getting the train", "Juno",
        when=_at(26, 19, 4)),
    say("driving. we'll have all the presents and the dog", "Baz", when=_at(26, 19, 5)),
    say("driving it is, i'll tell her", "Juno", when=_at(26, 19, 6)),
    say("bad news. work do's cancelled. completely. the Botanist had a kitchen fire and the company isn't rebooking",
        "Baz", when=_at(27, 12, 0)),
    say("noooo. so next friday's free then. takeaway and a film?", "Juno", when=_at(27, 12, 1)),
    say("deal. we'll leave at 8 on the 24th then", "Baz", when=_at(27, 12, 2)),
]


def test_an_either_or_settled_by_it_is_and_a_plan_called_off_read_as_they_now_stand() -> None:
    result = card(PLANS_CALLED_OFF)
    decisions = _section(result.body, "Decisions")
    assert "Decided: driving up to Norwich in three weeks (17 December 2026), not getting the train." in decisions, \
        decisions
    text = text_of(result)
    assert "Mum wants to know" not in text  # the question is inside the decision now
    assert "Work do's cancelled: the Botanist had a kitchen fire" in text, text
    assert "plus one" not in text and "7:30" not in text  # what was said of the work do no longer holds
    assert "The saturday after (5 December 2026) we're taking Poppy" in text  # the Saturday after that Friday
    assert "Next friday (4 December 2026) is free" in text
    assert "leave at 8" not in result.description  # an undated promise takes no one's place in the description
    assert "Botanist" not in ExtractiveTagger().tag(cards.render(result, "s1", "[[s1]]"), 4)  # no longer the subject
    # Without the either-or, "driving it is" stays as said; without the cancellation, the work do stays.
    plain = card(PLANS_CALLED_OFF[:4] + PLANS_CALLED_OFF[5:7])
    assert "not getting the train" not in text_of(plain) and "plus one" in text_of(plain)


def test_a_catch_up_opener_before_the_news_is_trimmed() -> None:
    from daemon.distill.extractive import _trim
    assert _trim("A lot's happened since we last chatted - I joined a new LGBTQ activist group last Tues.",
                 frozenset()) == "I joined a new LGBTQ activist group last Tues."
    assert _trim("Here's something cool that happened the other day - I took Max for a walk.", frozenset()) == \
        "I took Max for a walk."
    # An option's letter is content; the article "A" is not a letter.
    assert _trim("A it is - too pricey otherwise.", frozenset()).startswith("A it is")


def test_a_plan_agreed_a_piece_at_a_time_is_one_decision() -> None:
    chat = [say("I fly out on the 9th of January. Six months at Rothera!", "Tariq", when=_at(28, 20, 0)),
            say("ok but we need a proper goodbye before you go. drinks?", "Niamh", when=_at(28, 20, 1)),
            say("yes please. this thursday? i'm in town anyway", "Tariq", when=_at(28, 20, 2)),
            say("thursday works. the Crown at 7?", "Niamh", when=_at(28, 20, 3)),
            say("the Crown at 7 👍 i'll tell Sam and Ollie", "Tariq", when=_at(28, 20, 4))]
    decisions = _section(card(chat).body, "Decisions")
    assert "Agreed: drinks, this thursday (3 December 2026), the Crown at 7." in decisions, decisions
    # Questions that check or ask ("are you sure?") are no offers, and a chain that never says when is no plan.
    checking = chat[:1] + [say("the 12th and 13th right?", "Niamh", when=_at(28, 20, 1)),
                           say("yep. are you sure?", "Tariq", when=_at(28, 20, 2)),
                           say("yes!! so excited", "Niamh", when=_at(28, 20, 3))]
    assert "Agreed:" not in card(checking).body
    undated = chat[:1] + [say("drinks?", "Niamh", when=_at(28, 20, 1)), say("yes please. the Crown?", "Tariq",
                                                                            when=_at(28, 20, 2)),
                          say("the Crown works 👍", "Niamh", when=_at(28, 20, 3))]
    assert "Agreed:" not in card(undated).body


def test_a_show_of_hands_carries_its_proposal_and_a_deferred_item_says_what_was_deferred() -> None:
    chat = [say("ok let's start. two things tonight: the membership fee, and the new year's day dip", "Gwen",
                when=_at(4, 19, 30)),
            say("£20 covers it with a bit of slack. £20 x 118 = £2,360", "Hattie", when=_at(4, 19, 31)),
            say("ok proposal: full membership goes from £15 to £20 from 1 January, concession stays at £10. show of "
                "hands please", "Gwen", when=_at(4, 19, 32)),
            say("counting... 9 for, 3 against, 2 abstaining", "Tom", when=_at(4, 19, 33)),
            say("carried, 9 to 3. thanks all", "Gwen", when=_at(4, 19, 34)),
            say("so we can't decide the dip tonight without the insurance price. let's defer it to the next meeting, "
                "wednesday the 25th", "Gwen", when=_at(4, 19, 40))]
    result = card(chat)
    decisions = _section(result.body, "Decisions")
    assert "Carried (9 to 3): full membership goes from £15 to £20 from 1 January (2027), concession stays at £10." \
        in decisions, decisions
    assert "Let's defer the dip to the next meeting, wednesday the 25th (25 November 2026)" in decisions
    text = text_of(result)
    assert "Show of hands" not in text and "9 for, 3 against" not in text
    assert result.name == "membership-fee", result.name


def test_a_cause_everyone_agreed_and_a_suggestion_turned_down_are_the_meetings_decisions() -> None:
    chat = [say("ok so the cause: backup key expired, the backup script failed silently, and nothing was watching the "
                "disk. everyone agree with that?", "Maya", when=_at(30, 10, 0)),
            say("agree", "Kasia", when=_at(30, 10, 1)), say("yep", "Jonah", when=_at(30, 10, 1)),
            say("👍", "Ollie", when=_at(30, 10, 2)),
            say("could we just put a much bigger disk on db-1? 500gb instead of 100", "Ollie", when=_at(30, 10, 3)),
            say("it'd just hide it for longer. the dumps would still pile up", "Kasia", when=_at(30, 10, 4)),
            say("agreed, no bigger disk. that's treating the symptom.", "Maya", when=_at(30, 10, 5))]
    decisions = _section(card(chat).body, "Decisions")
    assert "Agreed on the cause: backup key expired, the backup script failed silently, and nothing was watching the " \
           "disk." in decisions, decisions
    assert "Agreed, no bigger disk." in decisions
    from daemon.distill.extractive import _is_filler
    assert _is_filler("Agreed, no problem.", frozenset(), True)  # an acknowledgement still


def test_without_a_yes_from_the_others_a_proposal_stays_a_proposal() -> None:
    chat = [say("I'd drop the hangar. Everyone ok with that?", "Oluwaseun"),
            say("Not sure, the hangar is cheap", "Margit"),
            say("I'd rather wait for the quote", "Declan")]
    assert "Agreed" not in card(chat).body


def test_catch_up_news_reads_in_the_first_person_without_its_news_label() -> None:
    chat = [say("OTTILIE. Guess who passed his driving test", "Ravi", when=_at(21, 10)),
            say("NO WAY!! Third time lucky??", "Ottilie", when=_at(21, 10)),
            say("Third time lucky. Zero majors, two minors", "Ravi", when=_at(21, 10)),
            say("OK MY news: we finally got an allotment!!", "Ottilie", when=_at(21, 11)),
            say("No way, after how long on the list?", "Ravi", when=_at(21, 11)),
            say("Three years! Plot 14 at Ferncliffe allotments.", "Ottilie", when=_at(21, 11)),
            say("Last bit of news: I'm moving out of the Cranbrook Road flat", "Ravi", when=_at(21, 12)),
            say("Biscuit says woof", "Ottilie", when=_at(21, 12))]
    text = text_of(card(chat))
    assert "I passed my driving test" in text and "his driving test" not in text
    assert "news:" not in text.lower() and "woof" not in text
    assert "Ferncliffe" in text and "moving out of the Cranbrook Road flat" in text


def test_a_freezing_page_is_the_problem_and_going_with_option_3_is_decided() -> None:
    chat = [say("hey! React question, I'm a bit stuck. our stock page in Larkspur freezes as soon as it loads and the "
                "console spams Maximum update depth exceeded."),
            say("The loop comes from `filters`: a new object on every render. Three ways out: 1) memoise it, "
                "2) compare primitives, 3) drop the effect and compute the list with useMemo.", role="assistant"),
            say("ok the warning is gone but now I get a different one: Cannot update a component while rendering"),
            say("That one is the leftover setState in render; option 3 removes it.", role="assistant"),
            say("went with your option 3, the useMemo one. freeze is gone and the page loads in a second.")]
    result = card(chat)
    assert result.description.startswith("The user's stock page in Larkspur freezes as soon as it loads")
    assert "React question" not in result.description and "stuck" not in result.description
    assert "The user went with the assistant's option 3, the useMemo one." in result.description
    assert "Went with your option 3, the useMemo one." in _section(result.body, "Decisions")
    assert "but now" not in result.description  # a new problem is no outcome


def test_a_title_after_its_topic_label_names_the_card() -> None:
    from daemon.distill.describe import name_from_title
    texts = ["maximum update depth exceeded in PlantTable, react"]
    assert name_from_title("React: Maximum update depth exceeded in PlantTable", "en", texts) == \
        "maximum-update-depth-exceeded-in-planttable"
    assert name_from_title("I need help with maximum update depth exceeded in my table", "en", texts) == ""


SWIMMING = [
    say("你好，想请你帮我参谋一下给女儿报游泳班的事。朵朵6岁半，有点怕水。我在两家之间犹豫，选不出来😂"),
    say("可以，把两家的情况发给我看看。", role="assistant"),
    say("A：市体育中心游泳馆的少儿蛙泳班，12节课1680元，一个教练带8个孩子。\n"
        "B：海豚游泳俱乐部，1对3小班，10节课2600元，走路5分钟。"),
    say("对怕水的孩子，师生比比单价重要得多。我的建议是先报B。能不能下水要先问医生，要不要耳塞也问一下。", role="assistant"),
    say("好，就定B了！老公也同意。我后天带她去买装备，要买什么？能不能先买耳塞？"),
    say("泳帽、泳镜、耳塞、浴巾。祝朵朵早日变成小美人鱼！", role="assistant"),
]


def test_a_chinese_choice_by_its_label_says_what_the_label_is_and_the_ask_is_the_users() -> None:
    result = card(SWIMMING)
    assert "就定B了（B：海豚游泳俱乐部，1对3小班，10节课2600元" in _section(result.body, "决定")
    assert "发给我看看" not in result.body  # asking for the details is no fact
    assert result.description.startswith("用户请助手帮忙参谋一下给女儿报游泳班的事。")
    assert "祝朵朵" not in text_of(result)  # a wish is a sign-off


def test_chinese_asking_words_are_no_tags() -> None:
    text = ("---\nname: 游泳班\ndescription: 给女儿报游泳班，问医生能不能游、要不要耳塞。\n---\n"
            "- 问医生能不能游、要不要耳塞。\n- 能不能游要看鼓膜，要不要耳塞也问医生。\n- 海豚俱乐部的小班，海豚俱乐部走路5分钟。\n")
    tags = ExtractiveTagger().tag(text, 4)
    assert not any(t.startswith(("能不能", "要不要", "不能")) for t in tags), tags
    assert any("海豚俱乐部" in t for t in tags), tags


def test_a_vague_ask_for_help_is_framed_by_what_follows_and_a_list_names_its_options() -> None:
    chat = [say("hi! can you help me with a savings plan? I want to take a 3-month sabbatical to travel (Peru, "
                "Bolivia, Chile) and I think I need about £9,000 all in. I'm leaving in 20 months."),
            say("Happy to. What do you have so far?", role="assistant"),
            say("I have £2,400 in my current account. Options I found:\n- easy-access saver, 3.6% AER\n"
                "- regular saver at my bank, 6.5% AER fixed for 12 months, max £250 a month"),
            say("Put £250 a month into the regular saver and the £2,400 into easy access.", role="assistant"),
            say("ok decided: the £2,400 goes into easy access now, not the bond.")]
    result = card(chat)
    assert result.description.startswith("The user wants to take a 3-month sabbatical to travel (Peru, Bolivia, "
                                         "Chile)")
    assert "savings plan" in result.description
    assert "Options I found: easy-access saver" in result.body or "Options I found: regular saver" in result.body
    assert "Options I found easy" not in result.body and "Options I found regular" not in result.body
    # A lead-in the item finishes still reads as one sentence.
    doctor = card([say("My knee is swollen after kneeling all day. What should I do?"),
                   say("See a doctor promptly if:\n- the knee becomes hot or red\n- you have a fever",
                       role="assistant")])
    assert "See a doctor promptly if the knee becomes hot or red" in doctor.body


def test_an_items_bold_label_heads_no_description() -> None:
    description = card([
        say("My landlord is keeping £450 of my £1,200 deposit. Can he do that?"),
        say("**Repainting (£200).** After 3 years, lightly marked walls are fair wear and tear. "
            "**Cleaning (£250).** This depends on evidence. **Reply in writing** and give him 14 days.",
            role="assistant"),
    ]).description
    assert "Repainting (£200)." not in description and "Cleaning (£250)." not in description


FRIENDSMAS = [
    say("ok Friendsmas planning time 🎄 who's in", "Imogen", when=_at(20, 18, 41)),
    say("me obviously", "Dev", when=_at(20, 18, 43)),
    say("idea: ice skating at Castle Green and then dinner at Bramble & Fig. Saturday the 5th?", "Imogen",
        when=_at(20, 18, 46)),
    say("5th works", "Dev", when=_at(20, 18, 47)),
    say("rink has a 5pm slot, £14.50 each. then Bramble & Fig at 7:30, set menu for £32", "Imogen",
        when=_at(20, 18, 51)),
    say("booked both! 5pm skating, 7:30 dinner, table for 3", "Imogen", when=_at(20, 18, 58)),
    say("yes but no socks this time Callum", "Dev", when=_at(20, 19, 1)),
    say("the socks were ICONIC", "Callum", when=_at(20, 19, 1)),
    say("ugh. the rink just emailed: the evening sessions on the 5th are cancelled, private hire 🙄 they can move us "
        "to the Sunday at 3pm", "Imogen", when=_at(21, 10, 17)),
    say("yes, mine it is. I'll make mulled wine", "Dev", when=_at(21, 10, 36)),
    say("I've cancelled Bramble & Fig and moved the rink booking, same price", "Imogen", when=_at(21, 10, 40)),
    say("so: Sunday 3pm at Castle Green, then Dev's", "Imogen", when=_at(21, 10, 50)),
]


def test_what_a_cancellation_undid_is_left_out_and_a_groups_teasing_too() -> None:
    result = card(FRIENDSMAS)
    text = text_of(result)
    assert "7:30" not in text and "5pm" not in text  # the cancelled evening's times
    assert "Sunday (6 December 2026) 3pm at Castle Green" in text
    assert "ICONIC" not in text
    assert result.name == "friendsmas-plans"
    assert "decided to mine" not in result.description


def test_a_slow_page_is_the_problem_its_timing_the_outcome_and_a_side_question_comes_last() -> None:
    result = card([
        say("The manifest page in Quayside has got really slow, 2+ seconds per load. Can you help?"),
        say("The plan shows a Parallel Seq Scan over 4.2M rows. Rewrite the filter as a half-open range on "
            "departure_at and add an index CONCURRENTLY.", role="assistant"),
        say("2310 ms → 0.4 ms after the range rewrite. unrelated: should I index lower(email) too?"),
        say("Run EXPLAIN ANALYZE on a real search first; add it only if it is a Seq Scan.", role="assistant"),
    ])
    description = result.description
    assert description.startswith("The manifest page in Quayside has got")
    assert "2310 ms → 0.4 ms" in description
    assert "EXPLAIN ANALYZE on a real search" not in description  # the side question's answer is in the body
    assert "EXPLAIN ANALYZE on a real search" in result.body


WINTER_FAIR = [
    say("Right, shall we start? Brookfield Primary PTA, winter fair planning. Three things tonight: the date, card "
        "payments, and the bouncy castle question 😅", "Harriet", when=_at(23, 19, 0)),
    say("Hi all, I'll take the minutes", "Sunita", when=_at(23, 19, 1)),
    say("Date first. The hall is free on Friday 11 December after school or on Saturday 12 December, 11 to 2.",
        "Harriet", when=_at(23, 19, 2)),
    say("Friday's no good, the nativity dress rehearsal is in the hall that afternoon", "Lotte", when=_at(23, 19, 3)),
    say("Saturday the 12th then? Everyone ok with that?", "Harriet", when=_at(23, 19, 4)),
    say("yes", "Kwame", when=_at(23, 19, 4)),
    say("yes from me", "Sunita", when=_at(23, 19, 4)),
    say("A SumUp Air reader is £29, 1.69% per transaction, no monthly fee.", "Kwame", when=_at(23, 19, 6)),
    say("Let's vote. Buy the SumUp reader, yes or no?", "Harriet", when=_at(23, 19, 8)),
    say("yes", "Sunita", when=_at(23, 19, 8)),
    say("no, but I won't die on this hill", "Ewan", when=_at(23, 19, 9)),
    say("and I'm a yes, so 4 to 1, we're buying it. Kwame, can you order it?", "Harriet", when=_at(23, 19, 9)),
    say("yep, I'll order it by Friday", "Kwame", when=_at(23, 19, 10)),
]


def test_a_meetings_agreed_question_and_its_vote_by_show_of_hands_are_its_decisions() -> None:
    result = card(WINTER_FAIR)
    decisions = _section(result.body, "Decisions")
    assert "Agreed: Saturday the 12th (12 December 2026)." in decisions
    assert "Decision (4 to 1): buy the SumUp reader." in decisions
    assert result.name == "winter-fair-plans"
    assert "😅" not in result.description and "die on this hill" not in text_of(result)


def test_a_sold_out_event_takes_the_plan_for_it_out() -> None:
    chat = [say("What are you doing the weekend after next?", "Jun", when=_at(27, 18)),
            say("The 12th? Nothing! I'll get us tickets for the ceilidh at the Assembly Rooms on the Saturday night",
                "Beatriz", when=_at(27, 18, 5)),
            say("Checked the Assembly Rooms site: the Saturday ceilidh is sold out. There's a Sunday afternoon one, "
                "2 to 5?", "Beatriz", when=_at(27, 18, 20)),
            say("yes, Sunday works", "Jun", when=_at(27, 18, 21))]
    text = text_of(card(chat))
    assert "I'll get us tickets for the ceilidh" not in text
    assert "sold out" in text


def test_big_news_said_in_a_few_words_leads_a_catch_up() -> None:
    from daemon.distill.describe import Point, highlights
    points = [Point("Marisol", "Rosa and I finally booked Iceland for April, five nights in Reykjavik.", "fact", "user"),
              Point("Marisol", "I got the job!", "fact", "user"),
              Point("Kwame", "I got back from Japan on Wednesday, ten days in Kyoto and Osaka.", "fact", "user")]
    assert highlights(points, 2, people=True)[0].text == "I got the job!"
    # A feeling said with an exclamation is no news.
    feeling = [Point("Melanie", "I'm carving out some me-time each day!", "fact", "user"),
               Point("Melanie", "I ran a charity race for mental health last Saturday, 5k in 31 minutes.", "fact", "user")]
    assert highlights(feeling, 1, people=True)[0].text.startswith("I ran a charity race")


def test_big_news_leads_in_the_order_it_was_told_and_names_a_catch_up_by_whose_news() -> None:
    from daemon.distill.describe import Point, highlights, news_name
    # Points come ranked by weight; the news a friend opened with still leads.
    told = [Point("Beatriz", "I'm an auntie x2!!", "fact", "user", at=30),
            Point("Beatriz", "We got engaged!!", "fact", "user", at=2)]
    assert highlights(told, 1, people=True)[0].text == "We got engaged!!"
    assert highlights(list(reversed(told)), 1, people=True)[0].text == "We got engaged!!"
    assert news_name(Point("Beatriz", "We got engaged!!", "fact")) == "beatriz-engagement"
    assert news_name(Point("Arjun", "I got the job!", "fact")) == "arjun-new-job"
    assert news_name(Point("Elif", "I passed my driving test!", "fact")) == "elif-driving-test"
    assert news_name(Point("John", "I got an endorsement with a popular beverage company!", "fact")) == "john-endorsement"
    # Not big news (no exclamation), nothing named ("got it!"), or nobody to name: the name is left to what recurs.
    assert news_name(Point("Elif", "I passed my driving test last week.", "fact")) == ""
    assert news_name(Point("Elif", "I got it!", "fact")) == ""
    assert news_name(Point("", "We got engaged!", "fact")) == ""
    result = card([say("BEA. Why is there a ring emoji on Instagram", "Jun"),
                   say("I was going to tell you tonight!! We got engaged!!", "Beatriz"),
                   say("NO. When?? How??", "Jun"),
                   say("Last Saturday, on Calton Hill at sunrise. He said he wanted photos of the fog.", "Beatriz"),
                   say("I'm crying. Also I passed my crew assessment at the lifeboat station on Wednesday!", "Jun"),
                   say("The Christmas market in Edinburgh is on the 12th, come up for it!", "Beatriz"),
                   say("The Christmas market! Yes. I'll get the train on the Friday after work.", "Jun"),
                   say("And I'm an auntie x2!! Duarte and Carla had the twins on the 9th.", "Beatriz")])
    assert result.name == "beatriz-engagement", result.name
    assert result.description.startswith("Beatriz: We got engaged."), result.description


def test_what_someone_is_wearing_or_sitting_in_right_now_is_small_talk_news_under_way_is_not() -> None:
    chat = [("hiya Ana!", "Theo"), ("Theo!! hello", "Ana"), ("how's things?", "Theo"),
            ("good, bit sleepy. you?", "Ana"), ("same. is it boiling where you are", "Theo"),
            ("so hot. I'm sitting in front of the fan like a melted ice lolly", "Ana"), ("a melted lolly 😂", "Theo"),
            ("anyway just saying hi", "Ana"), ("aw, nice of you. speak soon x", "Theo"), ("bye!! x", "Ana")]
    assert isinstance(distill([say(text, name) for text, name in chat]), Skip)
    news = chat[:5] + [("so hot. I'm moving to Leeds in March, found a flat in Chapel Allerton", "Ana")] + chat[6:]
    assert "moving to Leeds" in card([say(text, name) for text, name in news]).body


def test_big_news_with_more_after_its_exclamation_still_leads_and_a_life_change_before_a_purchase() -> None:
    from daemon.distill.describe import Point, highlights
    told = [Point("Nadia", "I bought a van! An old VW T4, 2001, €9,500.", "fact", "user", at=3),
            Point("Nadia", "I got the charge nurse job on the children's ward at St. Mary's!! I start on the 1st.", "fact",
                  "user", at=9)]
    assert highlights(told, 1, people=True)[0].text.startswith("I got the charge nurse job")
    ran = [Point("Bastian", "We raised £612, way past the £400 target.", "fact", "user", at=20),
           Point("Bastian", "I ran a half marathon on Sunday!! The Cardiff Bay Winter Half. 1:58:41.", "fact", "user",
                 at=18)]
    assert highlights(ran, 1, people=True)[0].text.startswith("I ran a half marathon")
    # A note does not exclaim between its sentences either.
    from daemon.distill.describe import describe
    said = describe(ran[1:], people=["Bastian", "Noor"])
    assert "!" not in said and "half marathon on Sunday. The Cardiff Bay Winter Half." in said, said


def test_life_changing_news_told_calmly_still_leads_and_names_the_card_with_where() -> None:
    from daemon.distill.describe import Point, highlights, news_name
    calm = Point("Tariq", "I got the job with the British Antarctic Survey. Six months at Rothera.", "fact", "user", at=1)
    dated = Point("Tariq", "I fly out on the 9th of January (2027)", "fact", "user", at=2)
    assert highlights([dated, calm], 1, people=True)[0] is not dated
    assert news_name(calm) == "tariq-british-antarctic-survey-job"
    assert news_name(Point("Hana", "We got the keys today!", "fact")) == "hana-new-home"
    assert news_name(Point("Niamh", "But… i passed my driving test on thursday!! Fourth attempt", "fact")) == \
        "niamh-driving-test"
    # Calm news that is not life-changing, or a pronoun for a thing, names nothing.
    assert news_name(Point("Tariq", "“After five years?” — Yep. I got into the MSc I applied for.", "fact")) == "tariq-msc"
    assert news_name(Point("Bastian", "I ran a half marathon on Sunday!! 1:58:41.", "fact")) == "bastian-half-marathon"
    assert news_name(Point("Rasmus", "“Honestly?” — so... we adopted a dog!", "fact")) == "rasmus-new-dog"
    assert news_name(Point("Rosa", "I got a place on the midwifery degree at Leeds!!", "fact")) == "rosa-midwifery-degree"
    assert news_name(Point("Tomasz", "I got a place on the primary PGCE at Bristol, starts in september.", "fact")) == \
        "tomasz-primary-pgce"
    contracts = Point("Femi", "Big news, we exchanged contracts this morning!!", "fact")
    assert news_name(contracts) == "femi-new-home"
    assert news_name(contracts, [Point("Femi", "We're moving to Frome, completion's on the 18th.", "fact")]) == \
        "femi-move-to-frome"
    # Told after a question or a label, the news leads as news: "Rasmus: We adopted a dog."
    from daemon.distill.describe import describe
    said = describe([Point("Rasmus", "“Honestly?” — so... we adopted a dog!", "fact", "user", at=3),
                     Point("Rasmus", "Booked: Sunday (6 December 2026) morning we walk him round the walls.", "decision",
                           "user", at=20)], people=["Rasmus", "Ifeoma"])
    assert said.startswith("Rasmus: We adopted a dog."), said
    told = [Point("Freya", "I'm an auntie!!", "fact", "user", at=3),
            Point("Tariq", "“After five years?” — Yep. I got into the MSc I applied for.", "fact", "user", at=9)]
    assert highlights(told, 1, people=True)[0].who == "Tariq"  # a place at university before a niece
    assert news_name(Point("Noor", "I bought her in October for £38,000.", "fact")) == ""
    assert news_name(Point("Gina", "I got some new offers and promotions going on my store.", "fact")) == ""


def test_a_chinese_lean_decides_kin_read_as_the_users_and_surprise_before_a_plan_is_trimmed() -> None:
    chat = [say("你好,想请你帮我一起理一理我爸的照护问题。我爸82岁,中风了。三个选择:住家保姆每月6500元,护理院8800元,日间照料3200元。"),
            say("住家保姆最适合,叔叔不愿意去护理院。要注意保姆每月休4天,休息日谁来照顾要提前定好。", role="assistant"),
            say("对,我们也倾向住家保姆。我爸的退休金出3000,剩下我和我哥分。"),
            say("可以。", role="assistant"),
            say("休息日这个完全没想到!那就休息日我和我哥轮流回去。")]
    result = card(chat)
    assert "用户请助手帮忙一起理一理用户的父亲的照护问题" in result.description, result.description
    decisions = _section(result.body, "决定")
    assert "我们也倾向住家保姆" in decisions and "对," not in result.description, decisions
    assert "完全没想到" not in text_of(result) and "那就休息日我和我哥轮流回去" in decisions
    # A lean asked about is no decision.
    from daemon.distill.extractive import _classify
    assert _classify("我们也倾向住家保姆,你觉得呢?", None) != "decision"


def test_chatter_of_the_moment_leaves_a_catch_up_with_its_one_piece_of_news() -> None:
    chat = [say("ISLA. how's things", "Femi", when=_at(30, 18, 0)),
            say("It's rained here for like 5 days straight, the garden is a swamp", "Isla", when=_at(30, 18, 1)),
            say("the heating in the office broke again so we're all sat in coats", "Femi", when=_at(30, 18, 2)),
            say("the new series is so good, the egg task had me crying", "Isla", when=_at(30, 18, 3)),
            say("I'm two episodes behind don't you dare spoil it", "Femi", when=_at(30, 18, 4)),
            say("Big news, we exchanged contracts this morning!! We're moving to Frome, completion's on friday the 18th",
                "Femi", when=_at(30, 18, 5)),
            say("I've eaten about 40 mince pies already", "Isla", when=_at(30, 18, 6)),
            say("I need to go make dinner, speak soon x", "Isla", when=_at(30, 18, 7))]
    result = card(chat)
    assert result.name == "femi-move-to-frome", result.name
    text = text_of(result)
    assert "Frome" in result.description and "18 December 2026" in text
    for chatter in ("rained", "heating", "egg task", "episodes", "mince pies", "make dinner"):
        assert chatter not in text, chatter
    # The same words as news, with their day, stay: "the heating engineer comes on Friday" is a plan.
    from daemon.distill.extractive import _idle_chatter
    assert not _idle_chatter("The heating engineer comes on Friday (4 December 2026) at 8")
    assert not _idle_chatter("We ate mince pies with the choir at the Christmas fair and raised £300")


def test_a_short_chinese_decision_leads_and_a_polite_lead_in_and_a_sons_name_read_as_the_users() -> None:
    chat = [say("想请教一下 儿子乐乐9岁，想给他报个周末兴趣班，编程一期5280元，围棋一期3600元。帮我算算哪个划算？"),
            say("**结论**：按钱算，围棋每小时不到编程的一半，而且在你每月1000元的预算内；编程略超预算。", role="assistant"),
            say("我们决定报围棋了！下个月6号开课。")]
    description = card(chat).description
    assert description.startswith("用户的儿子乐乐9岁"), description
    assert "用户他们决定报围棋了" in description and "我们" not in description and "想请教" not in description and "；。" not in description


def test_a_chinese_description_is_clipped_at_a_clause_mark() -> None:
    from daemon.distill.describe import _clip
    text = "用户请助手帮忙参谋一下给儿子买钢琴的事。那就这么定了：大后天去验琴，没问题就买U1，12000元。11月27日下午2点到4点送货"
    assert _clip(text, 50) == "用户请助手帮忙参谋一下给儿子买钢琴的事。那就这么定了：大后天去验琴，没问题就买U1，12000元…"


def test_a_cancelled_flight_is_the_problem_and_what_the_user_accepted_is_the_outcome() -> None:
    description = card([
        say("Our flight got cancelled last Saturday and I want to know what we're owed. Manchester to Faro."),
        say("Under UK261 that is £350 per person, so £700 for the two of you, plus reasonable expenses.",
            role="assistant"),
        say("They offered £700 cash or a £900 voucher. Accepted the cash this morning, paid within 14 days."),
        say("Good choice.", role="assistant"),
    ]).description
    assert description.startswith("The user's flight got cancelled last Saturday (6 May 2023)")
    assert "Accepted the cash this morning (8 May 2023)" in description or "accepted the cash" in description


def test_asking_for_a_joke_and_loving_it_is_still_small_talk() -> None:
    chat = [say("morning! it's absolutely chucking it down here"),
            say("Morning! Sounds like a proper duvet-and-tea kind of Saturday. Are you staying in?", role="assistant"),
            say("yep, not moving from the sofa lol. tell me a joke?"),
            say("Why did the scarecrow win an award? Because he was outstanding in his field.", role="assistant"),
            say("terrible. I love it"),
            say("I aim to groan. Enjoy the cosy morning!", role="assistant"),
            say("thanks, you too. bye!")]
    assert isinstance(distill(chat), Skip)
    # Moving house, or liking something named, is worth a card.
    assert isinstance(distill(chat[:2] + [say("we're moving to Leeds in March, I love the Kirkstall flat")]), Card)


def test_a_day_that_can_no_longer_be_done_and_a_cancelled_booking_take_their_plans_out() -> None:
    chat = [say("The seller said Saturday morning works for her", "Nadia", when=_at(18, 18)),
            say("I'll get the van from Sami at 9:30 then", "Tariq", when=_at(18, 18, 5)),
            say("I'll book the council bulky waste collection for the old sofa, it's £27", "Nadia", when=_at(18, 18, 6)),
            say("Bad: she can't do Saturday any more, she's away for the weekend. She can do tomorrow at 7pm",
                "Nadia", when=_at(19, 12)),
            say("We'll take the old one to the tip the day after. Cancelling the council booking now", "Nadia",
                when=_at(19, 12, 5))]
    text = text_of(card(chat))
    assert "9:30" not in text and "I'll book the council" not in text
    assert "tomorrow (20 November 2026) at 7pm" in text


def test_a_dated_choice_the_user_then_changes_is_left_out() -> None:
    chat = [say("空调装哪天好？下单以后最早下周二能装。"),
            say("那就约下周二。", role="assistant"),
            say("啊不行，下周二我妈要去医院复查膝盖，家里没人。那就改成下周三上午吧。"),
            say("没问题，安装改到下周三上午。", role="assistant")]
    result = card(chat)
    decisions = _section(result.body, "决定")
    assert "下周三（2023-05-17）" in decisions and "那就约下周二" not in result.body


def test_a_settled_choice_with_its_tally_is_a_decision() -> None:
    chat = [say("Let's vote, one each. Muppet Christmas Carol?", "Odile", when=_at(17, 19)),
            say("me", "Farah", when=_at(17, 19, 1)), say("me too", "Keisha", when=_at(17, 19, 1)),
            say("Elf?", "Odile", when=_at(17, 19, 2)), say("me, alone in my tights", "Niall", when=_at(17, 19, 2)),
            say("The Muppet Christmas Carol it is, 3 votes to 1 to 1. Mince pies at the interval as usual.", "Odile",
                when=_at(17, 19, 3))]
    assert "The Muppet Christmas Carol it is, 3 votes to 1 to 1." in _section(card(chat).body, "Decisions")


def test_a_boxed_error_names_the_problem_and_brb_is_talk() -> None:
    body = card([
        say("morning! Terraform question. `terraform plan` fails:\n\n```\n╷\n│ Error: Invalid for_each argument\n│\n"
            "│   on acm.tf line 12\n╵\n```\n\nBrb, coffee first"),
        say("Key the records by `dvo.domain_name`: domain names are known at plan time.", role="assistant"),
    ]).body
    assert "`terraform plan` fails: `Error: Invalid for_each argument`" in body
    assert "coffee" not in body


def test_a_command_that_printed_nothing_says_so_and_next_step_narration_is_left_out() -> None:
    from daemon.distill.tools import _outcome
    assert _outcome({"content": "(No content)"}) == ("no output", False)
    assert _outcome({"content": ""}) == ("no output", False)
    assert _outcome({"content": "Tests  92 passed (92)"}) == ("Tests  92 passed (92)", False)
    from daemon.distill.extractive import _is_filler
    assert _is_filler("Now the hook and the dialog.", frozenset())
    assert not _is_filler("Now the dialog traps focus and Escape closes it.", frozenset())


def test_a_help_chat_is_named_by_its_subject_not_by_how_the_user_feels_or_which_weekdays() -> None:
    name = card([
        say("hi! I'm going back to work in January, 3 days a week (Mon, Tue, Thu), and I need childcare for my "
            "daughter Maisie. I've got three options and my head hurts, can you help me work out what each one "
            "really costs per year?"),
        say("Sure. Nursery: £68 a day, 3 days = £204 a week. Childminder: £55 a day. Nanny share: £12 an hour.",
            role="assistant"),
        say("ok the childminder it is, childcare sorted"),
    ]).name
    assert "childcare" in name and "head" not in name and "mon" not in name.split("-")


def test_we_have_got_reads_as_the_users_and_an_options_specs_are_no_outcome() -> None:
    description = card([
        say("We've got a used Kia Niro EV and a 7 kW charger. Which tariff is cheapest for us?"),
        say("Send me the tariffs.", role="assistant"),
        say('Lumen Energy "Fix & Go 12": fixed for 12 months, 23.4p/kWh, £50 exit fee. Ohm Home "NightDrive": 8.5p/kWh '
            "00:30 to 05:30, 29.1p otherwise."),
        say("NightDrive is £212 a year cheaper than the fix.", role="assistant"),
        say("NightDrive it is! I'll set the car to charge 00:30 to 05:30."),
    ]).description
    assert description.startswith("The user has a used Kia Niro EV")
    needs = card([say("We need a better way to dry laundry this winter. Which dryer costs least over 5 winters?"),
                  say("A heat-pump dryer: about £161 a year to run.", role="assistant")]).description
    assert needs.startswith("The user needs a better way to dry laundry this winter.")
    assert "Fix & Go 12" not in description


def test_the_assistants_lets_do_it_step_by_step_decides_nothing() -> None:
    result = card([say("Which tariff is cheapest? We use 3,100 kWh a year and will drive 8,000 miles."),
                   say("Let's do it step by step. Car: 8,000 ÷ 3.6 ≈ 2,222 kWh a year. House: 3,100 kWh.",
                       role="assistant")])
    assert "## Decisions" not in result.body
    # The user's own "let's do it" still decides what follows.
    decided = card([say("Which tariff? NightDrive is £212 cheaper, you said."),
                    say("Yes, NightDrive is £212 a year cheaper than the fix.", role="assistant"),
                    say("ok let's do it. NightDrive from January, car charging at night only.")])
    assert "NightDrive from January" in _section(decided.body, "Decisions")


def test_feelings_and_signing_off_for_a_swim_are_talk_and_descriptions_carry_no_emoji() -> None:
    from daemon.distill.extractive import _is_filler, _trim
    assert _is_filler("My brain is fried", frozenset())
    assert _is_filler(_trim("Off for a swim now, water's 11 degrees", frozenset()), frozenset())
    assert _trim("I'll do the Action Fraud report tomorrow, too tired now.", frozenset()) == \
        "I'll do the Action Fraud report tomorrow."
    description = card([say("想请你帮我理一理孩子牙齿矫正的事😣 女儿乐乐9岁，前牙地包天。"),
                        say("地包天最好早治，公立医院的活动矫治器大约6500元。", role="assistant")]).description
    assert "😣" not in description


def test_instead_of_a_day_replaces_the_plan_for_it() -> None:
    chat = [say("Gerald goes into the fridge next Thursday", "Bastian", when=_at(25, 18)),
            say("aww sleep well Gerald", "Noor", when=_at(25, 18, 1)),
            say("Wait, Lou texted: the vet had a cancellation, so he goes in the fridge tomorrow evening instead of "
                "next Thursday", "Bastian", when=_at(25, 18, 30))]
    body = card(chat).body
    assert "Gerald goes into the fridge next Thursday" not in body
    assert "tomorrow (26 November 2026) evening" in body


def test_a_tally_for_an_option_is_the_meetings_decision() -> None:
    chat = [say("Quick vote. Oakfield?", "Helen", when=_at(18, 19)),
            say("Oakfield", "Tunde", when=_at(18, 19, 1)), say("Oakfield", "Gareth", when=_at(18, 19, 1)),
            say("hall, on cost grounds", "Anjali", when=_at(18, 19, 2)),
            say("4 to 1 for Oakfield. Tuesdays and Thursdays 6 to 7pm like now?", "Helen", when=_at(18, 19, 3))]
    assert "Decision (4 to 1): Oakfield." in _section(card(chat).body, "Decisions")


def test_a_screen_that_goes_blank_is_the_problem_and_leads_the_description() -> None:
    description = card([
        say("Hi! I'm building a small Flutter app called Tidepool. As soon as I added the list the screen goes blank "
            "and the console shows: Vertical viewport was given unbounded height."),
        say("The fix is to wrap the ListView in `Expanded` so it takes the space left under the header.",
            role="assistant"),
        say("works now!")]).description
    assert description.index("the screen goes blank") < description.index("The fix is to wrap the ListView")


def test_a_motion_put_before_the_call_is_what_the_vote_carried_and_off_to_is_a_sign_off() -> None:
    chat = [say("OK. Proposal: we switch to memoQ, 5 users, £2,700 a year, if the Kessler test passes. "
                "If it fails, we renew Trados. Vote please.", "Agnieszka", when=_at(24, 10)),
            say("for", "Chiara", when=_at(24, 10, 1)), say("for", "Birgit", when=_at(24, 10, 1)),
            say("against, Trados works", "Hamid", when=_at(24, 10, 2)),
            say("4 to 1, carried, with the test condition.", "Agnieszka", when=_at(24, 10, 3)),
            say("off to find real coffee", "Mateus", when=_at(24, 10, 4))]
    result = card(chat)
    decisions = _section(result.body, "Decisions")
    assert "Carried (4 to 1): we switch to memoQ, 5 users, £2,700 a year, if the Kessler test passes." in decisions
    assert "Proposal:" not in result.body and "coffee" not in text_of(result)


def test_a_name_does_not_end_on_an_adverb() -> None:
    from collections import Counter
    from daemon.distill import describe
    texts = ["did you ring the Wheatsheaf yet", "the Wheatsheaf yet again", "Wheatsheaf yet"]
    name = describe.name([], texts, frozenset(), Counter(fact=2), "en")
    assert not name.endswith("-yet") and name.startswith("wheatsheaf")


def test_poor_biscuit_and_a_pet_saying_goodnight_are_talk() -> None:
    from daemon.distill.extractive import _is_filler, _reaction
    assert _reaction("Poor Biscuit.", frozenset())
    assert not _reaction("Poor Biscuit had his surgery on the 26th.", frozenset())
    assert _is_filler("Bruno says goodnight", frozenset())


def test_an_ask_starting_with_an_http_method_keeps_its_case() -> None:
    from daemon.distill.describe import _ask
    asked = _ask("GET /api/classes/{id} now blows up", "", "en", False)
    assert "GET /api/classes/{id}" in asked and "gET" not in asked


# ---- review 22: interjections, shouted words, verdicts and ideas turned down ---------------

def test_an_interjection_names_nothing_and_a_flaky_test_is_a_flaky_test() -> None:
    from collections import Counter
    from daemon.distill import describe
    focus = ["", "the `orders › GET /orders returns newest first` test is flaky again on CI, fails maybe 1 in 10 runs"]
    texts = [focus[1], "the test fails", "the test is flaky", "the test passes"]
    assert describe.name(focus, texts, frozenset(), Counter(fact=2), "en") == "flaky-test"
    assert describe.name([], ["Fine fine i'm brainstorming", "Fine, the dinner", "dinner at Lupa"],
                         frozenset(), Counter(fact=2), "en") != "fine-fine"
    from daemon.distill.lexicon import _LEAD_FILLER
    assert _LEAD_FILLER.sub("", "ugh the test is flaky again") == "the test is flaky again"


def test_words_shouted_in_capitals_are_no_tags_but_acronyms_are() -> None:
    text = ("---\nname: jess-viva\ndescription: Jess's viva is CONFIRMED.\n---\n"
            "- Priya: BOOKED: Lupa, saturday 19th, table for 6. NOBODY post anything before the 19th.\n"
            "- Tom: the CI run on the PR is green, BOOKED the NASA slot, send money by sunday, bank or monzo whatever.\n")
    tags = ExtractiveTagger().tag(text, 6)
    assert not {"CONFIRMED", "BOOKED", "NOBODY"} & set(tags), tags
    assert "CI" in tags and "NASA" in tags, tags
    assert not any("whatever" in t for t in tags), tags


def test_a_chinese_table_label_is_no_speaker_and_a_verb_phrase_no_tag() -> None:
    text = ("---\nname: 妈妈做胃镜\ndescription: 用户的母亲要做胃镜。\n---\n"
            "- 无痛胃镜: 总费用 700元, 自付 532元.\n- 无痛胃镜：静脉麻醉，医生可以看得更仔细。\n"
            "- 选无痛胃镜更合适，看得更清楚。\n- 麻醉评估时告诉医生，最终由麻醉医生评估决定。\n- 把降压药告诉医生。\n")
    tags = ExtractiveTagger().tag(text, 3)
    assert "无痛胃镜" in tags, tags
    assert not any(t in ("看得更", "告诉医生", "醉医生") or t.endswith("时") for t in tags), tags


def test_who_will_decide_is_no_decision_and_asking_for_advice_is_a_lead_in() -> None:
    chat = [say("你好，想咨询一下😅 我妈今年62岁，最近两个月老是胃胀。医生说要做个胃镜，普通的还是无痛的？"),
            say("血压控制在130/85左右，一般是可以做无痛胃镜的，最终由麻醉医生评估决定。", role="assistant"),
            say("好 那就无痛吧，多400多块也值。我哥说费用他出一半，月底前转给我。")]
    result = card(chat)
    decisions = _section(result.body, "决定")
    assert "那就无痛吧" in decisions and "评估决定" not in decisions
    assert "想咨询" not in text_of(result)
    assert "我哥说费用他出一半" in _section(result.body, "现状与下一步")  # a deadline is what happens next


def test_a_verdict_on_a_test_is_kept_and_leads_the_description() -> None:
    chat = [say("We've got a damp patch in the back bedroom behind the wardrobe, 28% on the meter. Is it rising damp?"),
            say("A patch in one corner is the classic pattern for condensation or penetrating damp. Tape a square of "
                "kitchen foil over it for 48 hours:\n"
                "- **moisture on the room side** → the water is coming from the room air: **condensation**;\n"
                "- **wet underneath** → the water is coming **through the wall**: penetrating damp.", role="assistant"),
            say("48 hours later: the foil was wet on the room side, actual droplets on it, and the wall under it was "
                "dry-ish."),
            say("That's a clear result: water on the room side of the foil and a drier wall behind it means "
                "**condensation**, not penetrating or rising damp. **Move the wardrobe** 10 cm from the wall and get a "
                "dehumidifier.", role="assistant")]
    result = card(chat)
    assert "That's a clear result" in result.body
    assert "That's a clear result" in result.description
    assert ";." not in result.description and " moisture on" not in result.description


def test_ideas_turned_down_at_once_are_one_line_without_why_not() -> None:
    chat = [say("ok jess's viva is CONFIRMED for friday the 18th!!! we have to do something", "Priya"),
            say("surprise dinner the day after? she'll be a wreck on the friday itself", "Leah"),
            say("hot air balloon ride!!! 🎈", "Marcus"),
            say("marcus it's december 😂 and they're like £200 each", "Priya"),
            say("ok fine. puppy?", "Marcus"),
            say("absolutely not, she lives in a 4th floor flat", "Leah"),
            say("lol no. ok serious: gift + surprise dinner. her kindle died in september. paperwhite is £159.99",
                "Tom"),
            say("what about a flash mob outside the viva room", "Marcus"),
            say("mate", "Tom"),
            say("no. just no 🙅‍♀️ she'd die", "Leah"),
            say("BOOKED 🎉 Lupa, saturday 19th, 7:30pm, table for 6. under my name", "Priya"),
            say("kindle ordered btw. night all", "Tom")]
    result = card(chat)
    text = text_of(result)
    assert "Marcus's ideas, turned down: hot air balloon ride, puppy, a flash mob outside the viva room." in result.body
    for said in ("4th floor", "£200 each", "she'd die", "no. ok serious", "btw"):
        assert said not in text, said
    assert "Lupa" in result.body and "kindle died" in result.body
    assert "CONFIRMED" not in ExtractiveTagger().tag(cards.render(result, "s1", "[[s]]"), 3)
    # An answered question is no idea turned down: "does sam know??" — "no, not yet" stays.
    plain = card([say("does sam know??", "Priya"), say("no, not yet, I'll tell him tonight at 8", "Leah"),
                  say("BOOKED: Lupa, saturday 19th, 7:30pm", "Priya")])
    assert "tell him tonight" in plain.body and "turned down" not in plain.body


def test_saying_what_kind_of_talk_it_was_is_filler() -> None:
    from daemon.distill.extractive import _is_filler
    assert _is_filler("fine fine i'm just brainstorming", frozenset())
    assert _is_filler("I'm only joking", frozenset())
    assert not _is_filler("I'm brainstorming names for the shop with Dana on Friday at the Crown", frozenset())


def test_a_parting_wish_is_filler_and_so_far_so_good_a_lead_in() -> None:
    from daemon.distill.extractive import _is_filler, _trim
    from daemon.distill.lexicon import _LEAD_FILLER
    assert _is_filler("Good luck, and I hope the corner dries out.", frozenset())
    assert not _is_filler("I hope to finish the tiling by Friday (4 December 2026).", frozenset())
    assert _trim("So far, so good - customers love the new offers", frozenset()).startswith("Customers love")
    assert _LEAD_FILLER.sub("", "So far we have 3 volunteers") == "So far we have 3 volunteers"


def test_a_catch_up_description_skips_news_about_an_unnamed_it() -> None:
    chat = [say("Hey Joanna! Long time no see! What's up?", "Nate"),
            say("I've been working on a project lately - it's been pretty cool. What about you?", "Joanna"),
            say("I won my first video game tournament last week - so exciting!", "Nate"),
            say("Wow Nate! Congrats on winning! What game was it?", "Joanna"),
            say("It's a team shooter game.", "Nate"),
            say("What type of movies do you like best?", "Nate"),
            say("I'm all about dramas and romcoms. I love getting immersed in the feelings and plots.", "Joanna"),
            say("Any recommendations for me?", "Nate"),
            say("Have you seen this romantic drama that's all about memory and relationships? It's such a good one.",
                "Joanna"),
            say("Oh cool! I might check that one out some time soon!", "Nate"),
            say("Yep, that movie is awesome. I first watched it around 3 years ago. I even went out and got a physical "
                "copy!", "Joanna"),
            say("Cool! I'll definitely check it out. Thanks!", "Nate")]
    description = card(chat).description
    assert "watched it" not in description and "tournament" in description
    # News that names its thing before "it" is kept: "finished my first full screenplay and printed it".
    from daemon.distill.describe import _UNNAMED_IT
    assert not _UNNAMED_IT.match("I finally finished my first full screenplay and printed it last Friday")
    assert _UNNAMED_IT.match("Nate made it with coconut milk")


def test_how_life_felt_names_no_card() -> None:
    from collections import Counter
    from daemon.distill import describe
    texts = ["We made lasting memories at the violin concert.", "So many lasting memories!",
             "The violin concert was great, lasting memories.", "Has anyone yet been to a violin concert?",
             "anyone yet?", "I enjoyed it, enjoyed every minute"]
    name = describe.name([], texts, frozenset(), Counter(fact=3), "en")
    assert name == "violin-concert", name


def test_the_meeting_an_opener_calls_names_the_card() -> None:
    chat = [say("morning all ☕ let's do the black friday post-mortem while it's fresh. no blame", "Maya",
                when=_at(30, 9, 0)),
            say("yep. friday 09:10 checkout started throwing 500s. disk 100% full on db-1", "Jonah", when=_at(30, 9, 1)),
            say("the backup key expired and the dumps piled up, 24 of them", "Kasia", when=_at(30, 9, 2)),
            say("I'll set up a disk alert at 80% on db-1 by friday", "Kasia", when=_at(30, 9, 3))]
    result = card(chat)
    assert result.name == "black-friday-post-mortem", result.name
    assert "talked about the black friday post-mortem" in result.description
    assert "decided to agreed" not in result.description


def test_votes_taken_by_thumbs_with_a_dashed_count_are_decisions() -> None:
    chat = [say("ok 2) dev over to you", "Ife", when=_at(29, 19, 0)),
            say("proposal: we get a dishwasher. the beko is £329, £74.80 each", "Dev", when=_at(29, 19, 1)),
            say("good point. so the proposal is: buy the beko, £74.80 each, IF rob says yes. vote 👍/👎", "Ife",
                when=_at(29, 19, 2)),
            say("👍", "Dev", when=_at(29, 19, 3)), say("👍", "Mireille", when=_at(29, 19, 3)),
            say("👍 (pending rob)", "Hattie", when=_at(29, 19, 3)),
            say("👍 from me, 5–0 🎉 hattie can you email rob tomorrow?", "Ife", when=_at(29, 19, 4)),
            say("ok vote on the cleaner: 👍 for sparkleco, 👎 for keeping the rota", "Ife", when=_at(29, 19, 5)),
            say("👍", "Mireille", when=_at(29, 19, 6)), say("👎", "Hattie", when=_at(29, 19, 6)),
            say("👎", "Dev", when=_at(29, 19, 6)),
            say("2–3, no cleaner. we keep the rota. i'll redo it by wednesday", "Ife", when=_at(29, 19, 7)),
            say("can you bring 2–3 options?", "Ife", when=_at(29, 19, 8))]
    result = card(chat)
    decisions = _section(result.body, "Decisions")
    assert "Decision (5–0): buy the beko, £74.80 each, IF rob says yes." in decisions, decisions
    assert "Decision (2–3): no cleaner." in decisions, decisions
    assert result.description.index("(5–0)") < result.description.index("(2–3)")
    from daemon.distill.extractive import _TALLY
    assert not _TALLY.search("can you bring 2–3 options?") and not _TALLY.search("10–12 litres a day")


def test_hellos_thanks_and_the_weather_make_no_card() -> None:
    chat = [say("good morning claude ☀️ well. not very sunny actually, it's grey and drizzly here lol"),
            say("Good morning! Sorry about the drizzle. Grey December mornings are hard to love. How are you doing?",
                role="assistant"),
            say("haha it's fine, it's december, what can you expect. i'm ok! bit sleepy. how are you?"),
            say("I'm doing well, thanks for asking! A bit of sleepiness is very reasonable at this hour.",
                role="assistant"),
            say("not yet 😅 that's the next step. anyway just wanted to say hi and thanks, you've been a nice bit of "
                "company this week 🙂"),
            say("That's really kind of you, thank you. 🙂", role="assistant")]
    assert distill(chat) == Skip(SKIP_REASON)


def test_a_numbered_step_heading_is_no_fact_and_a_time_joins_its_race() -> None:
    from daemon.distill.extractive import _sentences
    assert _sentences("hold off.\n\n**1. Make it safe**\nSwitch off and unplug.\n\n**5. Refit and test**\nScrew it "
                      "back in.") == ["hold off.", "Switch off and unplug.", "Screw it back in."]
    chat = [say("oh and i did the cardiff half in october! 1:58:40, so under two hours like i wanted", "Tomasz"),
            say("no way! you said you'd never run again", "Ines"),
            say("i'm giving my brother one of my kidneys. the surgery's at guy's on the 14th of january", "Ines"),
            say("Ines. wow. that's huge", "Tomasz")]
    result = card(chat)
    assert "I did the cardiff half in october! 1:58:40" in result.body, result.body
    assert result.description.startswith("Ines is giving"), result.description


def test_a_question_about_the_others_life_leads_its_answer_but_a_proposal_stays_its_own() -> None:
    chat = [say("still seeing Owen?", "Ines"),
            say("yep, a year in january! we're going to lisbon for new year, flying out on the 29th", "Tomasz"),
            say("fuel, call it £15 each?", "Dev"),
            say("i'll bring the camping chairs and the big blankets for the car park at Kielder", "Rafa")]
    body = card(chat).body
    assert "Tomasz: Ines asked “Still seeing Owen?” — " in body and "lisbon" in body
    assert "“Fuel, call it £15 each?” —" not in body


def test_a_booking_is_the_plan_and_the_plan_it_replaced_goes_with_its_yes() -> None:
    chat = [say("ok escape room before christmas 🔐 i'm thinking friday 11th, 7pm, the vault escapes on deansgate. "
                "they've got the 'bank job' room, 4 people max", "Kezia", when=_at(30, 18, 0)),
            say("fri 11th 7pm work for everyone? it's £26 each there", "Kezia", when=_at(30, 18, 2)),
            say("fri works, i'll get the train in from stockport", "Rohan", when=_at(30, 18, 3)),
            say("argh friday 11th is my work christmas do 😩 can't skip it. any chance of saturday 12th?", "Dan",
                when=_at(30, 18, 4)),
            say("vault is fully booked all saturday 🙄 BUT lockbox in ancoats has 'the alchemist's study' at 4:30pm on "
                "saturday 12th, £96 total so £24 each", "Kezia", when=_at(30, 18, 6)),
            say("booked ✅ lockbox, the alchemist's study, saturday 12 december 4:30pm. meet outside at 4:15.",
                "Kezia", when=_at(30, 18, 9))]
    result = card(chat)
    assert "Booked: lockbox, the alchemist's study, saturday 12 december (2026) 4:30pm." in \
        _section(result.body, "Decisions"), result.body
    assert result.description.startswith("Booked: lockbox")
    for gone in ("the vault escapes", "bank job", "Fri works", "Fri 11th (11 December 2026) 7pm"):
        assert gone not in result.body, gone


def test_the_fix_the_user_confirms_keeps_its_long_code_and_code_taken_back_goes() -> None:
    money = "```go\npackage money\n\n" + "\n".join(f"// line {k}" for k in range(34)) + "\n```"
    chat = [say("go question. it fails:\n\n```\n2026/12/04 09:47:12 webhook orders/create: json: cannot unmarshal string "
                "into Go struct field Order.total_price of type float64\n```"),
            say("The smallest change is the `,string` option:\n\n```go\nTotalPrice float64 `json:\"total_price,string\"`\n```",
                role="assistant"),
            say("ok so orders/create works now but the refunds webhook blew up instead"),
            say("Sorry, my first suggestion was incomplete: `,string` only accepts the quoted form.\n\nSo use a small "
                "`Money` type:\n\n" + money, role="assistant"),
            say("that's it ✅ `go test ./...` all ok, replayed the failed webhooks (31 orders) and they all went through. "
                "totals match the bank to the penny, accountant will be thrilled")]
    result = card(chat)
    assert "package money" in result.body and "total_price,string" not in result.body
    assert "json: cannot unmarshal string into Go struct field" in result.body
    assert "31 orders" in result.body and "thrilled" not in text_of(result)


def test_a_long_description_loses_whole_sentences_not_half_of_one() -> None:
    from daemon.distill.describe import Point, describe
    points = [Point("The user", "Decided: the £2,400 goes into easy access now, not the bond, because £15 isn't worth "
                    "locking it up for a year.", "decision", "user"),
              Point("The assistant", "The plan is £375 a month for 20 months, then it moves to the regular saver once "
                    "the easy-access pot reaches £3,000, which is when the bonus rate starts to matter more.", "fact",
                    "assistant")]
    text = describe(points, context="The user wants to take a 3-month sabbatical to travel (Peru, Bolivia, Chile) and "
                    "they think they need about £9,000 all in, leaving in 20 months.", request="Can you help me with a "
                    "savings plan?", day=date(2026, 11, 20), limit=300)
    assert "…" not in text and text.endswith("On Friday 20 November 2026."), text


def test_a_status_word_or_a_button_is_no_tag() -> None:
    text = ("---\nname: nas-backup\ndescription: The NAS backup fails with ERR 53.\n---\n"
            "- The Synology NAS shows ERR 53 when the backup runs.\n- Click Add, then pick the NAS share.\n")
    tags = ExtractiveTagger().tag(text, 4)
    assert "NAS" in tags and "ERR" not in tags and "Add" not in tags, tags


def test_wanting_to_do_something_on_a_day_is_a_plan_not_a_taste() -> None:
    from daemon.distill.extractive import _classify
    assert _classify("We want to do Sintra on the Saturday (2026-12-05)", None) == "state"
    assert _classify("we want to do something fun", None) == "preference"


def test_a_sofa_afternoon_is_small_talk_and_a_pet_decides_nothing() -> None:
    chat = [say("what u up to", "Bea"), say("absolutely nothing. horizontal. the sofa has claimed me", "Ollie"),
            say("same honestly. it's already going dark and it's barely 3?? 🌚", "Bea"),
            say("december is a scam", "Ollie"),
            say("the cat has decided my legs are her property now so i legally can't move", "Bea"),
            say("some baking show rerun i've definitely seen before. someone's sponge just collapsed, very emotional",
                "Ollie"),
            say("iconic. i'm on my third tea", "Bea"), say("respect. enjoy the nap 😴", "Ollie")]
    assert distill(chat) == Skip(SKIP_REASON)
    from daemon.distill.extractive import _classify
    assert _classify("The cat has decided my legs are her property now", None) == "fact"


def test_a_promise_its_speaker_then_keeps_is_done_and_an_operation_names_the_plan() -> None:
    chat = [say("ok cousins 🎭 operation Nana Panto. the Grand is doing Cinderella, the saturday 12th matinee at 2.30?",
                "Leanne", when=_at(29, 18, 0)),
            say("the 12th works for me", "Marcus", when=_at(29, 18, 1)),
            say("argh the wheelchair spaces on the saturday are all gone 😩 sunday 13th at 1pm instead?", "Leanne",
                when=_at(29, 18, 5)),
            say("sunday's fine", "Marcus", when=_at(29, 18, 6)),
            say("booked ✅ sunday 13th, 1pm, row K, wheelchair space + 3 seats. £141 = £47 each", "Leanne",
                when=_at(29, 18, 9)),
            say("sent 💸", "Zara", when=_at(29, 18, 10)),
            say("payday's friday, i'll send it then, promise", "Marcus", when=_at(29, 18, 11)),
            say("no rush. doors open 12.15", "Leanne", when=_at(29, 18, 12)),
            say("paid you leanne 👍 £47", "Marcus", when=_at(29, 18, 30))]
    result = card(chat)
    assert result.name == "nana-panto", result.name
    assert "i'll send it then" not in result.body.lower() and "The 12th (12 December 2026) works" not in result.body


def test_an_amended_version_said_yes_to_and_counted_is_carried() -> None:
    chat = [say("proposal: replace the whole cover now, a fitter quoted £180. £520 out of the fund", "Dev",
                when=_at(26, 19, 0)),
            say("i object to the £180, we've put covers on before", "Pete", when=_at(26, 19, 1)),
            say("ok amended version: we buy the new cover now, patch the tear with tape this weekend, and fit the new "
                "cover ourselves on a warm day in march, no fitter. £352 from the fund", "Marguerite",
                when=_at(26, 19, 3)),
            say("yes, happy with that", "Dev", when=_at(26, 19, 4)), say("yes 👍", "Pete", when=_at(26, 19, 4)),
            say("yes", "Aga", when=_at(26, 19, 5)),
            say("Carried 5-0. Dev orders the cover and the tape by monday. Pete leads the fitting in march.",
                "Marguerite", when=_at(26, 19, 6))]
    result = card(chat)
    decisions = _section(result.body, "Decisions")
    assert "Carried (5-0): we buy the new cover now" in decisions, result.body
    assert "Decision (5-0): replace the whole cover" not in result.body


def test_a_bare_answer_is_said_beside_its_question() -> None:
    chat = [say("Rafa, can you have the quote done by Thursday?", "Imogen"), say("thursday.", "Rafa"),
            say("great, I'll book the van for Saturday 5th then", "Imogen")]
    body = card(chat).body
    assert "Rafa: Imogen asked “Can you have the quote done by Thursday" in body and "- Rafa: Thursday" not in body, body


def test_a_vote_between_options_counted_names_the_winner_and_a_call_ends_at_its_colon() -> None:
    chat = [say("ok let's vote on farid's proposal: hartley road library room from january, £18 a session split "
                "between us. hands up 🙋", "Imogen", when=_at(1, 19, 0)),
            say("yes obviously", "Farid", when=_at(1, 19, 1)), say("yes", "Theo", when=_at(1, 19, 1)),
            say("no, on principle", "Bronwen", when=_at(1, 19, 2)),
            say("3–1, carried. first library meeting tuesday 12 january, 7pm", "Imogen", when=_at(1, 19, 3)),
            say("2) january book. one vote each please", "Imogen", when=_at(1, 19, 4)),
            say("piranesi obviously", "Kasia", when=_at(1, 19, 5)), say("demon copperhead", "Bronwen", when=_at(1, 19, 5)),
            say("so piranesi 3, demon copperhead 2, remains of the day 0. sorry theo", "Imogen", when=_at(1, 19, 6))]
    decisions = _section(card(chat).body, "Decisions")
    assert "Carried (3–1): hartley road library room from january, £18 a session split between us." in decisions, \
        decisions
    assert "Decision (3–2): Piranesi, over demon copperhead." in decisions, decisions


def test_big_news_told_in_pieces_and_after_a_modest_lead_in() -> None:
    chat = [say("ok. i'm pregnant 🥹", "Nadia"), say("NADIA. oh my god. congratulations!!!", "Josh"),
            say("wait there's more", "Nadia"), say("more than a whole baby??", "Josh"), say("it's twins", "Nadia"),
            say("ok it's less dramatic than TWINS but i got a place on the physio masters at northumbria!! starts "
                "september", "Josh")]
    result = card(chat)
    assert result.name == "nadia-baby-news", result.name
    assert "I'm pregnant" in result.body
    assert "Josh got a place on the physio masters at northumbria" in result.description, result.description


def test_a_plan_the_venue_cancels_and_a_booking_moved_go_and_an_offered_day_is_ahead() -> None:
    chat = [say("they've got saturday 12th december at 4pm, or friday 11th at 7.30pm", "Ellie", when=_at(26, 20, 6)),
            say("saturday 4pm works for me", "Kwame", when=_at(26, 20, 7)),
            say("booking saturday 12th 4pm then! and pub after? the Brass Monkey is next door", "Ellie",
                when=_at(26, 20, 8)),
            say("i'll book the pub for after, 6ish", "Rob", when=_at(26, 20, 11)),
            say("ugh, the rink just emailed, they've had to cancel saturday's 4pm because of an ice hockey match. "
                "they've offered sunday 13th at 11am instead, same price", "Ellie",
                when=datetime(2026, 12, 8, 12, 40, tzinfo=timezone.utc)),
            say("dave's covering!! sunday 11am it is", "Rob", when=datetime(2026, 12, 8, 12, 55, tzinfo=timezone.utc)),
            say("i'll move the pub booking to lunch then, brass monkey at 1pm", "Rob",
                when=datetime(2026, 12, 8, 12, 57, tzinfo=timezone.utc))]
    body = card(chat).body
    assert "sunday 13th (13 December 2026)" in body, body
    for gone in ("Saturday (12 December 2026) 4pm works", "6ish", "or friday 11th"):
        assert gone not in body, gone
    assert "brass monkey at 1pm" in body


# ---- ninth session: settled days, pitched plans, vote sums, Chinese chat breaks, small talk --------------------

def curling() -> list[Message]:
    return [
        say("ok hear me out. curling. the Silverdale ice rink does taster sessions, £120 for a sheet for up to 6 people",
            "Ellie"),
        say("they've got saturday 13th may at 4pm", "Ellie"),
        say("saturday 4pm works for me", "Kwame"),
        say("the rink emailed, they've had to cancel saturday's 4pm. they've offered sunday 14th at 11am instead", "Ellie"),
        say("dave's covering my football!! sunday 11am it is", "Rob"),
        say("i've told them yes to sunday 14th 11am.", "Ellie"),
        say("i'll drive, the car fits 4", "Kwame"),
    ]


def test_a_settled_day_with_its_date_is_decided_and_said_once_in_the_description() -> None:
    result = card(curling())
    decisions = _section(result.body, "Decisions")
    assert "11am it is" in decisions and "told them yes to sunday 14th" in decisions, result.body
    assert result.description.startswith("Agreed: Sunday (14 May 2023) 11am."), result.description
    assert result.description.count("11am") == 1, result.description  # the yes to the rink says it again
    # Someone else's yes is no decision of the speaker's ("Marek said yes to the afternoon off")
    other = card([say("Marek said yes to the afternoon off for the nativity on friday", "Nadia"),
                  say("great, so we can both go to the dinner at the Granary", "Tomasz")])
    assert "Marek" not in _section(other.body, "Decisions"), other.body


def test_the_idea_pitched_first_names_the_plan() -> None:
    result = card(curling())
    assert result.name == "curling-plans", result.name
    assert "talked about curling on Monday 8 May 2023" in result.description, result.description
    # A pitch that is a speaker's name, or no pitch at all, names nothing this way
    plain = card([say("the Silverdale ice rink does taster sessions, £120 for a sheet", "Ellie"),
                  say("saturday 4pm works for me, booking it", "Kwame")])
    assert "curling" not in plain.name and "talked about" not in plain.description, plain


def test_sums_of_numbers_are_not_a_vote_between_options() -> None:
    meeting = [say("Sprint 14 planning. Shall we vote on the sprint goal later?", "Nadia"),
               say("Points-wise: crash fix 3, Payment Sheet 8, Android 8. Plus Owen's 5 and Leah's 5, that's 29.", "Rafa"),
               say("Add 2 for the refund path, 31.", "Owen"),
               say("Capacity is 34, so 31 is fine. Demo is Friday 19 May at 3pm.", "Nadia"),
               say("ok vote on the venue please", "Nadia"), say("so hall 3, garden 1", "Leah")]
    result = card(meeting)
    text = text_of(result)
    assert "Decision (29" not in text and "Decision (34" not in text, text
    assert "Decision (3–1): Hall, over garden." in _section(result.body, "Decisions"), result.body


def test_a_chinese_chat_line_broken_by_an_emoji_is_two_sentences_unless_the_second_follows_from_the_first() -> None:
    result = card([say("帮我算笔账🙏 我爸妈住在杭州，老小区，房子90平，1998年的房子，冬天屋里特别阴冷。主卧15平，没有空调。"),
                   say("可以。先说结论：主卧装空调最划算，客厅再加一台油汀。", role="assistant"),
                   say("我哥说他出一半😄 那就这么定：主卧装空调 + 客厅一台油汀。")])
    # The vague ask ("帮我算笔账") is framed by the sentence after it, and no ASCII full stop joins Chinese sentences
    assert result.description.startswith("用户的父母住在杭州，老小区"), result.description
    assert "." not in result.description.replace("...", ""), result.description
    # "那就…" follows from what came before it: one sentence, the decision with who pays half
    assert "我哥说他出一半，那就这么定" in _section(result.body, "决定"), result.body


def test_chinese_choices_and_givings_up_that_decide_nothing() -> None:
    result = card([say("给我爸配助听器，现在有两个选择，有点拿不定主意。医院的耳内式16800元，声活的耳背式9600元。"),
                   say("头几天觉得声音尖是正常的，别第一天就放弃。这几个数决定后面怎么控制。", role="assistant"),
                   say("那就先去声活试戴耳背式的。那天我带他回店里调试一次，然后决定买不买。我爸说他只是选择性耳聋")])
    decisions = _section(result.body, "决定")
    assert "那就先去声活试戴耳背式的" in decisions, result.body
    for undecided in ("两个选择", "放弃", "决定后面", "决定买不买", "选择性"):
        assert undecided not in decisions, (undecided, decisions)


def test_the_users_recap_is_kept() -> None:
    """"总结一下：后天去声活试戴耳背式，双耳；" is the plan in the user's words, kept over the advice around it."""
    from pathlib import Path

    from daemon.conversations.exports import read_export
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "conversations" / "review28_chinese_hearing_aid_claude.json"
    conversation = next(iter(read_export(fixture)))
    result = ExtractiveDistiller().distill(DistillRequest(conversation.session_id, date(2026, 12, 7),
                                                          conversation.messages, timezone=timezone.utc))
    assert "总结一下：后天（2026-12-09）去声活试戴耳背式" in result.body, result.body


def test_a_promise_someone_else_kept_and_a_day_ruled_out_are_not_the_plan() -> None:
    result = card([say("murder mystery dinner! next Friday at mine?", "Aisha"),
                   say("I'll order the kit. There's a 1920s one, £28.", "Dan"),
                   say("the 19th is our work christmas do. could we do the weekend after?", "Callum"),
                   say("Saturday 27th, mine, 7:30. Dress code 1920s", "Priya"),
                   say("dan did you order it?", "Aisha"),
                   say("no sorry completely forgot, been a mad day. I'll do it tonight", "Dan"),
                   say("nvm I ordered it. everyone send me £7 for the kit, that's the 28 split 4 ways", "Aisha")])
    text = text_of(result)
    assert "Next Friday (19 May 2023) at mine" not in text, text  # the day the work do ruled out
    assert "I'll order the kit" not in text and "I'll do it tonight" not in text, text  # Aisha ordered it
    assert "mad day" not in text, text
    assert "Everyone send me £7" in _section(result.body, "Current state and next steps"), result.body
    assert "Saturday 27th (27 May 2023), mine, 7:30" in text, text
    # A day confirmed for its reason is no clash: "Wednesday the 9th, it's her actual birthday" keeps the 9th
    kept = card([say("Don't forget Babcia's 90th is on Wednesday the 17th!! Dinner at Lucca, 7pm", "Hana"),
                 say("Wednesday the 17th? I'm away that week", "Joel"),
                 say("Wednesday the 17th, it's her actual birthday. I'll book a table for 14 on Friday 19th", "Hana")])
    assert "Babcia's 90th" in text_of(kept), kept.body


def test_small_talk_about_the_dark_and_a_cup_of_tea_gives_no_card() -> None:
    chat = [say("hiya 👋"), say("Hi! 👋 How's your evening going?", role="assistant"),
            say("not bad, just got in. it's been dark since like 4, I hate december lol"),
            say("It really does creep up on you this time of year.", role="assistant"),
            say("tea, it's only half 5 haha"), say("Very sensible. Tea it is.", role="assistant"),
            say("long week tbh but fine. ok I just wanted to say hi really"),
            say("That's nice of you. Hi back! 😊", role="assistant"), say("ok thanks, bye!")]
    assert distill(chat) == Skip(SKIP_REASON)
    # A time that is an appointment is something to remember
    booked = chat[:-1] + [say("oh and the dentist moved me to 5 tomorrow, at Dr Okafor's"), chat[-1]]
    assert isinstance(distill(booked), Card)


def test_a_tool_call_the_user_declined_is_not_reported_as_run() -> None:
    declined = "The user doesn't want to proceed with this tool use. The tool use was rejected."
    result = card([
        say("mix phx.server doesnt seem to start"),
        say("Let me try running the server to see the error.", role="assistant",
            blocks=({"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "mix phx.server 2>&1 | head"}},
                    {"type": "tool_use", "id": "t2", "name": "Glob",
                     "input": {"pattern": "mix.exs", "path": "/home/marco/projects/spotter"}})),
        say("", blocks=({"type": "tool_result", "tool_use_id": "t1", "content": declined, "is_error": True},
                        {"type": "tool_result", "tool_use_id": "t2", "content": declined, "is_error": True})),
        say("[Request interrupted by user for tool use]")])
    text = text_of(result)
    assert "Ran " not in text and "Looked at" not in text and "interrupted" not in text, text
    assert "- Declined by the user (not run): `mix phx.server 2>&1 | head`, `mix.exs`" in result.body, result.body
    assert "The user declined `mix phx.server 2>&1 | head` and 1 more call(s)." in result.description
    # A call that ran is reported as before, its search pattern named rather than the folder it searched
    ran = card([say("where is the mix file?"),
                say("Searching.", role="assistant", blocks=(
                    {"type": "tool_use", "id": "t1", "name": "Glob", "input": {"pattern": "mix.exs", "path": "/srv"}},)),
                say("", blocks=({"type": "tool_result", "tool_use_id": "t1", "content": "/srv/app/mix.exs"},)),
                say("It is at /srv/app/mix.exs, next to the lib folder.", role="assistant")])
    assert "Looked at: `mix.exs`" in ran.body, ran.body


def test_continue_is_no_task_and_looking_around_that_printed_nothing_is_no_work() -> None:
    result = card([
        say("continue implementation"),
        say("Let me check the current state.", role="assistant", blocks=(
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "git status --short"}},)),
        say("", blocks=({"type": "tool_result", "tool_use_id": "t1", "content": "(No content)"},)),
        say("Added trace ID response headers and error handling to the hook controllers.", role="assistant", blocks=(
            {"type": "tool_use", "id": "t2", "name": "Edit",
             "input": {"file_path": "lib/hooks.ex", "old_string": "a", "new_string": "b"}},)),
        say("", blocks=({"type": "tool_result", "tool_use_id": "t2", "content": "ok"},))])
    assert not result.description.startswith("Task:"), result.description
    assert "Edited `hooks.ex`" in result.description, result.description
    assert "git status" not in result.body, result.body
    # A task in words is still the task, and a look around that found something is still work
    told = card([say("add trace ID headers to the hook controllers"),
                 say("Checking.", role="assistant", blocks=(
                     {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "git status --short"}},)),
                 say("", blocks=({"type": "tool_result", "tool_use_id": "t1", "content": " M lib/hooks.ex"},)),
                 say("The controllers now send the trace ID header.", role="assistant")])
    assert told.description.startswith("Task: Add trace ID headers to the hook controllers."), told.description
    assert "`git status --short` → M lib/hooks.ex" in told.body, told.body


def test_an_agreed_proposal_without_its_lead_in_and_an_agenda_said_as_items() -> None:
    result = card([
        say("Agenda: 1) fundraising target 2) team t-shirts 3) AOB", "Priya"),
        say("£1,000 feels low", "Owen"), say("£1,500?", "Mei"), say("£1,500 for me", "Declan"),
        say("ok fair, that's 3 of you. so £1,500 team target, £300 each, and we bump it up if we pass it. everyone ok?",
            "Priya"),
        say("yes", "Owen"), say("yep", "Mei"),
        say("Proposal for the shirts: purple tech tees from Inkwell, £16.50 each. Everyone ok with that?", "Hattie"),
        say("yes", "Priya"), say("fine by me", "Declan")])
    decisions = _section(result.body, "Decisions")
    assert "Agreed: £1,500 team target, £300 each" in decisions, decisions
    assert "Agreed: Purple tech tees from Inkwell, £16.50 each." in decisions, decisions
    assert "fair, that's 3" not in decisions and "Proposal for" not in decisions, decisions
    assert "talked about fundraising target and team t-shirts on Monday 8 May 2023." in result.description, \
        result.description


def test_ill_be_honest_is_a_lead_in_not_a_plan() -> None:
    result = card([say("Lantern Late: a December evening opening, 6 to 9, tickets £6.", "Rosalind"),
                   say("I'll be honest, last year's open evening was chaos with 400 people in two hours.", "Beth"),
                   say("I'll book 12 volunteers by Friday.", "Beth")])
    steps = _section(result.body, "Current state and next steps")
    assert "I'll book 12 volunteers by Friday" in steps and "chaos" not in steps, result.body
    assert "I'll be honest" not in text_of(result), result.body


def test_praise_for_what_was_shown_is_a_reaction() -> None:
    result = card([say("I painted that lake sunrise last year! It's special to me.", "Melanie"),
                   say("Wow, Melanie! The colors really blend nicely. Your garden looks amazing too!", "Caroline"),
                   say("Thanks! I'm off to the Cotswolds gallery on Saturday to hang it.", "Melanie")])
    text = text_of(result)
    assert "blend nicely" not in text and "looks amazing" not in text, text
    assert "lake sunrise" in text and "Cotswolds gallery" in text, text
    # What someone says of a place they went is news, not praise: "The hotel in Porto was amazing, we got an upgrade"
    told = card([say("Back from Porto! The hotel was amazing, we got a free upgrade to a river view.", "Ana"),
                 say("Nice! Was the food good?", "Ben"), say("The food was incredible, we ate at Cantinho do Avillez.", "Ana")])
    assert "free upgrade" in text_of(told), told.body


def test_news_told_in_two_goes_is_one_piece_and_a_day_asked_about_then_replaced_is_gone() -> None:
    result = card([say("ok. i'm pregnant 🥹", "Nadia"), say("NADIA. oh my god. congratulations!!!", "Josh"),
                   say("wait there's more", "Nadia"), say("more than a whole baby??", "Josh"),
                   say("it's twins", "Nadia"), say("WHAT. no. TWO??", "Josh"),
                   say("i want to come and see you. when's good?", "Josh"),
                   say("how about saturday 13th?", "Nadia"),
                   say("oh wait, no. sam's parents are staying that weekend. sorry", "Nadia"),
                   say("the one after? saturday 20th it is then. i'll get the train down", "Josh"),
                   say("i'm hanging up", "Nadia")])
    text = text_of(result)
    assert "I'm pregnant. It's twins" in result.body, result.body
    assert "It's twins" in result.description, result.description
    assert "13 May 2023" not in text and "hanging up" not in text, text  # the day replaced, and a joke
    assert "20 May 2023" in text, text
    # A question with a day that nothing later replaced is kept as asked
    kept = card([say("Viewing the flat on Elm Road on Saturday 13th at 10, can you come?", "Nadia"),
                 say("yes! I'll bring the tape measure", "Josh")])
    assert "13 May 2023" in text_of(kept), kept.body


def test_a_long_statement_in_the_description_is_cut_at_a_clause_not_mid_phrase() -> None:
    from daemon.distill.describe import Point, describe
    long = ("Confirmed: without the option, touching `items` after the session closes raises the same error; with "
            "`selectinload(Order.items)` all 7 items are loaded up front, in 2 SELECTs instead of 313, and the job "
            "finishes in under a second on staging with the full customer list of 4,100 orders.")
    text = describe([Point("", long, "fact", "assistant")], request="Why does my nightly job crash?", day=date(2026, 11, 10))
    assert "all 7 items are loaded up front, in 2 SELECTs instead of 313…" in text, text  # (at the last comma)
    assert "and the job" not in text, text


def test_a_figures_legend_read_out_is_left_out() -> None:
    result = card([say("run the fixed one a few times on the same graph and show the mean"),
                   say("Here's the updated graph. The red dashed line represents the theoretical split frequency. "
                       "The green and blue dashed lines represent the mean and median across the runs. All five runs "
                       "converge to 0.5 within 2,000 draws, so the early dip was not a fluke.", role="assistant")])
    text = text_of(result)
    assert "dashed line" not in text, text
    assert "converge to 0.5 within 2,000 draws" in text, text
    # A line that is news, not a legend, stays: "The 8:15 line is closed on Sunday"
    kept = card([say("The Northern line is closed this Sunday for engineering works, so I'll take the bus to Camden.")])
    assert "Northern line is closed" in text_of(kept), kept.body


def test_how_it_turned_out_stays_in_a_long_description() -> None:
    result = card([
        say("I think I've lost my passport. Pretty sure I left it on the train back from York on Saturday, it was in "
            "the front pocket of my rucksack and now it's just… not. We fly to Marrakech on the 19th. What do I do?"),
        say("**Don't report it lost yet.** Check the car, coat pockets and the bag's lining first. If it hasn't turned "
            "up by this evening or tomorrow, report it lost on GOV.UK and apply for a replacement with Fast Track, "
            "which gets a new passport to you within a week of the appointment at a passport office.", role="assistant"),
        say("ok booked Fast Track, Thursday at 11:20 in Durham"),
        say("Good. Take the new photo code and your countersignatory's details.", role="assistant"),
        say("New passport arrived by courier this afternoon, the appointment on Thursday was fine, in and out in "
            "about 40 mins. Thanks!")])
    assert "New passport arrived by courier this afternoon" in result.description, result.description
    assert result.description.startswith("The user thinks they've lost their passport."), result.description
    # "fixed for 12 months" is a kind of savings account, not how it turned out
    saver = card([say("Which is better for my £2,400: a regular saver at 6.5% AER fixed for 12 months, or easy access "
                      "at 4.1%? I'm leaving in 20 months."),
                  say("Easy access: the regular saver only takes £250 a month, so most of the £2,400 would sit "
                      "outside it anyway.", role="assistant"),
                  say("Decided: the £2,400 goes into easy access now.")])
    assert "Decided: the £2,400 goes into easy access now." in saver.description, saver.description


def test_words_about_a_decision_decide_nothing() -> None:
    result = card([say("Is the team t-shirt purple?", "Owen"), say("Of course it is", "Declan"),
                   say("Purple it is then. From Inkwell at £16.50 each.", "Priya")])
    decisions = _section(result.body, "Decisions")
    assert "Of course" not in decisions and "Purple it is then" in decisions, result.body
    zh = card([say("决定很清楚。决定报崇礼！营费5280元，12月31日前交尾款。"),
               say("恭喜做了决定！记得12月31日前交尾款。", role="assistant")])
    decisions = _section(zh.body, "决定")
    assert "决定报崇礼" in decisions and "决定很清楚" not in decisions and "恭喜" not in decisions, zh.body


def test_a_build_error_is_named_by_its_first_error_not_its_count() -> None:
    result = card([
        say("the bin calendar ignores the council's christmas changes"),
        say("Let me build it.", role="assistant", blocks=(
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "npm run build"}},)),
        say("", blocks=({"type": "tool_result", "tool_use_id": "t1", "is_error": True, "content":
                         "> bindays@1.3.0 build\n> tsc -p .\n\nsrc/schedule.ts(22,13): error TS2322: Type 'string | "
                         "undefined' is not assignable to type 'string'.\n\nFound 1 error in src/schedule.ts:22"},)),
        say("Confirmed: `data/holiday-shifts.json` is never loaded, so I'll wire it in.", role="assistant", blocks=(
            {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "npm run build"}},)),
        say("", blocks=({"type": "tool_result", "tool_use_id": "t2", "content": "> bindays@1.3.0 build\n> tsc -p ."},))])
    assert "Ran `npm run build` → src/schedule.ts(22,13): error TS2322: Type 'string | undefined' is not assignable " \
           "to type 'string'; then ok" in result.body, result.body
    assert "Confirmed: `data/holiday-shifts.json` is never loaded" not in _section(result.body, "Decisions")
    # A booking confirmed is still settled
    booked = card([say("Confirmed: Saturday 12th at 4pm, the alchemist's study, £80 for four.", "Mei"),
                   say("amazing", "Rohan")])
    assert "Confirmed: Saturday 12th" in _section(booked.body, "Decisions"), booked.body


def test_a_vote_on_the_whole_motion_carries_the_proposal_put_before_it() -> None:
    result = card([
        say("1) lift. proposal: we send Brookfield Housing a formal complaint asking for (a) the lift fixed by friday "
            "19 may, (b) the £3.20 a week lift element refunded to every flat.", "Grace"),
        say("can we add (c) a carry service for anyone who can't manage the stairs?", "Marta"),
        say("good shout. so the amendment is: add (c) a carry service until the lift works. any objections?", "Grace"),
        say("none", "Hamid"),
        say("ok amendment's in. vote on the whole motion, (a) + (b) + (c)", "Grace"),
        say("for", "Olu"), say("for", "Marta"), say("for", "Hamid"),
        say("i'll abstain, my brother in law works for the lift contractor", "Colin"),
        say("fair enough. and i'm for. so 4 for, 0 against, 1 abstention. carried.", "Grace")])
    decisions = _section(result.body, "Decisions")
    assert "Carried (4 for, 0 against): we send Brookfield Housing a formal complaint" in decisions, decisions
    assert "1 abstention." not in decisions.split("Carried", 1)[1][:30], decisions
    # "Fair enough, scrap it" still decides
    scrap = card([say("No bouncy castle this year?", "Sunita"), say("yeah. fair enough, scrap it", "Ewan")])
    assert "scrap it" in text_of(scrap), scrap.body


def test_smaller_news_but_is_a_lead_in() -> None:
    result = card([say("ok enough about me, what's going on with you", "Marisol"),
                   say("smaller news but... i've adopted a parrot. an african grey called Pilot, he's 23.", "Dev"),
                   say("DEV. a parrot?? you can barely keep a cactus alive", "Marisol")])
    assert "I've adopted a parrot" in result.body and "smaller news" not in text_of(result).lower(), result.body


def test_a_booking_told_as_background_and_a_decision_still_awaited_decide_nothing() -> None:
    result = card([
        say("Need help writing a complaint. Booked direct on their website, deluxe sea view double, 2 nights, £236 "
            "total, pay at the hotel. They've now charged me £506, have they just taken £506 off me??"),
        say("It isn't taken; it reserves the money. The £90 late check-out is the real overcharge.", role="assistant"),
        say("ok, sent it. next steps are waiting: the refund decision (up to 10 working days)."),
        say("Good. If they refuse, you can ask your bank about a chargeback.", role="assistant")])
    decisions = _section(result.body, "Decisions")
    assert "Booked direct" not in decisions and "waiting" not in decisions, result.body
    assert "Decided" not in result.description, result.description


def test_how_long_a_meeting_runs_is_no_plan_and_comfort_is_a_lead_in() -> None:
    result = card([say("Agenda: 1) NYE gig 2) the EP. Aim to be done by 9, sam has to put kids to bed", "Niamh"),
                   say("Dave at the crown & anchor confirmed NYE, £400 for two sets", "Niamh"),
                   say("I'll send the setlist round by Sunday", "Olu")])
    steps = _section(result.body, "Current state and next steps")
    assert "done by 9" not in text_of(result) and "I'll send the setlist round by Sunday" in steps, result.body
    zh = card([say("女儿9岁，视力右眼4.7、左眼4.8，怎么办？"),
               say("先别慌，9岁发现、度数应该还不高，现在开始控制是来得及的。建议先去医院散瞳验光。", role="assistant")])
    text = text_of(zh)
    assert "先别慌" not in text and "9岁发现、度数应该还不高" in text, zh.body


def test_a_drafted_letters_formulas_and_seems_fair_are_left_out() -> None:
    result = card([
        say("can you draft the complaint to the Harbourside Hotel? they charged me £90 for a late check-out"),
        say("Here's a draft.\n\nDear Sir or Madam,\n\nI was charged £90 for a late check-out on 22 November although I "
            "left at 10:40; the car park ticket shows the time. Please refund the £90.\n\nYours faithfully,\nJo Bloggs",
            role="assistant"),
        say("Seems fair. Sent it, with the car park ticket attached.")])
    text = text_of(result)
    for formula in ("Dear Sir", "Yours faithfully", "Seems fair"):
        assert formula not in text, (formula, text)
    assert "£90" in text, text


def test_could_be_done_is_how_not_what_is_done() -> None:
    result = card([say("Representing the board as a space could be done using a simplicial complex from Gudhi."),
                   say("Yes: Gudhi's SimplexTree holds it, and its persistence() gives the holes.", role="assistant")])
    assert "could be done" not in _section(result.body, "Current state and next steps"), result.body
    done = card([say("The migration is done and merged, 14 tables moved to Postgres 16."),
                  say("Great, next drop the old MySQL replica.", role="assistant")])
    assert "migration is done" in _section(done.body, "Current state and next steps"), done.body


def test_news_told_as_someone_and_i_is_news_and_names_the_card() -> None:
    result = card([say("call me when you can, it's nothing bad", "Freya"), say("ok go, i'm sitting down", "Callum"),
                   say("lewis and i are moving to new zealand. i've got a job as a farm vet in gore", "Freya"),
                   say("WHAT. like MOVING moving??", "Callum"),
                   say("yep! flights are booked for tuesday 2nd march", "Freya"),
                   say("also i passed my driving test on thursday, fourth time lucky", "Callum")])
    assert result.description.startswith("Lewis and Freya are moving to new zealand."), result.description
    assert result.name == "freya-move-to-new-zealand", result.name


def test_leaving_the_group_chat_is_a_joke() -> None:
    result = card([say("Booked: lockbox, the alchemist's study, saturday 13th 4:30pm, £96 so £24 each", "Kezia"),
                   say("reviews say it's harder than the bank job", "Kezia"),
                   say("I'm leaving the group", "Rohan"), say("£24 sent kez", "Rohan")])
    assert "leaving the group" not in text_of(result), result.body
    assert "Booked: lockbox" in _section(result.body, "Decisions"), result.body


def test_of_two_outcomes_the_one_that_settled_it_is_told() -> None:
    result = card([
        say("Slightly panicking. Got a council tax reminder today: I missed the £181.24 instalment and I live on my "
            "own, why is there no discount on the bill??"),
        say("Pay the £181.24 within 7 days to keep paying by instalments, and apply online for the 25% single person "
            "discount; it can be backdated to when you moved in.", role="assistant"),
        say("ok done, paid it and applied for the discount online too, they said up to 10 working days to process."),
        say("Good. Keep the receipt.", role="assistant"),
        say("update!! discount approved on 3 dec and backdated to 1 oct, new bill is £498.41 for the rest of the year"),
        say("Brilliant, that's £226.55 saved.", role="assistant")])
    assert "Discount approved on 3 dec" in result.description, result.description
    assert not result.description.startswith("Slightly panicking"), result.description


def test_a_test_confirmed_is_a_finding_not_a_booking() -> None:
    result = card([
        say("my nightly job crashes with DetachedInstanceError when it touches order.items after the session closes"),
        say("Load the items up front with `selectinload(Order.items)`.", role="assistant"),
        say("Confirmed: without the option, touching `items` after the session closes raises the same error; with it "
            "all 7 items load in 2 SELECTs.")])
    assert "Confirmed: without the option" not in _section(result.body, "Decisions"), result.body


def test_a_chinese_outcome_reported_after_the_answer_is_told() -> None:
    result = card([
        say("我在杭州租房，现在用联通100M宽带，每月79元，月底合约到期。帮我算算宽带怎么选？"),
        say("各地规定不一样：同城移机一般免费或收几十元；搬到别的城市通常没法移，只能按提前解约算违约金。电信99元融合套餐"
            "含300M宽带和手机套餐，比你现在两项加起来每月便宜38元。", role="assistant"),
        say("办好了！电信99元融合套餐，24个月，装机约在下周三下午2点到5点。")])
    assert "办好了" in result.description, result.description


PASSPORT = [
    say("i think i've lost my passport, left it on the LNER train from york on saturday. we fly to marrakech on the 19th"),
    say("**Don't report it lost just yet.** Once you report a passport lost on GOV.UK it is cancelled for good. "
        "Fill in LNER's lost property form today, giving the train and a description of the passport. "
        "**If it hasn't turned up by tomorrow evening**, report it lost on GOV.UK and apply for Fast Track (1 week, "
        "£178) at a passport office.", role="assistant"),
]


def test_advice_the_user_then_acted_on_gives_way_to_what_they_did() -> None:
    result = card(PASSPORT + [
        say("filled in the LNER form, nothing matching. not feeling lucky so i've reported it lost on gov.uk"),
        say("Good call. Book the Fast Track appointment next.", role="assistant"),
        say("new passport arrived by courier this afternoon!")])
    said = text_of(result)
    assert "Don't report it lost" not in said, said  # (a don't the user then did is past)
    assert "If it hasn't turned up" not in said, said  # (so is a condition the user then acted on)
    assert "i've reported it lost on gov.uk" in _section(result.body, "Current state and next steps"), result.body
    # (told plainly, the step stays: it says how; but the description tells what came of it, not the instruction)
    assert "lost property form" in result.body, result.body
    assert "lost property form" not in result.description, result.description


def test_advice_stands_while_the_user_has_not_acted_on_it() -> None:
    result = card(PASSPORT + [say("ok will do, thanks. what does fast track cost again?"),
                              say("£178 for an adult, paid when you book.", role="assistant")])
    assert "Don't report it lost" in result.body, result.body
    assert "If it hasn't turned up" in result.body, result.body


def test_a_condition_that_names_a_suspect_is_no_instruction() -> None:
    result = card([
        say("my bosch washer shows E18 with the drum full of water"),
        say("E18 means it couldn't pump the water out. Clean the pump filter behind the flap at the bottom right. "
            "If it still shows E18 after that, the next suspects are the drain hose (kinked behind the machine) or "
            "the sink trap.", role="assistant"),
        say("cleaned the filter, found a hair grip in it. it drained!")])
    assert "the next suspects are the drain hose" in result.body, result.body


def test_a_joke_about_ones_own_cup_or_knees_is_no_fact() -> None:
    result = card([
        say("my nightly job crashes with DetachedInstanceError when it touches order.items"),
        say("Load the items up front with `selectinload(Order.items)` so they exist after the session closes.",
            role="assistant"),
        say("Added selectinload, all green now. thanks a lot, coffee number 4 ☕ is kicking in")])
    assert "offee number" not in text_of(result), result.body
    assert "all green now" in text_of(result), result.body
    meeting = card([
        say("1) the lift. it's been out since monday 16 november. proposal: complaint letter to the landlord", "Grace"),
        say("yes. my knees vote yes twice", "Olu"),
        say("my knees hurt on the stairs since the 16th, the physio says no more than two flights a day", "Bev"),
        say("so 5 for, 0 against. carried. i'll draft the letter by monday", "Grace")])
    assert "knees vote" not in text_of(meeting), meeting.body
    assert "physio says no more than two flights" in meeting.body, meeting.body  # (the knees that tell of a person)


def test_a_figure_read_out_is_no_fact() -> None:
    result = card([
        say("simulate the average distance between two U(0,1) draws and graph it as it converges"),
        say("Here's the graph. The blue line shows the average distance as the simulation progresses. The red dashed "
            "line represents the theoretical average of 1/3. Both values stabilize as the number of simulations "
            "increases.", role="assistant"),
        say("now compare the tracker and the 5-year fix over the term"),
        say("Here's the chart. The 5-year fix costs £1,240 less over the term than the tracker at today's rates. "
            "The orange bars show the yearly payments.", role="assistant")])
    text = text_of(result)
    assert "line" not in text and "stabilize" not in text and "bars" not in text, result.body
    assert "£1,240 less over the term" in text, result.body  # (what came out, with its number, stays)


def test_an_instruction_an_agent_carried_out_with_tools_is_no_fact() -> None:
    result = card([
        say("start phoenix in background"),
        say("[tool Bash: Start Phoenix server in background]", role="assistant"),
        say("Phoenix server is starting in the background.", role="assistant"),
        say("scrolling back in xterm.js still does not work (maybe the outer page catches it)? websearch xterm.js "
            "tmux interactions"),
        say("[tool WebSearch: xterm.js scroll not working embedded page]\n[tool Read: /srv/app/assets/js/app.js]",
            role="assistant")])
    assert "ebsearch xterm" not in result.body, result.body  # (the work lists the search it ran)
    assert "xterm.js scroll not working" in result.body, result.body
    assert "scrolling back in xterm.js still does not work" in result.description, result.description


def test_a_word_said_louder_and_a_tag_question_are_still_small_talk() -> None:
    chat = [say("hiya 👋 it's SO windy here tonight, the bins are doing laps of the street lol"),
            say("That sounds wild. There's something cosy about being indoors while the wind howls.", role="assistant"),
            say("made a hot chocolate with the little marshmallows, got a blanket, the works"),
            say("That's the ideal windy-night setup.", role="assistant"),
            say("right?? the cat is NOT impressed by the wind though. she's hiding behind the sofa"),
            say("Very sensible cat. Behind the sofa is the safest spot in any storm.", role="assistant"),
            say("haha true. anyway just wanted to say hi. thanks for the chat, night!")]
    assert isinstance(distill(chat), Skip)
    # An acronym is a thing talked of: the same chat about the NHS app is remembered.
    about = chat[:4] + [say("the NHS app says my flu jab is booked though. the cat is hiding behind the sofa")] + chat[5:]
    assert isinstance(distill(about), Card)


def test_the_outing_pitched_names_the_card_and_an_answer_on_they_carries_its_question() -> None:
    day = datetime(2026, 11, 30, 18, 40, tzinfo=timezone.utc)
    result = card([
        say("ok who's up for ice skating at the hallam square rink next friday after work?", "Leila", when=day),
        say("yesss. my sister Inês lands in 10 days, she can come too", "Ana", when=day),
        say("tuesday 15th then, 8pm session. then mulled wine after?", "Leila", when=day),
        say("she gets in thursday so she'll be over the jet lag by then", "Ana", when=day),
        say("is the chalet bar bookable or do we just turn up?", "Ana", when=day),
        say("checked, they don't take bookings under 6 people so we rock up after, about 9:15", "Leila", when=day),
        say("BOOKED: tuesday 15 dec, 8pm session, 4 tickets", "Leila", when=day)])
    assert result.name == "ice-skating", result.name
    assert "about ice skating at the hallam square rink" in result.description, result.description
    assert "“Is the chalet bar bookable or do we just turn up?” — Checked, they don't take bookings" in result.body, \
        result.body
    # "in 10 days" gave a Thursday: "she gets in thursday" is that one, not this week's.
    assert "thursday (10 December 2026)" in result.body, result.body
    # A question that names no one carries nothing: "Isn't that where they had their 25th?" — "They want a deposit".
    other = card([
        say("Rang the Granary, private room takes 24, set menu £45 a head", "Yara", when=day),
        say("isn't that where they had their 25th?", "Caspar", when=day),
        say("they want a £200 deposit by next tuesday to hold the room", "Yara", when=day)])
    assert "“Isn't that where" not in other.body, other.body


def test_a_corrected_figure_a_bare_question_and_a_traceback() -> None:
    t = datetime(2026, 11, 29, 20, 0, tzinfo=timezone.utc)
    result = card([
        say("my budget script says the trip costs £412.40 but my partner's sheet says £412.60. items: hotel 2 x "
            "150.00, rail 2 x 48.50, parking 15.10", when=t),
        say("Let me check the arithmetic.\n\n- 2 × 150.00 = 300.00\n- 2 × 48.50 = 97.00\n- 1 × 15.10 = 15.10\n\nTotal **£412.10**. That's "
            "neither of your figures, so can you check the parking?", role="assistant", when=t),
        say("oops, it's 15.30 not 15.10", when=t),
        say("Then Python's `round()` rounds halves to even, so `round(0.125, 2)` gives 0.12, which is where your 20p "
            "goes.", role="assistant", when=t),
        say("can't i just add 0.001 before rounding and call it a day lol", when=t),
        say("You *can*, but I wouldn't: it still relies on float representation. Use `Decimal` with `ROUND_HALF_UP`.",
            role="assistant", when=t),
        say("tried it and got this:\n\n```\nTraceback (most recent call last):\n  File \"trip.py\", line 9, in <module>\n"
            "    total = parking * rate\nTypeError: unsupported operand type(s) for *: 'decimal.Decimal' and 'float'\n```",
            when=t),
        say("Convert the rate with `Decimal(str(rate))` where you load it.", role="assistant", when=t),
        say("that did it! TRIP-7 now comes out at £412.60, same as the sheet", when=t)])
    text = text_of(result)
    assert "1 × 15.10" not in text and "£412.10" not in text, text  # (the wrong figure and the sum made of it)
    assert "parking 15.30" in text, text  # (the user's own words, put right)
    assert "“Can't I just add 0.001 before rounding?” — You can, but I wouldn't" in result.body, result.body
    assert "call it a day" not in text, text
    assert "TypeError: unsupported operand" in text and "Traceback (most" not in text, text
    assert "That did it: TRIP-7 now comes out at £412.60" in result.description, result.description


def test_a_goodbye_for_the_moment_is_no_decision() -> None:
    result = card([
        say("GET /api/classes/42 blows up with LazyInitializationException on bookings"),
        say("Fetch the bookings in the repository query with a join fetch, and keep open-in-view off.", role="assistant"),
        say("that worked, two selects now. I'll write the Testcontainers test tomorrow. Off to do the bedtime story "
            "now, she's picked the longest book again 😅")])
    assert "bedtime story" not in text_of(result), text_of(result)
    assert "Testcontainers test tomorrow" in result.body, result.body
    assert ".." not in result.description, result.description


def test_a_figure_put_right_as_actually_and_an_answers_summary() -> None:
    result = card([
        say("sanity check: e-bike vs my bus pass 🚲\n\n- commute is 14 miles each way, 5 days a week\n- bus pass is "
            "£80 a month\n- which bike: the Arrow (£1,600) or the Drift (£1,950)?"),
        say("Annual miles: 14 × 2 × 5 × 46 = 6,440 miles. Is 14 the cycling route?", role="assistant"),
        say("checked the route planner, it's actually 10.5 miles via the river path. 14 was google maps driving"),
        say("Then it's 10.5 × 2 × 5 × 46 = 4,830 miles a year. The Arrow has a hub motor, the Drift a mid-drive, "
            "which matters on hills. Electricity is about £15 a year and tyres, chain and a service about £150. Your "
            "bus pass costs £960 a year, and the Drift is 2kg lighter on the stairs.\n\nSummary:\n"
            "- The Drift costs £350 more.\n- Payback vs the bus about 2.4 years.", role="assistant"),
        say("ok decided: the Drift. thanks")])
    text = text_of(result)
    assert "14 miles" not in text and "6,440" not in text, text
    assert "10.5 miles each way" in text, text
    assert "Payback vs the bus about 2.4 years" in result.body, result.body
    assert "bus pass. Commute is" in result.description or "Commute is" not in result.description, result.description


def test_news_told_in_pieces_stays_one_piece_of_news() -> None:
    day = datetime(2026, 12, 9, 19, 40, tzinfo=timezone.utc)
    result = card([
        say("long time! how's things?", "Tariq", when=day),
        say("ok so. i adopted a dog 🐕 two weeks ago. a retired greyhound from the Greyhound Trust in Halifax. his name "
            "is Biscuit", "Hollie", when=day),
        say("NO WAY. anyway i went to Marrakech with Yasmin last month, did i tell you?", "Tariq", when=day),
        say("no?? how was it", "Hollie", when=day),
        say("what does he like as a treat?", "Tariq", when=day),
        say("cheese. he'd sell me for cheese", "Hollie", when=day),
        say("cheese it is. see you on the 19th", "Tariq", when=day)])
    assert "I adopted a dog two weeks ago (25 November 2026). A retired greyhound from the Greyhound Trust in Halifax. " \
        "His name is Biscuit" in result.body, result.body
    assert "Marrakech with Yasmin last month (November 2026)." in result.body, result.body  # (told, not asked)
    assert not result.description.startswith("Agreed: Cheese"), result.description


def test_a_decision_that_only_settles_keeps_the_decision_it_settles() -> None:
    t = datetime(2026, 12, 3, 12, 0, tzinfo=timezone.utc)
    result = card([
        say("帮我看看两家装修公司的报价吧😂\n\nA. 匠心装饰：全包38,600元，含水电改造，质保5年。\nB. 住美家：32,000元，水电另算，质保2年。\n\n我其实倾向B。",
            when=t),
        say("先别急着选B：B的水电改造没含，老房子一般要5,000–8,000元。让住美家把水电价格写进报价单。", role="assistant", when=t),
        say("问了，水电大概6,500，那B就是38,500了，跟A差不多啊", when=t),
        say("对，综合来看匠心更划算：全包固定价，质保5年 vs 2年，厨房水管出问题一般在两三年后才暴露。", role="assistant", when=t),
        say("好，那就定匠心吧，不折腾了。", when=t),
        say("好的，签合同前确认不增项和分期付款比例。", role="assistant", when=t),
        say("更新一下：价格降到36,800了。老婆也同意了👍 就这么定了。", when=t)])
    assert "那就定匠心吧" in result.body and "那就定匠心吧" in result.description, result.description
    assert "（20" not in result.body.split("两三年后")[1][:3] if "两三年后" in result.body else True, result.body
    assert "报价吧." not in result.description, result.description  # (an emoji after Chinese ends it with 。)


def test_the_plan_a_chat_opens_on_names_its_card() -> None:
    def named(opener: str, reply: str = "yes!! saturday works, i'll drive") -> str:
        day = datetime(2026, 11, 20, 18, 0, tzinfo=timezone.utc)
        return card([say(opener, "Ayo", when=day), say(reply, "Kit", when=day),
                     say("booked for saturday at 10, £45 each, I'll send you the link", "Ayo", when=day)]).name
    assert named("ok WREATH WORKSHOP 🌲 Brackenhill Farm has spaces next Saturday at 10am, £45 each") == \
        "wreath-workshop"
    assert named("GEMINIDS. peak is the weekend after next. are we finally doing the dark sky park or what") == \
        "geminids-plans"
    assert named("Kit, hospital finally rang. Dad's knee op is next Thursday at St Vincent's, 7am") == "dads-knee-op"
    assert named("ok edinburgh. are we actually doing this or is it another group chat fantasy") == "edinburgh-plans"
    # A name shouted, or a word said louder, names no plan.
    assert named("KIT. guess what, the wreath workshop at Brackenhill Farm has spaces next Saturday") != "kit-plans"
    assert not named("FINALLY. the wreath workshop at Brackenhill Farm has spaces next Saturday").startswith("finally")


def test_a_sold_out_slot_is_no_plan_and_booking_another_is() -> None:
    day = datetime(2026, 11, 19, 18, 0, tzinfo=timezone.utc)
    result = card([
        say("wreath workshop at Brackenhill Farm, spaces next Saturday at 10am or Sunday at 2pm. £45 each", "Esme", when=day),
        say("Saturday for me", "Orla", when=day),
        say("same", "Rahul", when=day),
        say("Saturday 28th 10am it is then", "Esme", when=day),
        say("nightmare. the Saturday 10am sold out overnight. they've got Saturday 5th at 10 still", "Esme",
            when=day + (datetime(2026, 11, 20) - datetime(2026, 11, 19))),
        say("5th works for me", "Orla", when=day + (datetime(2026, 11, 20) - datetime(2026, 11, 19))),
        say("Booking the 5th before that goes too", "Esme", when=day + (datetime(2026, 11, 20) - datetime(2026, 11, 19)))])
    assert "28th (28 November 2026) 10am it is" not in result.body, result.body
    assert "Booking the 5th (5 December 2026)" in result.body, result.body
    assert "Esme is booking the 5th" in result.description, result.description


def test_a_day_asked_about_then_moved_is_no_plan() -> None:
    day = datetime(2026, 11, 25, 12, 0, tzinfo=timezone.utc)
    result = card([
        say("Rang the Granary, they can do the private room for mum and dad's anniversary. Can we go and look at the "
            "room together this Friday?", "Yara", when=day),
        say("Friday is my work Christmas do, forgot. Can we do Saturday morning instead?", "Caspar", when=day),
        say("Ok moved to Saturday 11am at the Granary.", "Yara", when=day)])
    assert "this Friday (27 November 2026)?" not in result.body, result.body
    assert "Saturday (28 November 2026) 11am at the Granary" in text_of(result), text_of(result)


def test_a_question_put_to_the_one_who_answers_says_who_asked_it() -> None:
    day = datetime(2026, 11, 20, 18, 0, tzinfo=timezone.utc)
    result = card([
        say("cabin's booked for the 4th, £390 split three ways. Euan can you pick me up from work at 1?", "Tamsin",
            when=day),
        say("Yep. 1pm outside your office", "Euan", when=day),
        say("how's Juniper?", "Tamsin", when=day),
        say("She ate a sock. £180 at the vet, she's fine now", "Euan", when=day)])
    assert "Euan: Tamsin asked “Can you pick me up from work at 1?” — Yep." in result.body, result.body
    assert "Euan: Tamsin asked “How's Juniper?” — She ate a sock" in result.body, result.body  # (whoever asked is said)


def test_a_catch_up_keeps_who_him_is_where_they_moved_and_the_time_agreed() -> None:
    day = datetime(2026, 12, 3, 19, 0, tzinfo=timezone.utc)
    result = card([
        say("NADIA. it's been forever. did the move actually happen??", "Owen", when=day),
        say("did the move actually happen??", "Nadia", when=day),
        say("it did! moved into the new flat in glasgow on the 14th. Partick, third floor, 62 stairs", "Owen", when=day),
        say("ok unrelated but how is the ANCIENT REPTILE", "Owen", when=day),
        say("gordon is asleep. he went into hibernation last saturday", "Nadia", when=day),
        say("asleep where?", "Owen", when=day),
        say("in the fridge. the vet said a fridge is safer than the shed, it keeps him at a steady 5 degrees", "Nadia",
            when=day),
        say("did lisbon happen in the end?", "Owen", when=day),
        say("it did, me and Farah went 6th to 10th november. 11 pastéis de nata in 4 days", "Nadia", when=day),
        say("tuesday the 29th?", "Owen", when=day),
        say("29th works. come to my parents' at 2", "Nadia", when=day),
        say("perfect, 2pm on the 29th", "Owen", when=day)])
    assert result.name == "owen-move-to-glasgow", result.name
    assert "Gordon is asleep. He went into hibernation" in result.body, result.body  # (whom "him" is)
    assert "lisbon" in result.body.lower(), result.body  # ("it did" answers the question that names it)
    assert "in 4 days (" not in result.body, result.body  # (so many in so long: no date)
    assert "2pm on the 29th (29 December 2026)" in result.body, result.body


def test_an_amendment_and_the_motion_as_amended_are_two_results() -> None:
    day = datetime(2026, 12, 1, 19, 0, tzinfo=timezone.utc)
    lines = [("Helen", "agenda: 1) the fun run money 2) AOB"), ("Bridget", "minutes going, all five of us here, no apologies"),
             ("Aisha", "I propose we spend £2,000 on a story shed for the KS1 playground"),
             ("Tomasz", "amendment: £1,600 on the shed and £400 on Year 6 books instead of cushions"),
             ("Helen", "ok let's vote on Tomasz's amendment first: shed £1,600, £400 on Year 6 books. for?"),
             ("Tomasz", "for"), ("Marcus", "for"), ("Bridget", "for"), ("Aisha", "against"),
             ("Helen", "amendment carried 3 to 1. now the motion as amended: £2,000 total, £1,600 story shed, £400 "
                       "Year 6 books. for?"),
             ("Tomasz", "for"), ("Marcus", "for"), ("Bridget", "for"), ("Aisha", "I'll abstain"),
             ("Helen", "carried 3 for, 0 against, 1 abstention. that leaves £610 in reserve")]
    result = card([say(text, who, when=day) for who, text in lines])
    assert "Amendment carried (3 to 1): shed £1,600, £400 on Year 6 books" in result.body, result.body
    assert "Carried (3 for, 0 against, 1 abstention): £2,000 total, £1,600 story shed" in result.body, result.body
    assert "no apologies" not in text_of(result).lower(), result.body


def test_a_users_problem_said_above_their_query_and_a_why_without_its_mark() -> None:
    result = card([
        say("i do the monthly report. we have 61 active members and i get 38 rows\n\n```sql\nSELECT m.name, "
            "COUNT(l.id) FROM members m LEFT JOIN loans l ON l.member_id = m.id WHERE l.borrowed_at >= '2026-11-01' "
            "GROUP BY m.name;\n```\n\nit's a LEFT join so why are they vanishing 😩"),
        say("Try forcing a 0:\n\n```sql\nSELECT m.name, COALESCE(COUNT(l.id), 0) FROM members m LEFT JOIN loans l "
            "ON l.member_id = m.id WHERE l.borrowed_at >= '2026-11-01' GROUP BY m.name;\n```", role="assistant"),
        say("tried it, still 38 rows"),
        say("Sorry, that suggestion was wrong. The real cause is the `WHERE` clause: move the date condition into the "
            "`ON` clause.\n\n```sql\nSELECT m.name, COUNT(l.id) FROM members m LEFT JOIN loans l ON l.member_id = m.id "
            "AND l.borrowed_at >= '2026-11-01' GROUP BY m.id;\n```", role="assistant"),
        say("61 rows 🎉 23 people with 0 loans. thank you!!")])
    assert "we have 61 active members and i get 38 rows" in text_of(result).lower(), text_of(result)
    assert "why are they vanishing" in result.description, result.description
    assert "COALESCE(COUNT" not in result.body, result.body  # (the suggestion that did not work)
    assert "61 rows" in result.description.lower(), result.description


def test_the_safety_net_and_advice_for_one_day_lead_no_description() -> None:
    result = card([
        say("my boiler keeps losing pressure. I top it up to 1.5 bar and 3 days later it's at 0.5"),
        say("**Red flags, stop and act straight away:** if you smell gas, turn it off at the meter and call the "
            "National Gas Emergency number **0800 111 999**. If the car sits for a week, a trickle charger keeps it "
            "topped up. Losing pressure means water is leaving the sealed system: check the relief valve's pipe "
            "outside for drips.", role="assistant"),
        say("found it, the pipe outside is dripping. I'll ring Worcester on Monday about the guarantee")])
    assert "Red flags" not in result.description and "If the car sits" not in result.description, result.description
    assert "ring Worcester on Monday" in result.description, result.description


def test_a_users_sum_the_answer_puts_right_is_no_fact() -> None:
    result = card([
        say("regular saver at 6.5%, £250 a month for 12 months. how much interest?"),
        say("About £88 over the year.", role="assistant"),
        say("wait why only £88 on the regular saver? 6.5% of 3000 is 195"),
        say("Because you never have £3,000 in it for a whole year: the average balance is about £1,625, and 6.5% of "
            "that is roughly £88–£106.", role="assistant")])
    assert "is 195" not in result.body, result.body
    assert "average balance is about £1,625" in result.body, result.body


def test_an_answer_that_explains_is_no_current_state_and_its_next_steps_are() -> None:
    result = card([
        say("my ferry booking query takes 9 seconds, here's the EXPLAIN ANALYZE"),
        say("The plan tells the whole story: a Parallel Seq Scan over the whole bookings table. Add an index on "
            "`bookings(route_id, sailing_date)`.\n\nNext steps:\n1. create the index concurrently;\n2. run ANALYZE.",
            role="assistant"),
        say("index added, 9 s down to 12 ms")])
    state = result.body.split("## Current state and next steps")[-1] if "## Current state" in result.body else ""
    assert "Parallel Seq Scan" not in state, result.body
    assert "create the index concurrently" in state.lower(), result.body


def test_days_proposed_alone_give_way_to_the_days_booked() -> None:
    day = datetime(2026, 11, 25, 18, 0, tzinfo=timezone.utc)
    result = card([
        say("found a place called Gull Cottage in Robin Hood's Bay, sleeps 4, £315 for two nights", "Freya", when=day),
        say("fri 11th to sun 13th", "Dev", when=day),
        say("can't do the 11th, it's our work christmas do", "Callum", when=day),
        say("sat 12th to mon 14th then? i can take the monday off", "Freya", when=day),
        say("yes", "Dev", when=day),
        say("BOOKED: gull Cottage, sat 12 dec – mon 14 dec, 2 nights. Ref HC-88412", "Freya", when=day)])
    assert "Fri 11th (11 December 2026) to sun 13th" not in result.body, result.body
    assert "sat 12 dec (2026) – mon 14 dec (2026), 2 nights" in result.description, result.description


def test_a_typo_and_a_misread_figure_are_put_right() -> None:
    day = datetime(2026, 12, 2, 19, 0, tzinfo=timezone.utc)
    meeting = card([
        say("agenda: 1) money 2) water butts", "June", when=day),
        say("balance in the account is £1,870 after the seed order", "Priya", when=day),
        say("sorry, typo, £1,780. I always swap those", "Priya", when=day),
        say("water butts: 10 at £48, £480 from the balance. vote?", "June", when=day),
        say("for", "Priya", when=day), say("for", "Alan", when=day), say("for", "Okeke", when=day),
        say("carried 3 to 0", "June", when=day)])
    assert "£1,870" not in meeting.body, meeting.body
    t = datetime(2026, 12, 5, 10, 0, tzinfo=timezone.utc)
    zh = card([
        say("帮我比较两家温泉酒店：A 云溪1,280元一晚含温泉；B 松岭960元一晚，温泉另买票。", when=t),
        say("B便宜不少：960×2 = 1,920元。", role="assistant", when=t),
        say("哎我看错了，960是平日价，周六是1,060元。", when=t),
        say("那重新算：B 1,060×2 = 2,120元，加温泉票392元，共2,512元，和A的2,560元差不多。", role="assistant", when=t),
        say("那就定A云溪吧，温泉含在里面省事。", when=t)])
    assert "松岭1,060元一晚" in zh.body or "松岭960" not in zh.body, zh.body
    assert "960×2" not in zh.body, zh.body


def test_a_vote_called_on_a_motion_carries_it_and_who_voted_against_is_no_motion() -> None:
    day = datetime(2026, 12, 3, 19, 0, tzinfo=timezone.utc)
    lines = [("Gwen", "agenda: 1) water butts 2) AOB"), ("Rashid", "10 water butts at £48 from Greenfields, £480 all in"),
             ("Pauline", "ok let's vote on the butts, £480 as Rashid proposed. for?"), ("Gwen", "for"), ("Rashid", "for"),
             ("Bea", "for"), ("Ollie", "against. the hose people should pay"), ("Pauline", "4 for, 1 against (Ollie). carried")]
    result = card([say(text, who, when=day) for who, text in lines])
    assert "Carried (4 for, 1 against): the butts, £480 as Rashid proposed." in result.body, result.body
    assert "): (Ollie)" not in result.body, result.body


def test_wait_no_puts_right_the_figure_just_said() -> None:
    day = datetime(2026, 12, 6, 11, 0, tzinfo=timezone.utc)
    result = card([
        say("ok first: how's the baby??", "Ben", when=day),
        say("my sister Leah had a little girl on the 19th of november. Rosie Grace. 7lb 10oz", "Maya", when=day),
        say("wait no, 7lb 1oz. 7lb 10 was Marco's guess in the sweepstake", "Maya", when=day),
        say("aww congrats auntie!", "Ben", when=day)])
    assert "Rosie Grace. 7lb 1oz" in result.body and "7lb 10oz" not in result.body, result.body
    assert "ozlb" not in result.body and not re.search(r"7lb 1oz[a-z]", result.body), result.body  # (put right whole)


def test_she_is_the_one_named_at_the_head_of_a_sentence_not_a_bare_answer() -> None:
    day = datetime(2026, 11, 29, 15, 0, tzinfo=timezone.utc)
    result = card([
        say("you've had that dog forever", "Rosalind", when=day),
        say("Since 2015, yes 😂 Anyway, bad news too: Biscuit had surgery", "Femi", when=day),
        say("oh no what happened", "Rosalind", when=day),
        say("She ate a whole corn cob out of the neighbours' bin and it got stuck in her gut. The vet bill was £1,870",
            "Femi", when=day)])
    assert "Biscuit had surgery. She ate a whole corn cob" in result.body, result.body


def test_a_bullet_with_no_list_after_it_ends_with_a_full_stop() -> None:
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "conversations" / \
        "review30_meeting_choir_concert_messages.json"
    conversation = next(iter(read_export(fixture)))
    result = distill(list(conversation.messages))
    assert isinstance(result, Card)
    assert not any(line.rstrip().endswith(":") for line in result.body.splitlines() if line.startswith("- ")), \
        result.body


def test_a_choice_settled_keeps_what_its_message_adds_and_a_bare_choice_heads_nothing() -> None:
    chat = [say("right. burns night. the weekend after next, sat 20th, at mine, 7pm?", "Isla"),
            say("sat works. i'll do the address to a haggis", "Ewan"),
            say("i'll do cranachan. raspberries in may 🙄 frozen it is", "Niamh"),
            say("i'm on a night shift that saturday. sorry!!", "Niamh"),
            say("the friday or the sunday then?", "Isla"),
            say("sunday's fine for me. i'll collect the haggis friday", "Tom"),
            say("sunday 21st it is then. earlier though, 6pm. still at mine, same jobs as before. "
                "Tom can you bring chairs?", "Isla")]
    result = card(chat)
    assert result.name == "burns-night"
    decision = next(line for line in result.body.splitlines() if "it is then" in line)
    assert "6pm" in decision and "Still at mine" in decision and "chairs" not in decision
    assert result.description.startswith("Agreed: Sunday 21st (21 May 2023). Earlier though, 6pm.")
    assert "Frozen" not in result.description and "talked about burns night on" in result.description


def test_a_pasted_traceback_asks_about_its_error_and_how_it_ended_is_kept() -> None:
    result = card([
        say("flask + sqlite question. i run a little web app for our beekeeping club, 38 members log inspections on it. "
            "error log:\n\n```\nTraceback (most recent call last):\n  File \"/srv/hivelog/app.py\", line 88, in save\n"
            "    db.commit()\nsqlite3.OperationalError: database is locked\n```"),
        say("Something holds the write lock. What else writes to the database?", role="assistant"),
        say("a cron job imports the hive scales at 19:00, 12 scales, about 40,000 rows a night, takes ~94 seconds"),
        say("Switch to WAL mode and commit the import in batches of 500.", role="assistant"),
        say("done, import rewritten with executemany, app timeout back down to 10. ran the import while my partner "
            "saved forms. no errors at all. and the import took 11 seconds instead of 94!!"),
        say("Good.", role="assistant"),
        say("update: two nights since the change and zero 'database is locked' in the log (was 23 on sunday night)"),
        say("Excellent.", role="assistant")])
    assert "sqlite3.OperationalError: database is locked" in result.description, result.description
    assert "Traceback (most" not in result.description and "40,000 rows a night" not in result.description
    body = result.body
    assert "zero 'database is locked' in the log" in body, body  # (where it ended, reported later)
    assert "saved forms. No errors at all." in body, body  # (a few words of outcome join what they are of)
    assert not re.search(r"(?m)^- No errors at all", body), body


def test_an_aside_in_brackets_after_a_long_title_does_not_stop_it_naming_the_card() -> None:
    from daemon.distill.describe import name_from_title
    texts = ["sqlite database is locked when the flask app saves during the cron import"]
    assert name_from_title("SQLite database is locked (Flask + cron import)", "en", texts) == "sqlite-database-is-locked"
    assert name_from_title("Invoice total 2p out (Python rounding)", "en", ["invoice total python rounding"]) == \
        "invoice-total-2p-out-python-rounding"


def test_a_committee_meeting_keeps_each_vote_the_deferral_and_drops_the_running_order() -> None:
    chat = [say("evening all. committee, 13 January. agenda: 1) pitch covers 2) subs 3) bar refurb", "Marcus"),
            say("item 1, covers. Kwame", "Marcus"),
            say("a new set is £6,900. Ashby CC are selling theirs for £3,400, i looked on saturday", "Kwame"),
            say("proposal: we buy Ashby's covers for £3,400. hands up", "Marcus"),
            say("for", "Helen"), say("against. minute it please", "Rory"),
            say("and i'm for. Siobhan?", "Marcus"),
            say("2 for, 1 against (Rory). carried", "Siobhan"),
            say("item 2, subs for 2027", "Marcus"),
            say("I'd like us to go for adult subs of £150, juniors £50", "Helen"),
            say("too much after christmas, can we do £135 and keep juniors at £45", "Rory"),
            say("all in favour of adult £135, juniors £45?", "Marcus"),
            say("all three for. carried", "Siobhan"),
            say("item 3, bar. only one quote so far, Pennine Joinery, £8,500", "Siobhan"),
            say("agreed. bar refurb deferred to the march meeting. Siobhan chase the other two quotes", "Marcus"),
            say("AOB? no. next meeting wednesday 10 march, 7:30 in the pavilion", "Marcus"),
            say("bring cake", "Rory")]
    result = card(chat)
    body = result.body
    decisions = body.split("## Decisions", 1)[1].split("##", 1)[0]
    assert "Siobhan: Siobhan:" not in body, body
    assert "Carried (2 for, 1 against): we buy Ashby's covers for £3,400." in decisions, decisions
    assert "Carried (all three for): adult £135, juniors £45." in decisions, decisions
    assert "deferred to the march meeting" in decisions, decisions
    assert "“AOB?”" not in body and not re.search(r"(?im)^- \w+: item \d", body), body
    assert "£150" not in body, body  # (the subs proposed, then others agreed)


def test_a_yes_to_a_question_about_an_offer_is_not_joined_to_the_answerers_older_news() -> None:
    chat = [say("i'm going up to Leicester next weekend to help mum out", "Priya"),
            say("ok when are we actually seeing each other, it's been since october", "Tomasz"),
            say("next weekend's Leicester. the saturday after next?", "Priya"),
            say("done. come to ours for dinner, Ana's making pierogi. 7ish?", "Tomasz"),
            say("yes!! i'll bring dessert", "Priya")]
    body = card(chat).body
    assert not re.search(r"Leicester[^\n]*“7ish\?”", body), body


def test_need_without_its_i_is_the_users_and_going_with_a_name_decides() -> None:
    result = card([
        say("need to sort out backups for our family photos before something dies. which is cheaper over 5 years, "
            "Cumulus at £79.99 a year or a NAS at £480?"),
        say("Cumulus: £399.95 over 5 years. The NAS: £480 plus about £160 of electricity.", role="assistant"),
        say("ok going with Cumulus 2TB annual and ordering a new 4TB drive tonight.")])
    assert result.description.startswith("The user needs to sort out backups for their family photos"), \
        result.description
    assert "Going with Cumulus 2TB annual" in result.body.split("## Decisions", 1)[1].split("##", 1)[0], result.body
    # A plan with someone is no decision: "going with Sarah to the cinema".
    from daemon.distill.extractive import _classify
    assert _classify("I'm going with Sarah to the cinema on Friday.", None) != "decision"


def test_chinese_booked_out_a_wish_and_a_narrowed_choice_are_no_decisions() -> None:
    from daemon.distill.extractive import _classify
    for said in ("还有大厅除夕早就订满了，只剩包间。", "套餐里有个水煮鱼，想换成清蒸鲈鱼",
                 "单看价格C最便宜，但你的初衷是不让婆婆累，那就主要在A和B之间选。"):
        assert _classify(said, None) != "decision", said
    assert _classify("**下周三（1月27日）之前**：跟饭店把水煮鱼换成清蒸鲈鱼。", None) == "state"
    for said in ("定了，就订聚福楼包间，17:00那场。", "那就换成清蒸鲈鱼吧", "那就选A"):
        assert _classify(said, None) == "decision", said
    result = card([say("年夜饭订哪家？A聚福楼3,888元，B江南小馆2,688元。"),
                   say("单看价格B便宜，但B只有大厅。", role="assistant"),
                   say("定了，就订聚福楼包间，17:00那场。"),
                   say("太好了，那就都安排妥了。", role="assistant")])
    assert "安排妥了" not in result.body and "聚福楼包间" in result.body


def test_thank_god_at_the_end_of_a_sentence_is_an_aside() -> None:
    from daemon.distill.extractive import _trim
    assert _trim("A customer with a sesame allergy spotted it, thank god.", frozenset()) == \
        "A customer with a sesame allergy spotted it."
    assert _trim("Thank god it was only the fuse.", frozenset()) == "Thank god it was only the fuse."


def test_a_visit_the_chat_opens_on_names_it_and_what_is_booked_for_a_day_leads() -> None:
    chat = [say("mum just rang. her and dad want to come down this saturday for the weekend, is that ok??", "Sam"),
            say("ok yes, it's been ages. the spare room is full of bike stuff", "Noor"),
            say("ugh. CrossCountry have cancelled their saturday train, there's a strike", "Sam"),
            say("could they come friday? i think friday trains are running", "Noor"),
            say("tickets sorted. mum's booked them on the 11:20 on friday, gets into temple meads 16:48", "Sam"),
            say("great, i'll pick them up, i finish at 3 on fridays", "Noor"),
            say("spare room is CLEAR. took 3 hours and i found my old skateboard", "Sam")]
    result = card(chat)
    assert result.name == "parents-visit", result.name
    assert result.description.startswith("Mum's booked them on the 11:20 on friday (12 May 2023)"), result.description
    assert "skateboard" not in result.description, result.description


def test_the_chair_calling_on_someone_is_no_question_their_answer_needs() -> None:
    chat = [say("item 2, the projector. Niall?", "Marguerite"),
            say("the Epson lamp is on 2,850 hours out of 3,000, so it could go any time.", "Niall"),
            say("and ticket prices. Bram?", "Marguerite"),
            say("St Aidan's is putting the hall hire up from £40 to £55 a night from January.", "Bram")]
    body = card(chat).body
    assert "“Niall?”" not in body and "“Bram?”" not in body, body
    assert "Niall: The Epson lamp" in body, body


def test_what_the_user_then_decided_replaces_the_advice_in_the_description() -> None:
    result = card([
        say("trying to work out if i should get rid of my car. it's a 2014 fiesta, worth maybe £3,000."),
        say("**My recommendation:** sell the Fiesta before the MOT in January and join the car club.", role="assistant"),
        say("hmm. mum's having her cataract op in february and rings me at short notice for lifts."),
        say("That's a real factor the numbers don't capture.", role="assistant"),
        say("yeah i think i'm keeping it for one more year. i'll get the clutch done in january.")])
    assert "keeping it for one more year" in result.description, result.description
    assert "sell the Fiesta" not in result.description, result.description
    assert "sell the Fiesta" in result.body  # (the advice stays in the body, under its heading)
    from daemon.distill.extractive import _classify
    assert _classify("I'm keeping it simple for now", None) != "decision"


def test_what_the_user_meant_to_do_with_what_they_then_turned_down_no_longer_holds() -> None:
    result = card([
        say("I have £2,400 doing nothing. Options: easy access at 3.6%, or a 12-month fixed bond, 4.2%, I'd put the "
            "£2,400 in that. Which is better over 20 months?"),
        say("The bond earns about £15 more, but it locks the money up for a year.", role="assistant"),
        say("ok the £2,400 goes into easy access now, not the bond, £15 isn't worth locking it up for a year.")])
    text = text_of(result)
    assert "I'd put the £2,400 in that" not in text and "would put the £2,400 in that" not in text, text
    assert "not the bond" in result.description, result.description


def test_how_is_a_name_in_lower_case_says_whom_the_answer_is_about() -> None:
    chat = [say("we got the keys to the flat on saturday!!", "Josh"),
            say("amazing!! and how's pickle? the last thing i heard was the hair tie incident", "Nadia"),
            say("ugh. yes. she swallowed a hair tie, had to have surgery to get it out, £1,400 thank god for insurance",
                "Josh"),
            say("and how's work? still at the bank?", "Nadia"),
            say("still there. i'm leaving at the end of august", "Josh")]
    body = card(chat).body
    assert "Pickle: she swallowed a hair tie" in body, body
    assert "Work:" not in body, body


def test_approved_answers_a_sum_asked_for_with_what_it_is_for() -> None:
    chat = [say("Speaking of parts, I need brake cables, inner tubes and brake pads for the bike table. £60?", "Kemal"),
            say("Approved. Order them by 4 December so they arrive in time", "Odile"),
            say("You're moving?", "Kemal"), say("We are. End of February.", "Odile")]
    body = card(chat).body
    assert "“I need brake cables, inner tubes and brake pads for the bike table, £60?” — Approved." in body, body
    assert "Speaking of parts" not in body and "“We are" not in body, body


def test_a_chinese_choice_said_with_jiu_huan_decides_and_its_nod_goes() -> None:
    result = card([say("电池不行了。三个方案：1. 换铅酸电池，实付480 2. 换锂电池1300 3. 直接换新车2999，帮我看看哪个划算"),
                   say("如果公司能充电，方案1就够了。", role="assistant"),
                   say("行 就换铅酸的吧。后天上午去装。")])
    decisions = result.body.split("## 决定", 1)[1].split("##", 1)[0]
    assert "- 就换铅酸的吧" in decisions, result.body
    from daemon.distill.extractive import _classify
    assert _classify("11月28日看房，没问题就报价6200元/月，签两年。", None) != "decision"


def test_a_name_told_after_the_news_goes_with_its_headline() -> None:
    from daemon.distill.describe import Point, _headline
    news = Point("John", "I signed with a new team - excited for the season! The Minnesota Wolves!", "fact")
    assert _headline(news).text == "I signed with a new team, the Minnesota Wolves."
    plain = Point("John", "I signed with a new team - excited for the season! Training starts Monday.", "fact")
    assert _headline(plain).text == "I signed with a new team."


def test_a_chinese_correction_puts_right_the_figure_in_its_unit_only() -> None:
    result = card([say("A. 聚福楼：12人桌3,888元，包间加收10%服务费。离公婆家走路10分钟。B. 江南小馆：10人桌2,688元。帮我算算哪个合适"),
                   say("A 的包间加 10% 服务费后是 4,276.8 元。", role="assistant"),
                   say("刚给聚福楼打了电话：包间服务费是5%，不是10%。那就订聚福楼。")])
    text = text_of(result)
    assert "加收5%服务费" in text and "走路10分钟" in text and "10人桌" in text, text
    assert "5分钟" not in text and "5人桌" not in text, text


def test_no_apologies_said_alone_is_the_roll_call_not_a_decision() -> None:
    from daemon.distill.extractive import _is_filler
    for said in ("No apologies", "no apologies, a miracle.", "All six of us here, no apologies."):
        assert _is_filler(said, frozenset(), True), said
    assert not _is_filler("No wine this time, we're at the library.", frozenset(), True)


def test_a_list_keeps_every_item_even_a_little_word() -> None:
    from daemon.distill.extractive import _trim
    said = "These are the two-way prepositions: an, auf, hinter, in, neben, über, unter, vor, zwischen."
    assert _trim(said, frozenset()) == said


def test_a_short_list_with_asides_in_brackets_stays_under_its_lead() -> None:
    from daemon.distill.extractive import _sentences
    said = "一般带这些:\n- 身份证原件\n- 手机(要收验证码)\n- 租房合同(有的营业厅用来核对装机地址)\n"
    assert _sentences(said) == ["一般带这些：身份证原件、手机(要收验证码)、租房合同(有的营业厅用来核对装机地址)。"]
    long = "Steps:\n- Open the settings app and go to the network page first\n- Restart the router and wait\n"
    assert len(_sentences(long)) > 1  # (a list of sentences stays a list)


def test_a_long_title_names_the_card_by_the_problem_before_its_colon() -> None:
    from daemon.distill.describe import name_from_title
    texts = ["the postgres manifest query is slow, a seq scan on bookings"]
    assert name_from_title("Postgres manifest query slow: Seq Scan on bookings", "en", texts) == \
        "postgres-manifest-query-slow"
    # (a two-word topic label before the colon names nothing by itself)
    assert name_from_title("Discord bot: naive vs aware datetime TypeError in reminders", "en",
                           ["discord bot naive aware datetime"]) != "discord-bot"


def test_a_meeting_named_in_a_few_words_after_the_hellos_is_named_by_them() -> None:
    chat = [say("Morning everyone, quick one before we open. Christmas pre-orders. Last year we sold out of stollen by "
                "the 15th.", "Ingrid"),
            say("With one oven, 180 max, if I start at 5 on the 21st.", "Bao"),
            say("Price?", "Ingrid"), say("£14. Butter is up 30%.", "Carmen"), say("£14 it is. No gluten-free.", "Ingrid"),
            say("I'll put the price notes on the shop page by Thursday.", "Femi")]
    result = card(chat)
    assert result.name == "christmas-pre-orders", result.name
    greeting = [say("It's been forever! Hello stranger. How are you?", "Maya"),
                say("I got the job at Northwind Solar!!", "Ben")]
    assert card(greeting).name not in ("its-been-forever", "hello-stranger")


def test_a_niece_born_is_big_news_that_names_the_catch_up() -> None:
    chat = [say("hello stranger!! how are you?", "Maya"), say("good! you first", "Ben"),
            say("my sister Leah had a little girl on the 19th. Rosie Grace. 7lb 1oz", "Maya"),
            say("aww congrats auntie!", "Ben"),
            say("and i got my first V3 at the climbing wall last week!!", "Maya"),
            say("nice. i handed my notice in, joining Northwind Solar in january", "Ben")]
    result = card(chat)
    assert result.name == "maya-new-niece", result.name
    assert result.description.startswith("Maya's sister Leah had a little girl"), result.description


def test_a_film_watched_on_a_rainy_sofa_is_small_talk_and_ha_is_laughter() -> None:
    chat = [say("afternoon ☔ it has not stopped raining ALL day here"),
            say("Afternoon! Have you managed to make it cosy at least?", role="assistant"),
            say("yeah, sofa, big mug of tea, and i just watched Some Like It Hot for the first time. how did i never "
                "see it before"),
            say("Great choice for a rainy afternoon.", role="assistant"),
            say("HA the ending!! i laughed out loud on my own like a weirdo 😂"),
            say("Not weird at all. Sounds like a lovely lazy Sunday.", role="assistant"),
            say("it really is. anyway that's all, just wanted to share. thanks for the chat!"),
            say("Thanks for sharing! Enjoy the rest of your Sunday and stay dry.", role="assistant")]
    assert isinstance(distill(chat), Skip)
    planned = chat[:2] + [say("we're seeing Some Like It Hot at the Curzon on thursday with Priya, 7pm")] + chat[3:]
    assert "Curzon" in text_of(card(planned))


def test_done_by_a_day_says_when_of_what_its_message_said_before() -> None:
    chat = [say("Actions. I'll book the studio for auditions on Tuesday 12th.", "Delphine"),
            say("I'll order the scripts. 14 copies at £6.50, so £91. Done by the 11th.", "Cormac"),
            say("great", "Delphine")]
    body = card(chat).body
    assert "I'll order the scripts. 14 copies at £6.50, so £91. Done by the 11th" in body, body
    assert not re.search(r"(?m)^- Cormac: Done by", body), body


def test_a_meetings_result_in_the_description_is_not_put_in_a_speakers_mouth() -> None:
    from daemon.distill.describe import Point, _as_note
    result = Point("Ayesha", "Decision: launch moves from March 12 to March 26.", "decision")
    assert _as_note(result, "en", True, after="Diego") == "Decision: launch moves from March 12 to March 26."
    news = Point("Elif", "The whole family is going to Izmir.", "fact")
    assert _as_note(news, "en", True, after="Ronan") == "Elif: The whole family is going to Izmir."


def test_ill_have_it_brings_what_it_is_from_the_sentence_before() -> None:
    chat = [say("Okay, decision: sprint goal is wallet payments via Stripe Payment Sheet.", "Nadia"),
            say("I need the webhook endpoint, /payments/webhook, for payment_intent.succeeded. I'll have it on staging "
                "by Wednesday.", "Owen"),
            say("Designs by Thursday so Rafa can start Friday.", "Leah")]
    body = card(chat).body
    assert "/payments/webhook" in next(line for line in body.splitlines() if "on staging" in line), body


def test_a_choice_named_by_a_word_of_one_option_carries_it_and_the_others_are_not_plans() -> None:
    result = card([
        say("家里的热水器坏了，师傅给了两个方案，哪个好：\n"
            "1. 修一下，换个温控器，280元，明天就能修\n"
            "2. 换新的燃气热水器，3200元，双十二活动到下周三"),
        say("热水器用了九年了，修了也可能再坏；不过温控器是常见故障，修好一般还能用两三年。", role="assistant"),
        say("好吧 先修的吧。"),
    ])
    assert "修一下，换个温控器，280元" in _section(result.body, "决定"), result.body
    assert result.description.startswith("决定：修一下，换个温控器，280元"), result.description
    assert "3200元" not in result.description and "3200元" not in _section(result.body, "现状与下一步")
    english = card([
        say("My laptop battery is dying. Options from the repair shop, which one:\n"
            "- a new battery for the ThinkPad, £89, fitted tomorrow\n"
            "- a refurbished X1 Carbon for £420, offer ends next Friday"),
        say("The ThinkPad is otherwise fine; a battery is the cheaper fix.", role="assistant"),
        say("going with the battery then."),
    ])
    assert "the battery then (a new battery for the ThinkPad, £89, fitted tomorrow" in _section(english.body, "Decisions"), \
        english.body
    assert "£420" not in english.description
    # A choice that names no option, or more than one, carries none.
    both = card([
        say("Options from the repair shop, which one:\n- a new battery for the ThinkPad, £89\n"
            "- a refurbished ThinkPad X1 for £420"),
        say("going with the ThinkPad then."),
    ])
    assert "then (" not in both.body, both.body


def test_a_while_in_the_sun_and_lazy_sundays_are_small_talk() -> None:
    chat = [say("hiya, lazy sunday here"), say("Hi! Lazy Sundays are the best kind. How's it going?", role="assistant"),
            say("sat in the garden with a cuppa for about 20 mins before it clouded over lol"),
            say("Twenty sunny minutes with a cuppa still counts as a win!", role="assistant"),
            say("tell me a joke"), say("I'm reading a book about anti-gravity. It's impossible to put down.",
                                       role="assistant"),
            say("groan. right, off to put the kettle on, thanks!"), say("Enjoy your tea!", role="assistant")]
    assert isinstance(distill(chat), Skip)
    # A number of the user's own that is no while in passing still makes a card.
    planned = chat[:2] + [say("the plumber comes at 2 and wants £80 cash for the leak under the sink")]
    assert isinstance(distill(planned), Card)


def test_a_booking_moved_to_another_time_says_both() -> None:
    body = card([
        say("the boiler service is due, can someone be in?", "Mum"),
        say("booked, 10:15 on saturday 27th with Halton Gas. already paid", "Mum"),
        say("i've got swimming at 10, can it be later?", "Ruth"),
        say("just rang them, it's moved to 11:40, same day. still paid", "Mum"),
        say("perfect, i'll be in", "Ruth"),
    ]).body
    assert "11:40 (moved from 10:15) on saturday 27th" in body, body
    assert "moved to 11:40" not in body
    # A time moved with nothing booked before it stays as said.
    plain = card([say("the dentist moved my appointment to 11:40 on friday with Dr Shah", "Mum"),
                  say("ok i'll drive you, leaving at 11 from the house", "Ruth")]).body
    assert "moved my appointment to 11:40" in plain, plain


def test_a_figure_scratched_is_put_right_by_the_one_that_stands() -> None:
    body = card([
        say("item 3, listener figures for the sponsor pack", "Gwen"),
        say("weekly reach for the sponsor pack is 12,400, up from 8,900 a year ago", "Mo"),
        say("nice", "Dev"),
        say("sorry, scratch that. 12,400 was the christmas quarter. latest quarter is 9,800. still up on 8,900", "Mo"),
        say("let's use 9,800 then. sponsors do check", "Gwen"),
    ]).body
    assert "12,400, up from" not in body and "12,400" not in body.replace("12,400 was", ""), body
    # A figure said again without taking it back stands.
    kept = card([say("weekly reach is 12,400, up from 8,900 a year ago", "Mo"),
                 say("and 12,400 is our best quarter ever, the carol simulcast did it", "Mo")]).body
    assert "12,400" in kept, kept


def test_a_recap_labels_what_was_settled_and_an_items_short_sentences_stay_with_it() -> None:
    result = card([
        say("I pay £29.99/month for the gym and only use the rower. Compare buying one over 3 years?"),
        say("Send me the options you're looking at with the price and I'll work it out.", role="assistant"),
        say("options:\n1. Concept2 RowErg: new. £990. Ships in a week.\n2. Used Model D: marketplace, 2019. £700. "
            "PM5 monitor.\n3. Rental: £39/mo. No commitment."),
        say("The used Model D pays for itself in about 24 months against your membership.", role="assistant"),
        say("got him down to £650, collecting saturday. cancelling the gym."),
        say("**Buying**: used Concept2 Model D (2019, PM5), £650, collecting Saturday.\n"
            "**Cancelling**: the gym (£29.99/mo), before the next payment.", role="assistant"),
    ])
    assert "**Buying**: used Concept2 Model D" in _section(result.body, "Decisions"), result.body
    assert "Buying: used Concept2 Model D" in result.description, result.description
    assert "Send me the options" not in result.body
    assert "Rental: £39/mo; No commitment" in result.body or "No commitment" not in result.body, result.body
    assert not re.search(r"(?m)^- (?:£700|PM5 monitor|Ships in a week)\.?$", result.body), result.body
    from daemon.distill.extractive import _is_filler
    assert _is_filler("Woof back to Biscuit!", frozenset())
    assert not _is_filler("Walk back to Biscuit's vet, the one on Mill Lane, by 5pm", frozenset())


def test_the_description_leads_with_the_choice_made_and_how_it_turned_out() -> None:
    result = card([
        say("I have a used Kia Niro EV. Three tariffs: Lumen fix 24.5p, Economy 7, or Ohm NightDrive 8.5p at night. "
            "Which one is actually cheapest for us?"),
        say("NightDrive: about £1,211 a year; the Lumen fix £1,424; Economy 7 £1,455.", role="assistant"),
        say("ok decision made: NightDrive it is! I'll set the car to charge 00:30 to 05:30."),
        say("Summary: switch to Ohm NightDrive (about £1,211 a year), charge only in 00:30–05:30.", role="assistant"),
    ])
    assert "Summary: switch to Ohm NightDrive" in result.description, result.description
    assert "The user will set the car" not in result.description
    settled = card([
        say("Northwell say we owe £1,148.60 after a year of estimates. Do I have to pay it all?"),
        say("No: back-billing rules stop them charging for energy more than 12 months old. Complain in writing.",
            role="assistant"),
        say("update!! Dean from their complaints team rang. They've accepted the back-billing rule applies and "
            "they're knocking off the £517.30 🎉 tom is now claiming he always said we shouldn't pay"),
    ])
    assert "They've accepted the back-billing rule applies" in settled.description, settled.description
    started = card([
        say("My 2017 Fiesta won't start, just clicking. Flat battery?"),
        say("Almost certainly. Jump it, then drive for at least 30 minutes, and have the battery tested.",
            role="assistant"),
        say("Halfords said it needed an EFB battery, £139 fitted. It's started first time every morning since."),
    ])
    assert "It's started first time every morning since" in started.description, started.description
    assert "Then drive" not in started.description


def test_a_day_that_works_of_two_offered_decides_it() -> None:
    result = card([
        say("bad news: Joanne can't do Saturday any more, she's away", "Nadia"),
        say("good: she can do tomorrow at 7pm instead, or Sunday. it's in her mum's garage in Chorlton", "Nadia"),
        say("tomorrow works. Sunday I'm at my nan's all day", "Tariq"),
        say("I'll get the cash out tonight, £150", "Nadia"),
    ])
    assert "Decided: tomorrow (9 May 2023) at 7pm, not Sunday." in _section(result.body, "Decisions"), result.body
    # "Friday works" with no two days offered is no decision, nor a line of its own.
    plain = card([say("can you sign the agreement with Mr Okafor by this Friday?", "Grace"),
                  say("Friday works. I'll bring the keys for the gym too", "Tobias")])
    assert "Decided" not in plain.body, plain.body
    assert not re.search(r"(?m)^- (?:Tobias: )?Friday(?: \([^)]*\))? works\.?$", plain.body), plain.body


def test_a_pun_groaned_at_between_friends_is_small_talk_and_hens_picked_up_bring_what_they_are() -> None:
    puns = [say("afternoon, how's your day", "Ines"), say("slow. it just hailed. for about 90 seconds", "Dara"),
            say("british spring: four seasons before lunch", "Ines"),
            say("what do you call a fake noodle", "Dara"), say("don't", "Ines"), say("an impasta", "Dara"),
            say("i'm blocking you", "Ines"), say("i'm here all week", "Dara"), say("laters", "Ines")]
    assert isinstance(distill(puns), Skip)
    from daemon.distill.extractive import _is_filler
    assert _is_filler("I'm blocking you", frozenset()) and not _is_filler("I'm blocking the drive with the van "
                                                                          "until 6pm on Friday", frozenset())
    news = card([say("how's the new flat??", "Tamsin"),
                 say("great. and we have residents in the garden", "Ravi"),
                 say("if you say rats i'm hanging up", "Tamsin"),
                 say("hens! ex-battery hens from the rescue. we picked them up two weeks ago", "Ravi"),
                 say("STOP. how many?", "Tamsin"), say("three. Dolly laid the first egg on tuesday", "Ravi")]).body
    if "picked them up" in news:
        assert re.search(r"hens from the rescue\. We picked them up", news), news


def test_a_branch_of_an_answer_decides_nothing() -> None:
    from daemon.distill.extractive import _classify
    assert _classify("**会换**（差价对你们很重要）：那就报，一年省约4,650元。", None) != "decision"
    assert _classify("**If you'd switch anyway**: go with the lottery, it saves £400.", None) != "decision"
    assert _classify("**Buying**: the used Model D, £650, collecting Saturday.", None) == "decision"


def test_a_share_worked_out_again_from_the_same_total_puts_the_old_one_right() -> None:
    body = card([
        say("found a flat in Leith, £312 for the two nights. so £104 each", "Leila"),
        say("book it", "Marcus"),
        say("rota came out and i'm working that whole weekend, i'm out", "Jonah"),
        say("messaged the host, we're down to 2 guests and the price stays £312. so it's £156 each", "Leila"),
        say("sending the other £52 tonight", "Marcus"),
    ]).body
    assert "£156 each (was £104)" in body, body
    # Another price "each" (the tees) leaves the share it has nothing to do with.
    other = card([
        say("agreed: £1,500 team target, £300 each for the hospice", "Priya"),
        say("tees from Inkwell are in. so it's £16.50 each, paid by us", "Owen"),
    ]).body
    assert "£300 each" in other and "(was £300)" not in other, other


def test_a_step_given_another_day_by_a_decision_leaves_no_line_with_its_old_day() -> None:
    result = card([
        say("小猫两个月大，疫苗怎么打？"),
        say("**12月5日**：第一针猫三联\n**12月26日**：第二针猫三联\n**2027年1月16日**：第三针猫三联 + 狂犬疫苗",
            role="assistant"),
        say("12月26号我们不在家，那就1月2号打第二针，1月23号打第三针加狂犬。"),
        say("可以，间隔4周没问题。", role="assistant"),
    ])
    assert "1月23号打第三针" in result.body
    assert "1月16日" not in result.body and "12月26日" not in result.body, result.body
    assert "12月5日" in result.body  # (the first shot keeps its day)


def test_a_title_after_a_two_word_topic_label_names_the_card() -> None:
    from daemon.distill.describe import name_from_title
    texts = ["acm validation records are unknown until apply in terraform for_each", "entered card details scam text"]
    assert name_from_title("Terraform for_each: ACM validation records unknown until apply", "en", texts) == \
        "acm-validation-records-unknown-until-apply"
    # What the label did, said after it, keeps the label.
    assert name_from_title("Scam text: entered card details on fake Royal Mail site", "en", texts) == \
        "scam-text-entered-card-details"


def test_a_bare_not_answers_the_question_asked_before_a_short_aside() -> None:
    body = card([
        say("My boiler keeps losing pressure, 0.5 bar every morning. Worcester Greenstar."),
        say("That points at the expansion vessel; an engineer recharges it for £80–£150.", role="assistant"),
        say("Hmm. Is it worth just replacing the boiler at this point? It's 9 years old"),
        say("Not on this fault alone. A vessel recharge is one of the cheapest boiler repairs, and 9 years is about "
            "mid-life for a combi.", role="assistant"),
    ]).body
    assert "“Is it worth just replacing the boiler at this point?” — Not on this fault alone: a vessel recharge" in body, \
        body
    assert not re.search(r"(?m)^- Not on this fault alone\.$", body)


def test_news_told_of_her_heads_no_description() -> None:
    result = card([
        say("how's boat life??", "Bastian"),
        say("Meet Kingfisher! 57 feet, built in 1994.", "Noor"),
        say("I bought her in October for £38,000 and sold the car. I'm on a winter mooring at Lower Heyford until "
            "March, £190 a month", "Noor"),
        say("I ran a half marathon on Sunday!! The Cardiff Bay Winter Half, 1:58:41", "Bastian"),
    ])
    assert "bought her" not in result.description, result.description
    from daemon.distill.describe import _UNNAMED_IT
    assert _UNNAMED_IT.match("I bought her in October") and not _UNNAMED_IT.match("I bought her car in October")


def test_a_chinese_choice_by_a_label_a_sentence_split_took_says_what_the_label_names() -> None:
    result = card([
        say("帮我参谋一下，看中了两家：\nA. 云溪温泉酒店：1,280元/间/晚，含双早和温泉，开车一个半小时。\n"
            "B. 松岭汤泉度假村：960元/间/晚，含早，开车大概2小时40分钟。"),
        say("A：车程短，对晕车的爸爸友好。B：便宜，但汤池在半山坡上。", role="assistant"),
        say("算下来居然就差1块钱，那就A吧。"),
    ])
    assert "那就A吧（A：云溪温泉酒店）" in result.body, result.body  # (the user's list, not the answer's remark)
    assert result.description.endswith("决定：云溪温泉酒店。（2023-05-08）"), result.description
