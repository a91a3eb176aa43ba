"""Relative time expressions resolved against the message's own date (``daemon.distill.reltime``)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from daemon.distill.reltime import anchor_day, ground, resolve_relative, rules_table, weekday_table

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
        ("next Wednesday", "next Wednesday (2023-05-17)"),  # that weekday of next week
        ("this Friday", "this Friday (2023-05-12)"),
        ("done by Friday", "done by Friday (2023-05-12)"),  # a deadline is ahead
        ("until Sunday", "until Sunday (2023-05-14)"),
        ("I'll finish it by Tuesday", "I'll finish it by Tuesday (2023-05-09)"),
        ("done by Monday", "done by Monday"),  # said on a Monday: today or a week on, so as written
        ("we fly out on the 21st", "we fly out on the 21st (2023-05-21)"),  # still ahead this month
        ("due the 3rd", "due the 3rd (2023-06-03)"),  # passed this month: next month's
        ("we met on the 3rd", "we met on the 3rd (2023-05-03)"),  # past tense: the most recent
        ("beta on July 15", "beta on July 15 (2023)"),  # the day was said; only the year is added
        ("the 4th of July party", "the 4th of July (2023) party"),
        ("we went there on April 20", "we went there on April 20 (2023)"),
        ("on 3 May", "on 3 May (2023)"),  # a few days ago, no tense: that one (a plan would say "next year")
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
        ("the 21st century", "the 21st century"),  # an ordinal that is not a day of the month
        ("on the 10th floor", "on the 10th floor"),
        ("I may 5 times", "I may 5 times"),  # "may" in lower case is not the month
        ("next Tuesday, May 9", "next Tuesday, May 9 (2023)"),  # grounded by the speaker: the year is checked
        ("on Friday, May 9", "on Friday, May 9"),  # ... and left out when that day is no Friday in any near year
        ("Tomorrow, and Tomorrow, and Tomorrow by Gabrielle Zevin",
         "Tomorrow, and Tomorrow, and Tomorrow by Gabrielle Zevin"),  # a title, not a day
        ("I loved Yesterday by the Beatles", "I loved Yesterday by the Beatles"),
        ("Time flies, feels like yesterday I put this dress on", "Time flies, feels like yesterday I put this dress on"),
        ("it seems like it was yesterday", "it seems like it was yesterday"),  # an idiom, not a day
        ("feels like just yesterday", "feels like just yesterday"),
        ("The old printer has failed three times in two months", "The old printer has failed three times in two months"),
        ("I finished it in 3 days", "I finished it in 3 days"),
        ("They confirmed the van for the move, in two weeks", "They confirmed the van for the move, in two weeks (2023-05-22)"),
        ("A little girl, born on May 2nd", "A little girl, born on May 2nd (2023)"),  # born: the past, this year
        ("so `04.03.2024` means 4 March", "so `04.03.2024` means 4 March"),  # the sentence names its year
        ("In 2024 we met on July 1", "In 2024 we met on July 1"),
        ("`tomorrow` is a keyword, see you tomorrow", "`tomorrow` is a keyword, see you tomorrow (2023-05-09)"),
        ("The party was yesterday", "The party was yesterday (2023-05-07)"),  # ... but this is one
        ("since January 5, 2024", "since January 5, 2024"),  # the year was said
    ],
)
def test_lookalikes_are_left_alone(text: str, expected: str) -> None:
    assert resolve_relative(text, MONDAY) == expected


def test_weekday_relative_to_a_thursday() -> None:
    assert resolve_relative("next Friday", THURSDAY) == "next Friday (2024-03-22)"  # Friday of next week
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
# No digits either: "yesterday 5/9" or "next Tuesday, May 9" already carries a date, so it stays.
_FILLER = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="(（`", exclude_categories=("Nd",)),
                  max_size=30)


@given(st.lists(st.tuples(_FILLER, _EXPRESSIONS), max_size=5), st.dates(date(1990, 1, 1), date(2090, 1, 1)))
def test_resolution_is_idempotent_and_only_adds_text(parts: list[tuple[str, str]], anchor: date) -> None:
    # (Each expression opens its own sentence: a word just before can rightly change it, "finished it in two weeks"
    # is how long and "AAAED in two weeks" reads the same way.)
    text = "".join(f"{filler}. {expression} " for filler, expression in parts)
    once = resolve_relative(text, anchor)
    assert resolve_relative(once, anchor) == once
    # The original words all survive, in order: the rewrite only inserts dates, one per expression.
    it = iter(once)
    assert all(ch in it for ch in text)
    assert once.count("(") + once.count("（") >= len(parts)


_NO_WORDS = st.text(alphabet="0123456789 .,;:!?-)[]{}#*_~+=\\\n\t", max_size=40)  # no "(" or "/": see _FILLER


@given(_NO_WORDS, _NO_WORDS, st.dates(date(1000, 1, 1), date(9000, 1, 1)))
def test_only_the_expression_changes(before: str, after: str, anchor: date) -> None:
    assert resolve_relative(before + after, anchor) == before + after
    expected = f"{before} yesterday ({(anchor - timedelta(days=1)).isoformat()}) {after}"
    assert resolve_relative(f"{before} yesterday {after}", anchor) == expected


# ---- the date table (docs/dates.md), both ways ----------------------------

D = date
# The week of Monday 2023-05-01: MON..SUN are the days a phrase may be said on.
MON, TUE, WED, THU, FRI, SAT, SUN = (D(2023, 5, 1) + timedelta(days=i) for i in range(7))


@pytest.mark.parametrize(
    ("phrase", "said_on", "expected"),
    [
        # "next <weekday>": that weekday of NEXT week, whatever day it is said on.
        ("next Tuesday", MON, "next Tuesday (2023-05-09)"),
        ("next Tuesday", TUE, "next Tuesday (2023-05-09)"),
        ("next Tuesday", WED, "next Tuesday (2023-05-09)"),
        ("next Tuesday", FRI, "next Tuesday (2023-05-09)"),
        ("next Tuesday", SAT, "next Tuesday (2023-05-09)"),
        ("next Tuesday", SUN, "next Tuesday (2023-05-09)"),
        ("next Monday", MON, "next Monday (2023-05-08)"),
        ("next Monday", SUN, "next Monday (2023-05-08)"),  # Sunday ends the week: next week starts tomorrow
        ("next Sunday", MON, "next Sunday (2023-05-14)"),
        ("Next friday", THU, "Next friday (2023-05-12)"),
        # "this <weekday>": the coming one, today included.
        ("this Tuesday", MON, "this Tuesday (2023-05-02)"),
        ("this Monday", MON, "this Monday (2023-05-01)"),
        ("this Monday", WED, "this Monday (2023-05-08)"),
        ("this Friday", SAT, "this Friday (2023-05-12)"),
        # "on <weekday>": the coming one, today excluded.
        ("See you on Friday.", MON, "See you on Friday (2023-05-05)."),
        ("Let's meet on Tuesday", WED, "Let's meet on Tuesday (2023-05-09)"),
        ("The store opens on Sunday", SAT, "The store opens on Sunday (2023-05-07)"),
        # Past tense without a future word: the most recent one.
        ("We met on Friday.", MON, "We met on Friday (2023-04-28)."),
        ("I saw her this Monday.", WED, "I saw her this Monday (2023-05-01)."),
        ("last Friday", MON, "last Friday (2023-04-28)"),
        ("last Sunday", SUN, "last Sunday (2023-04-30)"),
        ("last Saturday", SUN, "last Saturday (2023-05-06)"),
        # A weekday with a day of the month: the nearest such day that falls on that weekday, or as written.
        ("Saturday 13th", MON, "Saturday 13th (2023-05-13)"),
        ("Thursday the 1st", WED, "Thursday the 1st (2023-06-01)"),  # not this month: May 1 was a Monday
        ("We met on Saturday the 29th", MON, "We met on Saturday the 29th (2023-04-29)"),
        ("Monday 13th", MON, "Monday 13th"),  # neither May 13 nor June 13 is a Monday: as written
        # Counts, words and digits.
        ("in two weeks", MON, "in two weeks (2023-05-15)"),
        ("in 3 days", MON, "in 3 days (2023-05-04)"),
        ("in ten days", THU, "in ten days (2023-05-14)"),
        ("two weeks from now", MON, "two weeks from now (2023-05-15)"),
        ("3 days ago", MON, "3 days ago (2023-04-28)"),
        ("a week ago", WED, "a week ago (2023-04-26)"),
        # Weekends, counted from the coming one.
        ("two weekends later", MON, "two weekends later (weekend of 2023-05-13)"),
        ("a party two weekends later", SAT, "a party two weekends later (weekend of 2023-05-20)"),
        ("in two weekends", FRI, "in two weekends (weekend of 2023-05-13)"),
        ("3 weekends later", MON, "3 weekends later (weekend of 2023-05-20)"),
        ("last weekend", MON, "last weekend (weekend of 2023-04-29)"),
        ("next weekend", WED, "next weekend (weekend of 2023-05-13)"),
        ("the weekend after next", MON, "the weekend after next (weekend of 2023-05-13)"),
        # Weeks, months, years.
        ("the week after next", THU, "the week after next (week of 2023-05-15)"),
        ("next week", SUN, "next week (week of 2023-05-08)"),
        ("last week", MON, "last week (week of 2023-04-24)"),
        ("next month", MON, "next month (2023-06)"),
        ("the month after next", MON, "the month after next (2023-07)"),
        ("last month", D(2023, 1, 9), "last month (2022-12)"),
        ("next year", MON, "next year (2024)"),
        ("last year", MON, "last year (2022)"),
        ("yesterday", MON, "yesterday (2023-04-30)"),
        ("today", MON, "today (2023-05-01)"),
        ("tomorrow", SUN, "tomorrow (2023-05-08)"),
        # A weekday alone, in the weekend the same text names: that weekend's.
        ("this weekend if you can help? Saturday ideally", WED,
         "this weekend (weekend of 2023-05-06) if you can help? Saturday (2023-05-06) ideally"),
        ("the weekend after next, Sunday is best", MON, "the weekend after next (weekend of 2023-05-13), Sunday (2023-05-14) is best"),
        ("in three days, Friday", TUE, "in three days (2023-05-05), Friday"),  # Friday says which day that is
        ("The car has the TÜV in three days", TUE, "The car has the TÜV in three days (2023-05-05)"),  # not how long
        # A month and day with no year, said with no tense a few weeks after it: that one, not next year's.
        ("I did it! Frankfurt Marathon, 25 October.", D(2026, 11, 15), "I did it! Frankfurt Marathon, 25 October (2026)."),
        ("Frankfurt Marathon, 25 October.", D(2026, 9, 15), "Frankfurt Marathon, 25 October (2026)."),  # still ahead
        ("The festival is 20 September.", D(2026, 11, 15), "The festival is 20 September (2027)."),  # 56 days back
        ("I'll run it again on 25 October.", D(2026, 11, 15), "I'll run it again on 25 October (2027)."),  # a plan
        # "the <ordinal>" in a sentence that names its month: that month's day.
        ("I move the first week of January, start date is the 11th.", D(2026, 11, 15),
         "I move the first week of January, start date is the 11th (2027-01-11)."),
        ("Start date is the 11th.", D(2026, 11, 15), "Start date is the 11th (2026-12-11)."),
        ("I'll be there in March or April, maybe the 3rd.", D(2026, 11, 15),
         "I'll be there in March or April, maybe the 3rd (2026-12-03)."),  # two months named: the nearest 3rd
        # A weekday said short names the year as a full one does ("timed" is no past tense).
        ("Pena Palace timed tickets for Sat 13 Feb, early slot", D(2026, 11, 24),
         "Pena Palace timed tickets for Sat 13 Feb (2027), early slot"),
        ("Sat 12th is the hen in Galway.", D(2026, 11, 27), "Sat 12th (2026-12-12) is the hen in Galway."),
        ("Birchwood Lodge, the Friday after next weekend, two nights.", D(2026, 11, 26),
         "Birchwood Lodge, the Friday after next weekend (2026-12-11), two nights."),
        ("In the fridge since the 15th. Hibernating until March", D(2026, 11, 30),
         "In the fridge since the 15th (2026-11-15). Hibernating until March"),
        # The clause's own tense: a 14th that "went" is gone by, whatever month the sentence names elsewhere.
        ("Three things: how the 14th went, the December session, and money.", D(2026, 11, 22),
         "Three things: how the 14th (2026-11-14) went, the December session, and money."),
        ("I'll order it by Wednesday next week.", D(2026, 11, 24), "I'll order it by Wednesday next week (2026-12-02)."),
        ("Done by Friday this week", D(2026, 11, 24), "Done by Friday this week (2026-11-27)"),
        # A year ago: the 15th of which month is unsaid.
        ("Last year we sold out of stollen by the 15th.", WED, "Last year (2022) we sold out of stollen by the 15th."),
        # A bare weekday gone by ("It was Tuesday, right?", "I saw her Monday"): the most recent one.
        ("It was Tuesday, right?", SUN, "It was Tuesday (2023-05-02), right?"),
        ("I saw her Monday.", WED, "I saw her Monday (2023-05-01)."),
        # A bare weekday in a plan ("Can we meet Monday?", "Monday works", "booked it for Saturday"): the coming one.
        ("See you Tuesday.", MON, "See you Tuesday (2023-05-02)."),
        ("Can we meet Monday to go over the questions?", WED, "Can we meet Monday (2023-05-08) to go over the questions?"),
        ("Yes, Monday works.", WED, "Yes, Monday (2023-05-08) works."),
        ("I booked the bleed for Saturday morning.", SUN, "I booked the bleed for Saturday (2023-05-13) morning."),
        ("I'll call you Friday.", FRI, "I'll call you Friday."),  # said on a Friday: today, or a week on
        # Already inside parentheses: one pair, not two.
        ("It ships with Friday's deploy (27 November).", D(2026, 11, 25), "It ships with Friday's deploy (27 November 2026)."),
        ("the meeting (next Tuesday) is key", D(2026, 11, 25), "the meeting (next Tuesday, 2026-12-01) is key"),
    ],
)
def test_date_table_resolves(phrase: str, said_on: date, expected: str) -> None:
    assert resolve_relative(phrase, said_on) == expected


@pytest.mark.parametrize(
    ("phrase", "said_on"),
    [
        ("Tuesday, maybe.", WED),  # a bare weekday, no plan, no tense: which week? (unless the chat said)
        ("Wednesday was great.", WED),  # gone by, but said on a Wednesday: today, or a week ago?
        ("Monday blues are real.", WED),
        ("Rome wasn't built in a day, so keep pushing on!", WED),  # a saying
        ("Needed that, proper sunday brain. See you soon", SUN),  # a mood, not a day
        ("See you Wednesday.", WED),  # a plan for its own weekday: today, or a week on?
        ("I work Monday to Friday.", WED),  # a range, a habit
        ("every Monday", WED),
        ("Black Friday deals", WED),
        ("I read it in the Sunday Times.", WED),  # a name
        ("Let's talk on Monday.", MON),  # today, or a week from today?
        ("We met on Wednesday.", WED),
        ("I saw her this Friday.", WED),  # past tense, but Friday is still ahead
        ("They come in on Mondays.", MON),  # a habit, not a day
        ("It took two weeks.", MON),  # a length, not a date
        ("We stayed two weekends.", MON),
        ("Three days later we left.", MON),  # later than what?
        ("over the past week", MON),  # a rolling window
        ("next Tuesday the 9th", MON),
        ("next Tuesday 5/9", MON),
        ("下周二（5月9日）", MON),
        ("周三见", MON),  # a bare weekday
        ("狂犬疫苗一般满3个月后打", MON),  # an age reached, not three months from today
        ("这周围很安静", MON),
        ("以后天气会好", MON),
    ],
)
def test_date_table_stays_as_written(phrase: str, said_on: date) -> None:
    assert resolve_relative(phrase, said_on) == phrase


def test_a_bare_weekday_is_the_day_an_earlier_message_gave_it() -> None:
    said: dict[int, date] = {}
    monday = datetime(2026, 5, 11, 9, 0)
    assert ground("Lea's dinner is next Friday, 7pm.", monday, said=said) == \
        "Lea's dinner is next Friday (2026-05-22), 7pm."
    assert {k: d for k, d in said.items() if k < 7} == {4: D(2026, 5, 22)}
    # Later in the chat, "Friday" is that Friday, not this week's (which alone would stay as written), and the
    # Saturday after it in the same message is the next day.
    assert ground("No, the dinner is Friday evening, we drive out Saturday.", monday, said=said) == \
        "No, the dinner is Friday (2026-05-22) evening, we drive out Saturday (2026-05-23)."
    assert ground("The weekend after next is free.", monday, said=said) == \
        "The weekend after next (weekend of 2026-05-23) is free."
    # A weekend names its Saturday only within its message: people count "the weekend after next" differently
    # (a Saturday the chat named comes first; past that, the planned weekend's).
    assert ground("Pub dinner Saturday night?", monday, said=said) == "Pub dinner Saturday (2026-05-23) night?"
    # Weeks later the Friday the chat gave is past: a plan's Friday is the coming one.
    assert ground("See you Friday.", datetime(2026, 6, 20, 9, 0), said=said) == "See you Friday (2026-06-26)."
    assert ground("Friday was fun.", datetime(2026, 6, 20, 9, 0), said={}) == "Friday (2026-06-19) was fun."
    # A weekday beside a day the same message just gave is the one after it, not the one the chat named before:
    # "Saturday the 19th" was the dinner; "Friday is my work do. Can we do Saturday instead?" is the next day.
    said = {4: D(2026, 11, 27), 5: D(2026, 12, 19)}
    assert ground("Ah wait. Friday is my work do. Can we do Saturday morning instead?", datetime(2026, 11, 25, 12, 0),
                  said=said) == "Ah wait. Friday (2026-11-27) is my work do. Can we do Saturday (2026-11-28) morning instead?"
    assert ground("Ok moved to Saturday 11am at the Granary.", datetime(2026, 11, 25, 12, 0), said={5: D(2026, 11, 28)}) \
        == "Ok moved to Saturday (2026-11-28) 11am at the Granary."
    # A weekday right after the date it is: nothing to add.
    assert ground("The TÜV is in three days, friday at 8.", datetime(2026, 6, 9, 9, 0), said={4: D(2026, 6, 19)}) \
        == "The TÜV is in three days (2026-06-12), friday at 8."


def test_a_day_no_calendar_has_gives_no_weekday() -> None:
    # A typo in a chat ("Monday (2026-02-30)") is read as written: no weekday taken from it, and no error.
    said: dict[int, date] = {}
    text = "Can we meet Monday (2026-02-30), or Friday (2026-13-04)? (2026-02-31) Friday then."
    assert ground(text, datetime(2026, 11, 30, 10, 0), said=said) == text
    assert said == {}
    # The calendar's last weekend has no Sunday to name; the Saturday stays as written.
    at_the_end = "The weekend (weekend of 9999-12-31), Saturday ideally."
    assert resolve_relative(at_the_end, date(9999, 12, 28)) == at_the_end
    assert resolve_relative("The weekend (weekend of 2026-12-05), Saturday ideally.", date(2026, 11, 30)) == \
        "The weekend (weekend of 2026-12-05), Saturday (2026-12-05) ideally."


@pytest.mark.parametrize(
    ("phrase", "said_on", "expected"),
    [
        ("今天", MON, "今天（2023-05-01）"),
        ("明天", MON, "明天（2023-05-02）"),
        ("后天", MON, "后天（2023-05-03）"),
        ("大后天", MON, "大后天（2023-05-04）"),
        ("昨天", MON, "昨天（2023-04-30）"),
        ("前天", MON, "前天（2023-04-29）"),
        ("大前天", MON, "大前天（2023-04-28）"),
        ("下周一", MON, "下周一（2023-05-08）"),
        ("下周三出发", FRI, "下周三（2023-05-10）出发"),
        ("下周日", SUN, "下周日（2023-05-14）"),
        ("下星期一", WED, "下星期一（2023-05-08）"),
        ("下礼拜一", WED, "下礼拜一（2023-05-08）"),
        ("下个星期五", MON, "下个星期五（2023-05-12）"),
        ("下下周三", MON, "下下周三（2023-05-17）"),
        ("这周五", MON, "这周五（2023-05-05）"),
        ("本周三", FRI, "本周三（2023-05-03）"),  # the calendar week's, even when it has passed
        ("上周五", MON, "上周五（2023-04-28）"),
        ("下周", THU, "下周（2023-05-08起的一周）"),
        ("上周", THU, "上周（2023-04-24起的一周）"),
        ("下下周", MON, "下下周（2023-05-15起的一周）"),
        ("这周末", MON, "这周末（2023-05-06起的周末）"),
        ("下个月", MON, "下个月（2023-06）"),
        ("上个月", MON, "上个月（2023-04）"),
        ("明年", MON, "明年（2024）"),
        ("去年", MON, "去年（2022）"),
        ("3天后", MON, "3天后（2023-05-04）"),
        ("五天前", MON, "五天前（2023-04-26）"),
        ("两周后", MON, "两周后（2023-05-15）"),
        ("两个星期以后", MON, "两个星期以后（2023-05-15）"),
    ],
)
def test_date_table_chinese(phrase: str, said_on: date, expected: str) -> None:
    assert resolve_relative(phrase, said_on) == expected


_EVERY_PHRASE = ("Next Tuesday, in two weeks, two weekends later, the week after next, next month, last weekend, "
                 "yesterday, a week ago. 下周二，后天，大后天，上个月，两周后，3天前。")


def test_no_timestamp_resolves_nothing_and_states_no_date() -> None:
    assert ground(_EVERY_PHRASE, None) == _EVERY_PHRASE
    assert "20" not in ground(_EVERY_PHRASE, None)  # no year, no date of any kind
    grounded = ground(_EVERY_PHRASE, datetime(2023, 5, 1, 9, 30))
    assert "Next Tuesday (2023-05-09)" in grounded and "两周后（2023-05-15）" in grounded
    assert grounded.count("(") + grounded.count("（") == 14


def test_docs_dates_page_is_generated_from_the_table() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "dates.md").read_text(encoding="utf-8")
    assert rules_table() in page and weekday_table() in page, "regenerate: python3 scripts/dates_doc.py"
    assert "next Tuesday → next Tuesday (2023-05-09)" in page


def test_the_weekend_after_is_after_the_latest_day_the_chat_gave_and_the_answers_saturday_is_in_it() -> None:
    said: dict[int, date] = {}
    wednesday = datetime(2026, 11, 18, 19, 0)
    ground("they can do next Saturday, 7pm", wednesday, said=said)
    ground("done! Sunday 29th, 1pm, table for 8", wednesday, said=said)
    assert ground("and then the Christmas tree the weekend after? the garden centre", wednesday, said=said) == \
        "and then the Christmas tree the weekend after (weekend of 2026-12-05)? the garden centre"
    # The answer's Saturday is in that weekend…
    assert ground("yes! Saturday morning, before it gets busy", wednesday, said=said) == \
        "yes! Saturday (2026-12-05) morning, before it gets busy"
    # …and only the answer's: the next day's "Saturday" is the chat's Saturday again.
    assert ground("ordered the cake, pick up Saturday from 7:30", datetime(2026, 11, 19, 12, 0), said=said) == \
        "ordered the cake, pick up Saturday (2026-11-28) from 7:30"
    assert ground("and the Sunday after?", datetime(2026, 11, 19, 12, 0), said={6: D(2026, 11, 29)}) == \
        "and the Sunday after (2026-12-06)?"
    # A day the same sentence then gives is not what it is after: "the weekend after. Saturday the 19th?"
    assert ground("I was thinking the weekend after. Saturday the 19th?", datetime(2026, 11, 25, 12, 0),
                  said={2: D(2026, 12, 16)}) == \
        "I was thinking the weekend after (weekend of 2026-12-19). Saturday the 19th (2026-12-19)?"
    # No day given before, or one after something named: as written.
    assert ground("the weekend after works", wednesday, said={}) == "the weekend after works"
    assert ground("the weekend after Dave's visit", wednesday, said={6: D(2026, 11, 29)}) == \
        "the weekend after Dave's visit"
    # After an event the chat is planning ("the gig", "the party"): after the latest day it gave.
    assert ground("can we do the Monday after the gig instead?", wednesday, said={5: D(2026, 12, 5)}) == \
        "can we do the Monday after (2026-12-07) the gig instead?"


def test_a_week_on_friday_and_a_weekday_ordinal_before_its_month() -> None:
    saturday = D(2026, 11, 21)
    assert resolve_relative("The Bell, a week on Friday", saturday) == "The Bell, a week on Friday (2026-12-04)"
    assert resolve_relative("see you a week tomorrow", saturday) == "see you a week tomorrow (2026-11-29)"
    assert resolve_relative("Yep, Friday 4th December.", saturday) == "Yep, Friday 4th December (2026)."
    assert resolve_relative("on Friday", saturday) == "on Friday (2026-11-27)"  # without "a week": the coming one


def test_the_5th_the_sunday_after_it_and_the_thursday_follow_the_days_the_chat_gave() -> None:
    said: dict[int, date] = {}
    friday, saturday = datetime(2026, 11, 20, 18, 0), datetime(2026, 11, 21, 10, 0)
    assert ground("dinner at Bramble & Fig. Saturday the 5th?", friday, said=said) == \
        "dinner at Bramble & Fig. Saturday the 5th (2026-12-05)?"
    # "the Thursday" after a day its message gave is the one after it.
    assert ground("I'm in Dublin from the 30th, back on the Thursday. so", friday, said=said) == \
        "I'm in Dublin from the 30th (2026-11-30), back on the Thursday (2026-12-03). so"
    # "the 5th" the chat named by its weekday is that day, whatever tense ("are cancelled") says; an emoji ends the
    # sentence, so "they can move us" is no past.
    assert ground("the sessions on the 5th are cancelled, private hire 🙄 they can move us to the Sunday at 3pm",
                  saturday, said=said) == ("the sessions on the 5th (2026-12-05) are cancelled, private hire 🙄 they can "
                                           "move us to the Sunday (2026-12-06) at 3pm")
    assert ground("no the Sunday after the 5th", saturday, said=said) == \
        "no the Sunday after (2026-12-06) the 5th (2026-12-05)"
    assert ground("skate at 3 on the Sunday, then Dev's", saturday, said=said) == \
        "skate at 3 on the Sunday (2026-12-06), then Dev's"
    # With no day given, "the Sunday" and "the 5th" read as before.
    assert ground("I read it in the Sunday paper", saturday, said={}) == "I read it in the Sunday paper"
    assert ground("see you on the 5th", saturday, said={}) == "see you on the 5th (2026-12-05)"


def test_a_weekdays_event_is_the_coming_one_and_its_date_follows_the_event() -> None:
    tuesday = D(2026, 11, 17)
    assert resolve_relative("shipping it with Thursday's release.", tuesday) == \
        "shipping it with Thursday's release (2026-11-19)."
    assert resolve_relative("Friday's match was brutal", tuesday) == "Friday's match (2026-11-13) was brutal"
    assert resolve_relative("on Mondays I swim", tuesday) == "on Mondays I swim"  # a habit
    assert resolve_relative("Thursday's release (19 Nov) is fine", tuesday) == "Thursday's release (19 Nov 2026) is fine"


def test_a_named_day_of_the_month_gives_its_weekend_and_the_friday_after_said_again_is_the_same_friday() -> None:
    said: dict[int, date] = {}
    friday = datetime(2026, 11, 27, 18, 0)
    ground("What are you doing the weekend after next?", friday, said=said)
    ground("The 12th?", friday, said=said)  # a Saturday, named by its day of the month
    assert ground("the Saturday ceilidh is sold out", friday, said=said) == \
        "the Saturday (2026-12-12) ceilidh is sold out"
    assert ground("I'll get the train on the Friday after work", friday, said=said) == \
        "I'll get the train on the Friday (2026-12-11) after work"
    said = {}
    thursday = datetime(2026, 11, 26, 19, 0)
    ground("wait next weekend as in the 5th? that's Carys's wedding", thursday, said=said)
    assert ground("what about the Friday after then?", thursday, said=said) == \
        "what about the Friday after (2026-12-11) then?"
    assert ground("so the Friday after, two nights?", thursday, said=said) == \
        "so the Friday after (2026-12-11), two nights?"
    # A day of the month gone by stays gone by; one said as cancelled is the named one.
    said = {0: D(2026, 12, 14)}
    assert ground("The jar got £87 on the 14th, so we're fine", datetime(2026, 11, 24, 9, 0), said=said) == \
        "The jar got £87 on the 14th (2026-11-14), so we're fine"


def test_a_planned_weekend_is_the_one_a_later_saturday_or_sunday_means_unless_the_chat_named_one_to_come() -> None:
    sunday = datetime(2026, 11, 22, 11, 0)
    said: dict[int, date] = {}
    ground("We picked him up last Sunday from the Greyhound Trust.", sunday, said=said)
    ground("York, the weekend after next?", sunday, said=said)
    assert ground("two rooms at £95 each for the Saturday night", sunday, said=said) == \
        "two rooms at £95 each for the Saturday (2026-12-05) night"
    assert ground("Booked: Sunday morning we walk Pilot round the city walls", sunday, said=said) == \
        "Booked: Sunday (2026-12-06) morning we walk Pilot round the city walls"
    # A Saturday to come that the chat named by name comes first: the cake is for the 28th, not the tree weekend.
    said = {5: D(2026, 11, 28), 6: D(2026, 11, 29)}
    ground("and then the Christmas tree the weekend after?", datetime(2026, 11, 18, 19, 0), said=said)
    ground("yes! Saturday morning, before it gets busy", datetime(2026, 11, 18, 19, 1), said=said)
    assert ground("ordered the cake, pick up Saturday from 7:30", datetime(2026, 11, 19, 12, 0), said=said) == \
        "ordered the cake, pick up Saturday (2026-11-28) from 7:30"


def test_chinese_month_end() -> None:
    monday = D(2026, 11, 16)
    assert resolve_relative("国补说是月底截止", monday) == "国补说是月底（2026-11-30）截止"
    assert resolve_relative("下个月底之前交", monday) == "下个月底（2026-12-31）之前交"
    assert resolve_relative("下个月去", monday) == "下个月（2026-12）去"
    assert resolve_relative("2026年月底", monday) == "2026年月底"


def test_a_weekday_with_its_day_and_month_gives_that_weekend() -> None:
    said: dict[int, date] = {}
    ground("GLASS HARBOUR ADDED A LEEDS DATE. Saturday 5th December, O2 Academy", datetime(2026, 11, 23, 9, 0),
           said=said)
    assert said[5] == D(2026, 12, 5)
    assert ground("There's a 10:15 on the Sunday that gets in at 11:08.", datetime(2026, 11, 24, 9, 0), said=said) == \
        "There's a 10:15 on the Sunday (2026-12-06) that gets in at 11:08."


def test_irregular_past_verbs_set_the_tense_and_a_hedge_does_not() -> None:
    wednesday = D(2026, 11, 25)
    assert resolve_relative("I ran a half marathon on Sunday!!", wednesday) == \
        "I ran a half marathon on Sunday (2026-11-22)!!"
    assert resolve_relative("I thought we could go this Saturday", wednesday) == \
        "I thought we could go this Saturday (2026-11-28)"


def test_the_weekend_after_next_is_the_one_after_the_coming_weekend() -> None:
    # Said Monday to Wednesday: the weekend after the coming one (held-out reviewers meant it four times out of four).
    for day in (23, 24, 25):
        assert resolve_relative("the weekend after next", D(2026, 11, day)) == \
            "the weekend after next (weekend of 2026-12-05)", day
    # The coming weekend two days off or already here (Thursday to Sunday): the one after the next.
    for day in (26, 27, 28, 29):
        assert resolve_relative("the weekend after next", D(2026, 11, day)) == \
            "the weekend after next (weekend of 2026-12-12)", day


def test_getting_married_and_as_fixed_are_no_past_and_a_month_typed_in_lower_case_names_the_day() -> None:
    tuesday = D(2026, 11, 10)
    assert resolve_relative("we're getting married on the 2nd.", tuesday) == "we're getting married on the 2nd (2026-12-02)."
    assert resolve_relative("we got married on the 2nd.", tuesday) == "we got married on the 2nd (2026-11-02)."
    assert resolve_relative("we're getting married on the 2nd and the honeymoon is japan 6th-20th jan.", tuesday) == \
        "we're getting married on the 2nd (2027-01-02) and the honeymoon is japan 6th-20th jan (2027)."
    assert resolve_relative("You can't defer again, so treat 8 March as fixed.", D(2026, 11, 19)) == \
        "You can't defer again, so treat 8 March (2027) as fixed."
    assert resolve_relative("we may go on the 2nd", tuesday) == "we may go on the 2nd (2026-12-02)"  # "may" is no month


def test_a_past_day_of_the_month_takes_the_month_the_sentence_before_named_and_has_got_is_now() -> None:
    sunday = D(2026, 12, 13)
    assert resolve_relative("My dad died at the end of october. He had a stroke on the 24th.", sunday) == \
        "My dad died at the end of october. He had a stroke on the 24th (2026-10-24)."
    # Not a day to come, and not when the sentence names its own month.
    assert resolve_relative("We moved in March. The boiler is booked for the 24th.", sunday) == \
        "We moved in March. The boiler is booked for the 24th (2026-12-24)."
    said: dict[int, date] = {}
    wednesday = datetime(2026, 12, 9, 8, 0)
    ground("mum and dad want to come down this saturday for the weekend, they'd stay till monday", wednesday, said=said)
    # A past verb elsewhere in the sentence does not make "it's sunday at 4" last Sunday.
    assert "(2026-12-06)" not in ground("your mum mentioned the carol service last time, it's sunday at 4, we could all "
                                        "go?", wednesday, said=said)


def test_a_chinese_day_of_next_month_is_one_date() -> None:
    thursday = D(2026, 11, 19)
    assert resolve_relative("下个月6号开课", thursday) == "下个月6号（2026-12-06）开课"
    assert resolve_relative("上个月20号去的", thursday) == "上个月20号（2026-10-20）去的"
    assert resolve_relative("下个月想报班", thursday) == "下个月（2026-12）想报班"  # the month alone stays a month
    assert resolve_relative("下个月31号", D(2027, 1, 10)) == "下个月31号"  # no 31 February: as written


def test_a_perfect_after_until_or_once_is_still_to_come() -> None:
    wednesday = D(2026, 12, 2)
    assert resolve_relative("We don't order until the council has decided on the grant on 6 January.", wednesday) == \
        "We don't order until the council has decided on the grant on 6 January (2027)."
    assert resolve_relative("Once the vet has checked her on 3 January we can fly.", wednesday) == \
        "Once the vet has checked her on 3 January (2027) we can fly."
    # Without the "until", a perfect is past.
    assert resolve_relative("The council has decided on the grant on 6 January.", wednesday) == \
        "The council has decided on the grant on 6 January (2026)."


def test_a_day_of_the_month_takes_the_present_of_its_own_clause() -> None:
    thursday = D(2026, 11, 19)
    assert resolve_relative("Esme checked, the 5th is full now.", thursday) == \
        "Esme checked, the 5th (2026-12-05) is full now."
    assert resolve_relative("we went on the 5th, it was great", thursday) == \
        "we went on the 5th (2026-11-05), it was great"


def test_a_timetable_present_is_the_coming_day_even_after_a_past_verb() -> None:
    saturday = D(2026, 11, 28)
    assert resolve_relative("ordered a 12 litre dehumidifier, £179, arrives monday.", saturday) == \
        "ordered a 12 litre dehumidifier, £179, arrives monday (2026-11-30)."
    assert resolve_relative("it arrived monday.", saturday) == "it arrived monday (2026-11-23)."
    assert resolve_relative("term ends friday.", saturday) == "term ends friday (2026-12-04)."


def test_a_relative_day_with_its_date_written_after_it_is_not_annotated() -> None:
    saturday = D(2026, 11, 28)
    # The written day says it; a second, counted day beside it could only disagree ("两周后（12-12）：12月17日").
    assert resolve_relative("Re-check in two weeks, on Saturday 12 December: measure", saturday) == \
        "Re-check in two weeks, on Saturday 12 December (2026): measure"
    assert resolve_relative("两周后：12月17日（周四）前后，取病理报告", D(2026, 11, 24)) == "两周后：12月17日（周四）前后，取病理报告"
    assert resolve_relative("in two weeks. December is busy", saturday) == "in two weeks (2026-12-12). December is busy"


def test_a_wait_counted_from_a_condition_is_not_counted_from_today() -> None:
    tuesday = D(2026, 11, 24)
    assert resolve_relative("If they take a biopsy, results come in two weeks.", tuesday) == \
        "If they take a biopsy, results come in two weeks."
    assert resolve_relative("医生还说如果取了活检，病理结果要两周后才出。", tuesday) == "医生还说如果取了活检，病理结果要两周后才出。"
    # "know if" asks whether; a condition after the date does not move it
    assert resolve_relative("mum wants to know if we're driving up in three weeks", tuesday) == \
        "mum wants to know if we're driving up in three weeks (2026-12-15)"
    assert resolve_relative("Results in two weeks, if all goes well.", tuesday) == \
        "Results in two weeks (2026-12-08), if all goes well."
    assert resolve_relative("两周后复查", tuesday) == "两周后（2026-12-08）复查"


def test_a_day_of_a_month_in_lower_case_and_the_days_just_after_a_named_one() -> None:
    sunday = D(2026, 12, 6)
    assert resolve_relative("the surgery's at guy's on the 14th of january.", sunday) == \
        "the surgery's at guy's on the 14th of january (2027)."
    assert resolve_relative("i start monday the 4th of january", sunday) == \
        "i start monday the 4th of january (2027)"
    assert resolve_relative("I may 5 times", sunday) == "I may 5 times"  # "may" is no month
    # After "the 14th of january", "the 15th to the 17th" may be January's or December's: as written. The days of
    # the coming month stay dated, and so does a day the chat gave by its weekday.
    said: dict = {}
    at = datetime(2026, 12, 6, 20, 0, tzinfo=timezone.utc)
    ground("the surgery's at guy's on the 14th of january.", at, timezone.utc, said)
    assert ground("so that's the 15th to the 17th", at, timezone.utc, said) == "so that's the 15th to the 17th"
    assert ground("next meeting on the 14th", at, timezone.utc, said) == "next meeting on the 14th (2026-12-14)"
    late_november = datetime(2026, 11, 22, 20, 0, tzinfo=timezone.utc)
    said = {}
    ground("Order them by 4 December so they arrive", late_november, timezone.utc, said)
    assert ground("I'll confirm names by the 5th", late_november, timezone.utc, said) == \
        "I'll confirm names by the 5th (2026-12-05)"


def test_a_chinese_month_of_next_year_and_the_weekend_said_as_at_the_weekend() -> None:
    wednesday = D(2026, 11, 25)
    assert resolve_relative("预产期明年5月，产假那几个月", wednesday) == "预产期明年5月（2027-05），产假那几个月"
    assert resolve_relative("去年3月12号买的", wednesday) == "去年3月12号（2025-03-12）买的"
    assert resolve_relative("明年我们再看", wednesday) == "明年（2027）我们再看"
    tuesday = D(2026, 12, 8)
    assert resolve_relative("I'll add the tomorrow rollover at the weekend.", tuesday) == \
        "I'll add the tomorrow rollover at the weekend (weekend of 2026-12-12)."
    assert resolve_relative("we went to the coast over the weekend", tuesday) == \
        "we went to the coast over the weekend (weekend of 2026-12-05)"
    assert resolve_relative("on the weekend of the 12th", tuesday) == "on the weekend of the 12th (2026-12-12)"


def test_a_day_said_alone_after_news_takes_its_tense_and_the_saturday_between_the_days_given() -> None:
    sunday = D(2026, 12, 13)
    assert resolve_relative("I PASSED MY DRIVING TEST. On tuesday. Third time lucky", sunday) == \
        "I PASSED MY DRIVING TEST. On tuesday (2026-12-08). Third time lucky"
    assert resolve_relative("I have the dentist. On tuesday.", sunday) == "I have the dentist. On tuesday (2026-12-15)."
    said: dict = {}
    at = datetime(2026, 12, 13, 19, 40)
    ground("we go up on the 29th and back on the 2nd", at, said=said)
    ground("What about the weekend before, friday 8th to sunday 10th january?", at, said=said)
    assert ground("i'll book it for 7:30 on the saturday", at, said=said) == \
        "i'll book it for 7:30 on the saturday (2027-01-09)"


def test_a_day_offered_in_the_perfect_is_still_ahead() -> None:
    tuesday = D(2026, 12, 8)
    assert resolve_relative("they've offered sunday 13th at 11am instead", tuesday) == \
        "they've offered sunday 13th (2026-12-13) at 11am instead"
    assert resolve_relative("we met on sunday 13th", tuesday) == "we met on sunday 13th"  # gone by, and none was


def test_the_end_of_the_week_is_its_friday() -> None:
    tuesday = date(2026, 11, 17)
    assert resolve_relative("12 volunteers by end of next week", tuesday) == \
        "12 volunteers by end of next week (2026-11-27)"
    assert resolve_relative("I'll let you know by the end of the week", tuesday) == \
        "I'll let you know by the end of the week (2026-11-20)"
    # Said on a Saturday, this week's Friday is past: left as written; a weekend or a week-long sale is not this
    saturday = date(2026, 11, 21)
    assert resolve_relative("by the end of the week", saturday) == "by the end of the week"
    assert resolve_relative("by the end of the weekend", tuesday) == "by the end of the weekend"
    assert resolve_relative("the end of the week-long sale", tuesday) == "the end of the week-long sale"


def test_a_day_noted_later_in_the_text_does_not_resolve_an_earlier_bare_weekday() -> None:
    # (Found by the idempotence property: the second pass read the note the first pass gave the second "SUNDAY".)
    text = "SUNDAY. yesterday SUNDAY. yesterday "
    once = resolve_relative(text, date(2000, 1, 1))
    assert once == "SUNDAY. yesterday (1999-12-31) SUNDAY (1999-12-26). yesterday (1999-12-31) "
    assert resolve_relative(once, date(2000, 1, 1)) == once


def test_more_irregular_past_verbs_set_the_tense() -> None:
    wednesday = D(2026, 12, 2)
    assert resolve_relative("sent the passport application off on monday, £94.50 online", wednesday) == \
        "sent the passport application off on monday (2026-11-30), £94.50 online"
    assert resolve_relative("he bit my brother on sunday", wednesday) == "he bit my brother on sunday (2026-11-29)"
    # ... but not a bit, nor being paid, which is still to come
    assert resolve_relative("I'm a bit busy on Saturday", wednesday) == "I'm a bit busy on Saturday (2026-12-05)"
    assert resolve_relative("I get paid on Friday", wednesday) == "I get paid on Friday (2026-12-04)"


def test_a_possessive_keeps_its_s_before_the_date_and_a_date_written_after_is_not_given_twice() -> None:
    friday = D(2026, 12, 4)
    assert resolve_relative("replayed this morning's failed webhooks", friday) == \
        "replayed this morning's (2026-12-04) failed webhooks"
    assert resolve_relative("this month's book is Piranesi", friday) == "this month's (2026-12) book is Piranesi"
    assert resolve_relative("last night's gig", friday) == "last night's (2026-12-03) gig"
    assert resolve_relative("月底（**12月31日**）前交尾款", friday) == "月底（**12月31日**）前交尾款"
    assert resolve_relative("last weekend (fri 20 – sun 22 nov) we stayed", friday).startswith("last weekend (fri 20")


def test_a_day_another_rule_gives_later_in_the_pass_is_read_in_the_same_pass() -> None:
    # (Found by the idempotence property: "三周后" is resolved after the bare weekday, so a second pass read its note.)
    once = resolve_relative(". 三周后 FRIDAY. yesterday ", D(2000, 1, 4))
    assert once == ". 三周后（2000-01-25） FRIDAY (2000-01-28). yesterday (2000-01-03) "
    assert resolve_relative(once, D(2000, 1, 4)) == once


def test_once_youve_checked_is_still_to_come_and_a_day_written_as_an_ordinal_after_is_kept() -> None:
    sunday = D(2026, 11, 29)
    assert resolve_relative("cancel it in early January, once you've checked no payment was taken on 1 jan", sunday) \
        == "cancel it in early January, once you've checked no payment was taken on 1 jan (2027)"
    assert resolve_relative("they replied on thursday (3rd), all sorted", D(2026, 12, 8)) == \
        "they replied on thursday (3rd), all sorted"


def test_the_day_before_last_a_habit_and_a_fragment_after_the_news() -> None:
    sunday = datetime(2026, 11, 29, 15, 0)
    # "the Tuesday before last" is a week before last Tuesday (24 November), not the Tuesday the chat gave.
    assert ground("Emergency surgery on the Tuesday before last.", sunday, said={1: D(2026, 12, 1)}) == \
        "Emergency surgery on the Tuesday before last (2026-11-17)."
    assert ground("We met the week before last.", sunday, said={}) == \
        "We met the week before last (week of 2026-11-09)."
    assert ground("the weekend before last", datetime(2026, 11, 30, 9, 0), said={}) == \
        "the weekend before last (weekend of 2026-11-21)"  # (said on a Monday: "last weekend" was the 28th)
    # "Friday nights" are every Friday, whatever Friday the chat gave.
    assert ground("Friday nights I don't sleep.", sunday, said={4: D(2026, 12, 4)}) == "Friday nights I don't sleep."
    # A fragment with no verb of its own takes the tense of the news before it; an exclaimed one announces.
    assert ground("I PASSED MY DRIVING TEST. Third attempt, on Thursday.", sunday, said={}) == \
        "I PASSED MY DRIVING TEST. Third attempt, on Thursday (2026-11-26)."
    assert ground("We had fun. Party on Friday!", sunday, said={}) == "We had fun. Party on Friday (2026-12-04)!"
    assert ground("Insurance covered it. The cone comes off on Friday.", sunday, said={}) == \
        "Insurance covered it. The cone comes off on Friday (2026-12-04)."


def test_on_a_weekday_in_a_clause_without_the_past_is_the_day_the_chat_gave() -> None:
    thursday = datetime(2026, 12, 10, 18, 57)
    # "rang" is the call's tense, not the table's: Saturday is the 12th the chat gave, not the 5th gone by.
    assert ground("called it. just rang them, table for 8 at 9:45 on saturday under my name.", thursday,
                  said={5: D(2026, 12, 12)}) == \
        "called it. just rang them, table for 8 at 9:45 on saturday (2026-12-12) under my name."
    assert ground("we went on saturday, lovely.", thursday, said={5: D(2026, 12, 12)}) == \
        "we went on saturday (2026-12-05), lovely."


def test_how_it_usually_goes_in_chinese_gives_no_day() -> None:
    assert resolve_relative("厨房水管出问题一般在两三年后才暴露", D(2026, 12, 3)) == "厨房水管出问题一般在两三年后才暴露"
    assert resolve_relative("两周后复查", D(2026, 12, 3)) == "两周后（2026-12-17）复查"


def test_a_weekday_in_brackets_after_the_day_it_names_is_that_day() -> None:
    assert ground("yes, minutes out tomorrow (thursday) and i'll tell them", datetime(2026, 11, 25, 20, 0),
                  said={3: D(2026, 12, 10)}) == "yes, minutes out tomorrow (2026-11-26) (thursday) and i'll tell them"


def test_weeks_ago_tomorrow_counts_from_tomorrow_and_the_nth_of_next_month_is_next_months() -> None:
    sunday = D(2027, 1, 24)
    assert resolve_relative("started two weeks ago tomorrow, sound engineer", sunday) == \
        "started two weeks ago tomorrow (2027-01-11), sound engineer"
    assert resolve_relative("i started two weeks ago", sunday) == "i started two weeks ago (2027-01-10)"
    assert resolve_relative("a week ago yesterday", sunday) == "a week ago yesterday (2027-01-16)"
    assert resolve_relative("last day is the end of next month, the 26th.", sunday) == \
        "last day is the end of next month, the 26th (2027-02-26)."
    assert resolve_relative("last day is the 26th.", sunday) == "last day is the 26th (2027-01-26)."
    assert resolve_relative("we moved in last month, on the 3rd", sunday) == \
        "we moved in last month (2026-12), on the 3rd (2026-12-03)"
    # "the Saturday after next" is the one after the coming Saturday, like the weekend after next.
    assert resolve_relative("the saturday after next?", sunday) == "the saturday after next (2027-02-06)?"
    assert resolve_relative("the saturday after next", D(2027, 1, 28)) == "the saturday after next (2027-02-13)"
    assert resolve_relative("the saturday after", sunday) == "the saturday after"  # (after what: as written)


def test_march_and_may_in_lower_case_are_months_beside_their_day() -> None:
    tuesday = D(2026, 12, 1)
    assert resolve_relative("we fly out tuesday 2nd march", tuesday) == "we fly out tuesday 2nd march (2027)"
    assert resolve_relative("nets start sunday 7 march", tuesday) == "nets start sunday 7 march (2027)"
    assert resolve_relative("may 3rd works", tuesday) == "may 3rd (2027) works"
    for said in ("5 may be enough", "we march on", "I may 2nd-guess it", "it may rain"):
        assert resolve_relative(said, tuesday) == said
    assert resolve_relative("joined on 15 march this year", tuesday) == "joined on 15 march this year (2026)"


def test_a_bare_ordinal_means_a_day_just_named_with_its_month_or_beside_one() -> None:
    monday = datetime(2026, 11, 16, 18, 0, tzinfo=timezone.utc)
    said: dict = {}
    ground("Decided: 200 boxes, handed out on Saturday December 19th.", monday, timezone.utc, said)
    assert ground("For the 19th we'll need more hands.", monday, timezone.utc, said) == \
        "For the 19th (2026-12-19) we'll need more hands."
    # One message between, still that 19th; two, and a bare "the 19th" is the coming one again.
    said = {}
    ground("Decided: 200 boxes, handed out on Saturday December 19th.", monday, timezone.utc, said)
    ground("Kenji orders them by December 1st.", monday, timezone.utc, said)
    assert ground("For the 19th we'll need more hands.", monday, timezone.utc, said) == \
        "For the 19th (2026-12-19) we'll need more hands."
    ground("Anything else?", monday, timezone.utc, said)
    ground("No, that's all.", monday, timezone.utc, said)
    assert ground("The 19th is the quiz", monday, timezone.utc, said) == "The 19th (2026-11-19) is the quiz"
    wednesday = datetime(2026, 11, 25, 20, 0, tzinfo=timezone.utc)
    said = {}
    ground("two extra rehearsals: tuesday 15th and tuesday 29th", wednesday, timezone.utc, said)  # December's
    assert ground("29th i'm in leeds till the 30th", wednesday, timezone.utc, said) == \
        "29th i'm in leeds till the 30th (2026-12-30)"
    assert ground("i'm in leeds till the 30th", wednesday, timezone.utc, {}) == "i'm in leeds till the 30th (2026-11-30)"
    said = {}
    ground("two extra rehearsals: tuesday 15th and tuesday 29th", wednesday, timezone.utc, said)
    assert ground("done by the 28th", wednesday, timezone.utc, said) == "done by the 28th (2026-11-28)"


def test_a_list_of_days_goes_forward_and_a_clause_without_a_verb_takes_no_tense() -> None:
    thursday = D(2026, 12, 3)
    assert resolve_relative("because you paid, the four debits (15 December, 15 January, 15 February, 15 March) cover "
                            "it", thursday).endswith("15 March 2027) cover it")
    assert resolve_relative("because you paid, it was 15 March", thursday) == "because you paid, it was 15 March (2026)"
    friday = D(2026, 12, 11)
    said = "membership ends 31 december, the 1 dec payment was the last one, nothing on 1 jan, and no admin fee"
    assert resolve_relative(said, friday) == ("membership ends 31 december, the 1 dec (2026) payment was the last "
                                              "one, nothing on 1 jan (2027), and no admin fee")
    assert resolve_relative("the payment was taken, on 1 jan", friday) == "the payment was taken, on 1 jan (2026)"


def test_on_a_weekday_the_day_after_a_day_the_message_gave_or_a_habit() -> None:
    tuesday = datetime(2027, 1, 12, 19, 0, tzinfo=timezone.utc)
    assert ground("sunday 24th it is then. earlier though, 6pm, everyone's got work on monday.", tuesday,
                  timezone.utc, {}) == \
        "sunday 24th (2027-01-24) it is then. earlier though, 6pm, everyone's got work on monday (2027-01-25)."
    assert ground("everyone's got work on monday.", tuesday, timezone.utc, {}) == \
        "everyone's got work on monday (2027-01-18)."
    wednesday = D(2026, 11, 18)
    assert resolve_relative("Saturday market in Hebden Bridge, I've been doing it four weeks now. I bake about 60 "
                            "loaves on Friday night", wednesday).endswith("on Friday night")
    assert resolve_relative("I bake a cake for her on Friday night", wednesday) == \
        "I bake a cake for her on Friday (2026-11-20) night"


def test_the_end_of_the_month_is_its_last_day() -> None:
    wednesday = D(2026, 11, 18)
    assert resolve_relative("I'll write to Cllr Patel by the end of the month.", wednesday) == \
        "I'll write to Cllr Patel by the end of the month (2026-11-30)."
    assert resolve_relative("at the end of next month", D(2026, 12, 31)) == "at the end of next month (2027-01-31)"
    assert resolve_relative("we had paid by the end of the month", wednesday) == "we had paid by the end of the month"


def test_the_weekend_after_that_names_its_days_and_the_eve_of_a_day_given() -> None:
    wednesday = datetime(2027, 2, 17, 19, 0, tzinfo=timezone.utc)
    said: dict = {}
    ground("we're back Friday the 5th.", wednesday, timezone.utc, said)
    assert ground("i'll take the weekend after then, sat 27th and sun 28th. i'll get him from Hannah's friday night",
                  wednesday, timezone.utc, said) == \
        "i'll take the weekend after (weekend of 2027-02-27) then, sat 27th (2027-02-27) and sun 28th (2027-02-28). " \
        "i'll get him from Hannah's friday (2027-02-26) night"
    # Without its days, the weekend after is after the latest day the chat gave.
    assert ground("i'll take the weekend after then", wednesday, timezone.utc, said) == \
        "i'll take the weekend after (weekend of 2027-03-06) then"
    # "on saturday mornings" is every Saturday; "on saturday morning" is the coming one.
    assert resolve_relative("i've got swimming at 10 on saturday mornings", D(2027, 2, 18)) == \
        "i've got swimming at 10 on saturday mornings"
    assert resolve_relative("i've got swimming at 10 on saturday morning", D(2027, 2, 18)) == \
        "i've got swimming at 10 on saturday (2027-02-20) morning"


def test_last_thursday_said_on_a_friday_is_the_thursday_the_chat_named_a_week_before() -> None:
    friday = datetime(2026, 11, 20, 13, 0, tzinfo=timezone.utc)
    said = {3: D(2026, 11, 12)}  # "an engineer's coming on thursday (12 November)"
    assert ground("the engineer came last thursday and swapped the hub", friday, timezone.utc, said) == \
        "the engineer came last thursday (2026-11-12) and swapped the hub"
    assert ground("the engineer came last thursday and swapped the hub", friday, timezone.utc, {}) == \
        "the engineer came last thursday (2026-11-19) and swapped the hub"
