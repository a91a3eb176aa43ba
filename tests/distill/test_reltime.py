"""Relative time expressions resolved against the message's own date (``daemon.distill.reltime``)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from daemon.distill.reltime import anchor_day, ground, resolve_relative

MONDAY = date(2023, 5, 8)  # a Monday; LoCoMo's first session date
THURSDAY = date(2024, 3, 14)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I went yesterday.", "I went yesterday (2023-05-07)."),
        ("Yesterday was long.", "Yesterday (2023-05-07) was long."),
        ("today", "today (2023-05-08)"),
        ("tomorrow", "tomorrow (2023-05-09)"),
        ("tonight", "tonight (2023-05-08)"),
        ("last night", "last night (2023-05-07)"),
        ("this morning", "this morning (2023-05-08)"),
        ("the day before yesterday", "the day before yesterday (2023-05-06)"),
        ("the day after tomorrow", "the day after tomorrow (2023-05-10)"),
        ("today's plan", "today's (2023-05-08) plan"),
        ("last Friday", "last Friday (2023-05-05)"),
        ("last Monday", "last Monday (2023-05-01)"),  # strictly before the anchor day
        ("next Monday", "next Monday (2023-05-15)"),  # strictly after the anchor day
        ("next Wednesday", "next Wednesday (2023-05-10)"),
        ("this Friday", "this Friday (2023-05-12)"),
        ("this weekend", "this weekend (weekend of 2023-05-13)"),
        ("last weekend", "last weekend (weekend of 2023-05-06)"),
        ("last week", "last week (week of 2023-05-01)"),
        ("next week", "next week (week of 2023-05-15)"),
        ("last month", "last month (2023-04)"),
        ("next month", "next month (2023-06)"),
        ("last year", "last year (2022)"),
        ("two days ago", "two days ago (2023-05-06)"),
        ("3 weeks ago", "3 weeks ago (2023-04-17)"),
        ("a week ago", "a week ago (2023-05-01)"),
        ("10 years ago", "10 years ago (2013)"),
        ("in two weeks", "in two weeks (2023-05-22)"),
        ("in 3 days", "in 3 days (2023-05-11)"),
        ("in a month", "in a month (2023-06)"),
        ("a few days ago", "a few days ago (around 2023-05-05)"),
        ("a couple of weeks ago", "a couple of weeks ago (around 2023-04-24)"),
        ("several months ago", "several months ago (around 2023-02)"),
        ("in a few weeks", "in a few weeks (around 2023-05-29)"),
    ],
)
def test_english_expressions(text: str, expected: str) -> None:
    assert resolve_relative(text, MONDAY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我昨天去了", "我昨天（2023-05-07）去了"),
        ("今天", "今天（2023-05-08）"),
        ("明天", "明天（2023-05-09）"),
        ("前天", "前天（2023-05-06）"),
        ("后天", "后天（2023-05-10）"),
        ("大前天", "大前天（2023-05-05）"),
        ("上周五", "上周五（2023-05-05）"),
        ("下周一", "下周一（2023-05-15）"),
        ("上星期天", "上星期天（2023-05-07）"),
        ("这周三", "这周三（2023-05-10）"),
        ("两天前", "两天前（2023-05-06）"),
        ("三周后", "三周后（2023-05-29）"),
        ("十五天后", "十五天后（2023-05-23）"),
        ("3个月前", "3个月前（2023-02）"),
        ("几天前", "几天前（约2023-05-05）"),
        ("前几天", "前几天（约2023-05-05）"),
        ("上周", "上周（2023-05-01起的一周）"),
        ("上个月", "上个月（2023-04）"),
        ("去年", "去年（2022）"),
        ("明年", "明年（2024）"),
    ],
)
def test_chinese_expressions(text: str, expected: str) -> None:
    assert resolve_relative(text, MONDAY) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("这周围很安静，这周三见", "这周围很安静，这周三（2023-05-10）见"),  # 周围 = surroundings
        ("以后天气会好，后天见", "以后天气会好，后天（2023-05-10）见"),  # 以后 + 天气 is not 后天
        ("The weekday schedule starts next week.", "The weekday schedule starts next week (week of 2023-05-15)."),
        ("Todays and yesterdays, but today.", "Todays and yesterdays, but today (2023-05-08)."),
    ],
)
def test_lookalikes_are_left_alone(text: str, expected: str) -> None:
    assert resolve_relative(text, MONDAY) == expected


def test_weekday_relative_to_a_thursday() -> None:
    assert resolve_relative("next Friday", THURSDAY) == "next Friday (2024-03-15)"
    assert resolve_relative("last Thursday", THURSDAY) == "last Thursday (2024-03-07)"
    assert resolve_relative("下周五", THURSDAY) == "下周五（2024-03-22）"


def test_code_is_not_rewritten() -> None:
    text = "Run `make today` then:\n```\necho yesterday\n```\nand do it today."
    assert resolve_relative(text, MONDAY) == (
        "Run `make today` then:\n```\necho yesterday\n```\nand do it today (2023-05-08)."
    )


def test_already_grounded_text_is_not_annotated_twice() -> None:
    once = resolve_relative("yesterday, last week and 昨天 and a few days ago", MONDAY)
    assert resolve_relative(once, MONDAY) == once
    assert once.count("2023-05-07") == 2


def test_anchor_day_of_naive_time_keeps_its_date() -> None:
    assert anchor_day(datetime(2023, 5, 8, 23, 59)) == date(2023, 5, 8)
    assert anchor_day(datetime(2023, 5, 8, 23, 59), timezone(timedelta(hours=8))) == date(2023, 5, 8)


def test_anchor_day_of_aware_time_converts_to_the_vault_zone() -> None:
    late_utc = datetime(2026, 8, 19, 16, 30, tzinfo=timezone.utc)
    assert anchor_day(late_utc, timezone(timedelta(hours=8))) == date(2026, 8, 20)
    assert anchor_day(late_utc, timezone.utc) == date(2026, 8, 19)
    assert anchor_day(late_utc, timezone(timedelta(hours=-20))) == date(2026, 8, 18)


def test_ground_uses_the_message_time() -> None:
    late_utc = datetime(2026, 8, 19, 16, 30, tzinfo=timezone.utc)
    assert ground("yesterday", late_utc, timezone(timedelta(hours=8))) == "yesterday (2026-08-19)"
    assert ground("yesterday", late_utc, timezone.utc) == "yesterday (2026-08-18)"


def test_dates_beyond_the_calendar_are_left_alone() -> None:
    assert resolve_relative("yesterday and tomorrow", date.max) == "yesterday (9999-12-30) and tomorrow"


def test_no_time_leaves_text_alone() -> None:
    assert anchor_day(None) is None
    assert ground("see you tomorrow, 明天见", None) == "see you tomorrow, 明天见"
    grounded = ground("see you tomorrow, 明天见", datetime(2023, 5, 8))
    assert grounded == "see you tomorrow (2023-05-09), 明天（2023-05-09）见"


_EXPRESSIONS = st.sampled_from(["yesterday", "last Friday", "in two weeks", "a few days ago", "昨天",
                                "上周五", "三周后", "next month", "this weekend", "前几天"])
# Filler opens no parenthesis ("(2023" after an expression reads as a date already given) and no
# backtick (code is never rewritten, see above).
_FILLER = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="(（`"),
                  max_size=30)


@given(st.lists(st.tuples(_FILLER, _EXPRESSIONS), max_size=5), st.dates(date(1990, 1, 1), date(2090, 1, 1)))
def test_resolution_is_idempotent_and_only_adds_text(parts: list[tuple[str, str]], anchor: date) -> None:
    text = "".join(f"{filler} {expression} " for filler, expression in parts)
    once = resolve_relative(text, anchor)
    assert resolve_relative(once, anchor) == once
    # The original words all survive, in order: the rewrite only inserts dates, one per expression.
    it = iter(once)
    assert all(ch in it for ch in text)
    assert once.count("(") + once.count("（") >= len(parts)


_NO_WORDS = st.text(alphabet="0123456789 .,;:!?-)[]{}#*_~+=/\\\n\t", max_size=40)  # no "(": see _FILLER


@given(_NO_WORDS, _NO_WORDS, st.dates(date(1000, 1, 1), date(9000, 1, 1)))
def test_only_the_expression_changes(before: str, after: str, anchor: date) -> None:
    assert resolve_relative(before + after, anchor) == before + after
    expected = f"{before} yesterday ({(anchor - timedelta(days=1)).isoformat()}) {after}"
    assert resolve_relative(f"{before} yesterday {after}", anchor) == expected
