"""The timeline's drawing: two lanes, when it happened and when it was reported.

Computed here, drawn by the template as SVG (no script): each event is a dot on the lane
"happened" at its time stamp and a dot on the lane "reported" at its article's date, joined
by a line whose slant is the lag. An event whose time could not be pinned sits on the
reported lane only.

>>> chart = timeline_chart([{"happened": "2022-05-16", "reported": "2022-05-18", "type": "X",
...                          "fact": "f", "article": "a"}])
>>> [(m["lag"], m["x1"] < m["x2"]) for m in chart["marks"]]
[(2, True)]
"""

from __future__ import annotations

import hashlib
from datetime import date, timedelta
from statistics import median
from typing import Any

WIDTH, LEFT, RIGHT = 1000, 90, 20
LOOKBACK_DAYS = 120  # events further back than this before the first report sit at the edge
HAPPENED_Y, REPORTED_Y, HEIGHT = 50, 170, 210
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")


def _day(value: Any) -> date | None:
    """The day of a date or datetime; a month (xsd:gYearMonth) or year (xsd:gYear) stamp
    is drawn at its first day.

    >>> _day("2022-05-16T10:00:00Z"), _day("2022-05"), _day("2014"), _day("when?")
    (datetime.date(2022, 5, 16), datetime.date(2022, 5, 1), datetime.date(2014, 1, 1), None)
    """
    text = str(value or "")
    text = {4: text + "-01-01", 7: text + "-01"}.get(len(text), text[:10])
    try:
        return date.fromisoformat(text) if value else None
    except ValueError:
        return None


def type_color(kind: str) -> str:
    """A stable colour per event type.

    >>> type_color("Siege") == type_color("Siege")
    True
    """
    return PALETTE[int(hashlib.sha256(kind.encode()).hexdigest(), 16) % len(PALETTE)]


def timeline_chart(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Positions, axis ticks and lag figures for ``events`` (rows of the timeline query)."""
    days = [d for e in events for d in (_day(e.get("happened")), _day(e.get("reported"))) if d]
    if not days:
        return {"marks": [], "ticks": [], "width": WIDTH, "height": HEIGHT, "lags": {},
                "happened_y": HAPPENED_Y, "reported_y": REPORTED_Y, "undated": len(events)}
    reported_days = [d for e in events if (d := _day(e.get("reported")))]
    first, last = min(days), max(days)
    if reported_days:  # a stray "in 2014" must not squeeze a month of news into a corner
        first = max(first, min(reported_days) - timedelta(days=LOOKBACK_DAYS))
    span = max((last - first).days, 1)

    def x(day: date) -> float:
        return round(LEFT + (max(day, first) - first).days / span * (WIDTH - LEFT - RIGHT), 1)

    marks, lags, undated = [], [], 0
    for event in events:
        happened, reported = _day(event.get("happened")), _day(event.get("reported"))
        if happened is None and reported is None:
            undated += 1
            continue
        lag = (reported - happened).days if happened and reported else None
        if lag is not None:
            lags.append(lag)
        marks.append({**event, "x1": x(happened) if happened else None,
                      "earlier": happened is not None and happened < first,
                      "x2": x(reported) if reported else None, "lag": lag,
                      "color": type_color(str(event.get("type") or ""))})
    return {"marks": marks, "ticks": _ticks(first, last, x), "width": WIDTH, "height": HEIGHT,
            "happened_y": HAPPENED_Y, "reported_y": REPORTED_Y, "undated": undated,
            "lags": _lag_summary(lags)}


def _ticks(first: date, last: date, x: Any) -> list[dict[str, Any]]:
    """About eight labelled dates along the axis: days, months or years by the span."""
    span = (last - first).days
    if span <= 14:
        days = [first + timedelta(days=i) for i in range(span + 1)]
        return [{"x": x(d), "label": d.isoformat()} for d in days]
    step_months = max(1, round(span / 30 / 8))
    ticks, month = [], date(first.year, first.month, 1)
    while month <= last:
        if month >= first:
            ticks.append({"x": x(month), "label": month.strftime("%Y-%m")})
        total = month.month - 1 + step_months
        month = date(month.year + total // 12, total % 12 + 1, 1)
    return ticks or [{"x": x(first), "label": first.isoformat()}]


def _lag_summary(lags: list[int]) -> dict[str, Any]:
    if not lags:
        return {}
    middle = median(lags)
    return {"count": len(lags), "median": int(middle) if middle == int(middle) else middle,
            "max": max(lags),
            "same_day": sum(1 for lag in lags if lag == 0)}
