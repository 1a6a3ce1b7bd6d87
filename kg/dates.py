"""Dates from inputs: the one place that reads and checks them.

Publication dates, archive dates and fetch times arrive in many spellings (ISO 8601,
RFC 2822 ``Wed, 18 May 2022 10:00:00 GMT``, feedparser's ``struct_time``, ``datetime``
objects) and some are not dates at all: ``0000-00-00``, ``0001-01-01`` (the zero date of
.NET and Go), ``9999-12-31`` (a common "no end"), offsets that push a time past year 9999.
Every reader hands what it found to ``checked_date`` (or ``checked_datetime``), which returns a
date inside ``PLAUSIBLE_YEARS`` or raises ``BadDate`` with a reason for one line; the caller
drops the value with a warning naming its record. Nothing later (event dates a day after
publication, ``xsd:date`` literals, the timeline) meets a date it cannot compute with.

>>> checked_date("Wed, 18 May 2022 10:00:00 GMT")
datetime.date(2022, 5, 18)
>>> checked_date("0001-01-01")
Traceback (most recent call last):
kg.dates.BadDate: '0001-01-01' is a placeholder for an unknown date (year 1), not a date
"""

from __future__ import annotations

import calendar
import re
import time
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime
from typing import Any

#: Years a news date may have. Outside them a date is a placeholder for "unknown".
PLAUSIBLE_YEARS = range(1000, 9000)
_ISO_DATE = re.compile(r"\d{4,}-\d{2}-\d{2}")
_RFC_YEAR = re.compile(r"\b\d{1,2}\s+[A-Za-z]{3}\s+(\d{3,})\b")


class BadDate(ValueError):
    """A value that is not a usable date (the message says why); ``placeholder`` when it
    is written as a date whose year says "unknown" (year 0, 1, 9999 …)."""

    def __init__(self, message: str, placeholder: bool = False) -> None:
        super().__init__(message)
        self.placeholder = placeholder


def checked_date(value: Any, *, iso_only: bool = False) -> date:
    """The calendar date of ``value`` (a string, ``date``, ``datetime`` or ``struct_time``),
    in its own time zone; ``BadDate`` when it is none or not plausible.

    ``iso_only`` accepts only ``YYYY-MM-DD`` strings (front matter and sidecars).

    >>> checked_date("2022-05-18T23:30:00-05:00"), checked_date(date(2022, 5, 18))
    (datetime.date(2022, 5, 18), datetime.date(2022, 5, 18))
    """
    moment = _parsed(value, iso_only)
    found = moment.date() if isinstance(moment, datetime) else moment
    return _plausible(found, value)


def checked_datetime(value: Any) -> datetime:
    """A moment in UTC (archive and fetch times); ``BadDate`` when none or not plausible.

    >>> checked_datetime("2022-05-18T10:00:00+02:00")
    datetime.datetime(2022, 5, 18, 8, 0, tzinfo=datetime.timezone.utc)
    """
    moment = _parsed(value, False)
    if not isinstance(moment, datetime):
        moment = datetime(moment.year, moment.month, moment.day)
    _plausible(moment.date(), value)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:  # 9999-12-31T23:59:59-23:59 is past the last representable moment
        raise BadDate(f"{_shown(value)} is not a date kg can compute with") from None


def _parsed(value: Any, iso_only: bool) -> date | datetime:
    if isinstance(value, datetime | date):
        return value
    if isinstance(value, time.struct_time):
        return _from_struct(value)
    if not isinstance(value, str):
        raise BadDate(f"expected a date, got {type(value).__name__}")
    text = value.strip()
    if iso_only and not _ISO_DATE.fullmatch(text):
        raise BadDate(f"{text!r} is not a date of the form YYYY-MM-DD")
    if iso_only or _ISO_DATE.match(text):
        return _iso(text, value)
    year = _RFC_YEAR.search(text)  # email.utils reads year "0000" as 2000: look first
    if year is not None and int(year.group(1)) not in PLAUSIBLE_YEARS:
        raise BadDate(f"{_shown(value)} is a placeholder for an unknown date (year "
                      f"{int(year.group(1))}), not a date", placeholder=True)
    try:
        return parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        raise BadDate(f"{_shown(value)} is not a date (ISO 8601 or RFC 2822 expected)") \
            from None


def _iso(text: str, value: Any) -> date | datetime:
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
        return datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError as e:
        year = text[:4]
        if year.isascii() and year.isdigit() and (int(year) == 0 or len(text) > 10 and
                                                  text[4].isdigit()):
            shown = "0" if int(year) == 0 else "past 9999"
            raise BadDate(f"{_shown(value)} is a placeholder for an unknown date (year "
                          f"{shown}), not a date", placeholder=True) from None
        reason = str(e) if _ISO_DATE.match(text) else "ISO 8601 or RFC 2822 expected"
        raise BadDate(f"{_shown(value)} is not a date ({reason})") from None


def _from_struct(value: time.struct_time) -> datetime:
    """feedparser's UTC ``struct_time`` as a ``datetime``."""
    if not 1 <= value.tm_year <= 9999:
        raise BadDate(f"year {value.tm_year} is a placeholder for an unknown date, not a date",
                      placeholder=True)
    try:
        return datetime.fromtimestamp(calendar.timegm(value), UTC)
    except (OverflowError, ValueError, OSError):
        raise BadDate(f"{time.strftime('%Y-%m-%d', value)!r} is not a date kg can compute "
                      "with") from None


def _plausible(found: date, value: Any) -> date:
    if found.year not in PLAUSIBLE_YEARS:
        raise BadDate(f"{_shown(value)} is a placeholder for an unknown date (year "
                      f"{found.year}), not a date", placeholder=True)
    return found


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return repr(value.strip()[:60])
    if isinstance(value, time.struct_time):
        return repr(f"{value.tm_year:04d}-{value.tm_mon:02d}-{value.tm_mday:02d}")
    return repr(str(value)[:60])
