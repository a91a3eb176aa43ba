"""Timestamps and calendar days: parsing the many shapes chats use, and day bucketing.

Aware timestamps are converted to the vault's timezone before taking the day;
naive ones keep their literal date (the reference behaviour). With no
timezone configured the system zone is used, with the DST rules of the
timestamp's own date.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from daemon.errors import ConfigError

TIME_KEYS = ("time_created", "timestamp", "createdAt", "timeCreated", "created_time")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TEXT_FORMATS = ("%I:%M %p on %d %B, %Y", "%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M", "%Y/%m/%d")


def parse_timestamp(value: object) -> datetime | None:
    """Parse an ISO string (with or without ``Z``/offset), epoch seconds or milliseconds.

    Returns None for an empty value; raises ValueError for a value that is
    present but not a time.
    """
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a timestamp: {value!r}")
    if isinstance(value, (int, float)):
        return _from_epoch(float(value))
    if not isinstance(value, str):
        raise ValueError(f"not a timestamp: {value!r}")
    text = value.strip()
    if re.fullmatch(r"-?\d+(\.\d+)?", text):
        return _from_epoch(float(text))
    try:
        return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
    except ValueError:
        pass
    for fmt in _TEXT_FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    raise ValueError(f"not a timestamp: {value!r}")


def _from_epoch(seconds: float) -> datetime:
    if abs(seconds) > 1e11:  # milliseconds (JavaScript exports)
        seconds /= 1000.0
    try:
        return datetime.fromtimestamp(seconds, tz=timezone.utc)
    except (OverflowError, OSError, ValueError) as exc:
        raise ValueError(f"epoch out of range: {seconds!r}") from exc


def load_timezone(name: str) -> tzinfo | None:
    """The configured IANA zone, or None for the system zone; raises ConfigError naming the key."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(f"timezone: unknown IANA time zone {name!r}") from exc


def day_of(moment: datetime, tz: tzinfo | None) -> date:
    """The calendar day of ``moment`` in ``tz``: aware times convert, naive ones keep their date."""
    if moment.tzinfo is None:
        return moment.date()
    return (moment.astimezone(tz) if tz is not None else moment.astimezone()).date()


def today(tz: tzinfo | None, now: datetime | None = None) -> date:
    """Today's date in ``tz`` (system zone when None)."""
    moment = now or datetime.now(timezone.utc)
    return day_of(moment if moment.tzinfo else moment.astimezone(), tz)


def sort_key(moment: datetime | None, tz: tzinfo | None) -> float | None:
    """A comparable instant: naive times are read in the vault's zone."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=tz) if tz is not None else moment.astimezone()
    return moment.timestamp()


def parse_day(value: str) -> date:
    """Parse a strict ``YYYY-MM-DD``; raises ValueError otherwise."""
    if not isinstance(value, str) or not _DATE_RE.match(value):
        raise ValueError("date must be YYYY-MM-DD")
    return date.fromisoformat(value)
