"""Temporal grounding: relative time words resolved against the message's own date.

Part of the distill stage. A card is read weeks after the chat, so "yesterday"
must say which day it was. The rewrite keeps the speaker's words and appends
the absolute date (``yesterday (2023-05-07)``, ``昨天（2023-05-07）``), so the
quote stays verbatim. Approximate phrases ("a few days ago", "几天前") get
"around" / "约". Everything here is a pure function of (text, anchor date).

Conventions (documented because English is ambiguous here):
- "last Friday" is the most recent Friday strictly before the anchor day;
  "next Monday" the first Monday strictly after it; "this Friday" the Friday
  of the anchor's Monday-based week.
- "上周五" / "下周一" are weekdays of the previous / next calendar week.
- Weeks are named by their Monday, weekends by their Saturday.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, tzinfo
from typing import Callable

__all__ = ["anchor_day", "ground", "resolve_relative"]

_EN_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}
# Vague quantities: the count is a guess, so the date is marked "around".
_EN_VAGUE = {"a few": 3, "a couple of": 2, "a couple": 2, "several": 3, "few": 3, "couple of": 2}
_EN_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

_Resolver = Callable[["re.Match[str]", date], str | None]

_DATE_AFTER = re.compile(r"\s*[（(](?:around |约|weekend of |week of )?\d{4}")
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]+`", re.S)


def anchor_day(time: datetime | None, timezone: tzinfo | None = None) -> date | None:
    """The calendar day a message was written: aware times in ``timezone`` (None: local)."""
    if time is None:
        return None
    if time.tzinfo is not None and time.utcoffset() is not None:
        return time.astimezone(timezone).date()
    return time.date()


def ground(text: str, time: datetime | None, timezone: tzinfo | None = None) -> str:
    """Resolve relative time in ``text`` against the message time; no time, no change."""
    day = anchor_day(time, timezone)
    return text if day is None else resolve_relative(text, day)


def resolve_relative(text: str, anchor: date) -> str:
    """Append absolute dates to every relative time expression in ``text``.

    Code spans and fenced blocks are left alone, and an expression already
    followed by a date is not annotated twice, so the function is idempotent.
    """
    out: list[str] = []
    pos = 0
    for code in _CODE.finditer(text):
        out.append(_resolve_prose(text[pos:code.start()], anchor))
        out.append(code.group(0))
        pos = code.end()
    out.append(_resolve_prose(text[pos:], anchor))
    return "".join(out)


def _resolve_prose(text: str, anchor: date) -> str:
    for pattern, resolver, zh in _RULES:
        text = _apply(pattern, resolver, zh, text, anchor)
    return text


def _apply(pattern: re.Pattern[str], resolver: _Resolver, zh: bool, text: str, anchor: date) -> str:
    def repl(m: re.Match[str]) -> str:
        if _DATE_AFTER.match(text, m.end()):
            return m.group(0)
        try:
            label = resolver(m, anchor)
        except OverflowError:  # a date beyond year 1..9999 has no calendar day to name
            return m.group(0)
        if label is None:
            return m.group(0)
        return f"{m.group(0)}（{label}）" if zh else f"{m.group(0)} ({label})"

    return pattern.sub(repl, text)


# ---- formatting -----------------------------------------------------------

def _day(d: date, approx: bool = False, zh: bool = False) -> str:
    return ("约" if zh else "around ") + d.isoformat() if approx else d.isoformat()


def _week(monday: date, zh: bool = False) -> str:
    return f"{monday.isoformat()}起的一周" if zh else f"week of {monday.isoformat()}"


def _month(d: date, shift: int, approx: bool = False, zh: bool = False) -> str:
    index = d.year * 12 + d.month - 1 + shift
    label = f"{index // 12:04d}-{index % 12 + 1:02d}"
    return ("约" if zh else "around ") + label if approx else label


def _monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


# ---- English --------------------------------------------------------------

def _en_fixed(m: re.Match[str], anchor: date) -> str:
    word = re.sub(r"\s+", " ", m.group(0).lower()).removesuffix("'s").removesuffix("’s")
    offsets = {"the day before yesterday": -2, "the day after tomorrow": 2,
               "yesterday": -1, "last night": -1, "today": 0, "tonight": 0,
               "this morning": 0, "this afternoon": 0, "this evening": 0, "tomorrow": 1}
    return _day(anchor + timedelta(days=offsets[word]))


def _en_weekday(m: re.Match[str], anchor: date) -> str:
    which, target = m.group(1).lower(), _EN_WEEKDAYS.index(m.group(2).lower())
    if which == "last":
        back = (anchor.weekday() - target) % 7 or 7
        return _day(anchor - timedelta(days=back))
    if which == "next":
        ahead = (target - anchor.weekday()) % 7 or 7
        return _day(anchor + timedelta(days=ahead))
    return _day(_monday(anchor) + timedelta(days=target))


def _en_period(m: re.Match[str], anchor: date) -> str:
    shift = {"last": -1, "past": -1, "this": 0, "next": 1}[m.group(1).lower()]
    unit = m.group(2).lower()
    if unit == "weekend":
        return "weekend of " + (_monday(anchor) + timedelta(days=5 + 7 * shift)).isoformat()
    if unit == "week":
        return _week(_monday(anchor) + timedelta(days=7 * shift))
    if unit == "month":
        return _month(anchor, shift)
    return f"{anchor.year + shift}"


def _en_count(m: re.Match[str]) -> tuple[int, bool]:
    raw = re.sub(r"\s+", " ", m.group("n").lower())
    if raw.isdigit():
        return int(raw), False
    if raw in _EN_VAGUE:
        return _EN_VAGUE[raw], True
    return _EN_NUMBERS[raw], False


def _shifted(anchor: date, n: int, unit: str, sign: int, approx: bool, zh: bool = False) -> str | None:
    if n > 400:
        return None
    if unit.startswith(("day", "天")):
        return _day(anchor + timedelta(days=sign * n), approx, zh)
    if unit.startswith(("week", "周", "星期", "个星期", "礼拜", "个礼拜")):
        return _day(anchor + timedelta(days=sign * 7 * n), approx, zh)
    if unit.startswith(("month", "个月", "月")):
        return _month(anchor, sign * n, approx, zh)
    year = anchor.year + sign * n
    return ("约" if zh else "around ") + str(year) if approx else str(year)


def _en_ago(m: re.Match[str], anchor: date) -> str | None:
    n, approx = _en_count(m)
    return _shifted(anchor, n, m.group("unit").lower(), -1, approx)


def _en_in(m: re.Match[str], anchor: date) -> str | None:
    n, approx = _en_count(m)
    return _shifted(anchor, n, m.group("unit").lower(), 1, approx)


# ---- Chinese --------------------------------------------------------------

def _zh_number(raw: str) -> tuple[int, bool]:
    if raw.isdigit():
        return int(raw), False
    if raw in ("几", "好几", "数"):
        return 3, True
    if "十" in raw:
        tens, _, ones = raw.partition("十")
        return _ZH_DIGITS.get(tens, 1) * 10 + _ZH_DIGITS.get(ones, 0), False
    return _ZH_DIGITS[raw], False


def _zh_fixed(m: re.Match[str], anchor: date) -> str:
    offsets = {"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "昨晚": -1, "今天": 0, "今日": 0,
               "今晚": 0, "明天": 1, "明日": 1, "明晚": 1, "后天": 2, "大后天": 3}
    if m.group(0) == "前几天":
        return _day(anchor - timedelta(days=3), True, True)
    return _day(anchor + timedelta(days=offsets[m.group(0)]))


def _zh_shift(word: str) -> int:
    return {"上": -1, "下": 1, "这": 0, "本": 0}[word[0]]


def _zh_weekday(m: re.Match[str], anchor: date) -> str:
    monday = _monday(anchor) + timedelta(days=7 * _zh_shift(m.group(1)))
    return _day(monday + timedelta(days=_ZH_WEEKDAYS[m.group(3)]))


def _zh_period(m: re.Match[str], anchor: date) -> str:
    word = m.group(0)
    if word.endswith("周末"):
        return _day(_monday(anchor) + timedelta(days=5 + 7 * _zh_shift(word))) + "起的周末"
    if word.endswith("月"):
        return _month(anchor, _zh_shift(word))
    return _week(_monday(anchor) + timedelta(days=7 * _zh_shift(word)), zh=True)


def _zh_year(m: re.Match[str], anchor: date) -> str:
    return str(anchor.year + {"前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}[m.group(0)])


def _zh_count(m: re.Match[str], anchor: date) -> str | None:
    n, approx = _zh_number(m.group("n"))
    sign = -1 if m.group("dir") in ("前", "以前", "之前") else 1
    return _shifted(anchor, n, m.group("unit"), sign, approx, zh=True)


_EN_N = r"(?P<n>\d{1,3}|a\s+few|a\s+couple(?:\s+of)?|several|" + "|".join(_EN_NUMBERS) + r")"
_EN_UNIT = r"(?P<unit>days?|weeks?|months?|years?)"
_ZH_N = r"(?P<n>\d{1,3}|[一二两三四五六七八九]?十[一二三四五六七八九]?|[一二两三四五六七八九]|几|好几|数)"

_RULES: list[tuple[re.Pattern[str], _Resolver, bool]] = [
    (re.compile(r"\b(?:the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|yesterday|"
                r"last\s+night|today(?:['’]s)?|tonight|this\s+(?:morning|afternoon|evening)|"
                r"tomorrow(?:['’]s)?)\b", re.I), _en_fixed, False),
    (re.compile(r"\b(last|next|this)\s+(" + "|".join(_EN_WEEKDAYS) + r")\b", re.I), _en_weekday, False),
    (re.compile(r"\b(last|past|this|next)\s+(weekend|week|month|year)\b", re.I), _en_period, False),
    (re.compile(r"\b" + _EN_N + r"\s+" + _EN_UNIT + r"\s+ago\b", re.I), _en_ago, False),
    (re.compile(r"\bin\s+" + _EN_N + r"\s+" + _EN_UNIT + r"(?:'s?\s+time)?\b", re.I), _en_in, False),
    (re.compile(r"(上|下|这|本)(个)?(?:周|星期|礼拜)([一二三四五六日天])(?!气)"), _zh_weekday, True),
    # Lookaheads: "上周五" is a weekday (handled above); "这周围" means "around here".
    (re.compile(r"(?:上|下|这|本)(?:个)?(?:周末|周|星期|礼拜|月)(?![一二三四五六日天围边期到全])"),
     _zh_period, True),
    (re.compile(_ZH_N + r"(?P<unit>天|个?星期|个?礼拜|周|个月|年)(?P<dir>以前|之前|前|以后|之后|后)"),
     _zh_count, True),
    # Lookbehinds: "以后天气" and "以前天天" contain 后天 / 前天 without meaning them.
    (re.compile(r"大前天|大后天|前几天|(?<![之以从目提])前天|昨天|昨日|昨晚|今天|今日|今晚|明天|明日|明晚|"
                r"(?<![之以然最])后天"), _zh_fixed, True),
    (re.compile(r"(?<![之以从目提])前年|去年|今年|明年|(?<![之以然最])后年"), _zh_year, True),
]
