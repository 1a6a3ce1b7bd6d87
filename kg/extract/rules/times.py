"""When an event happened or a claim was made: the date expression that goes with a word.

An expression attached to the word, or to a clause above it, wins ("ordered the invasion …
on Feb. 24"; "X surrendered, Russia said Wednesday"), and so does the date of a "when" clause
of the word or a clause above it ("When Britain went to the polls in 1979, … X resigned");
else the first one inside the word's own clause ("arrested 45 protesters after clashes … on
Saturday"). An expression the date parser cannot read whole is read by its leading words
("Sunday after weeks" → Sunday).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING

from kg.extract.rules.context import FactContext
from kg.extract.values import is_duration, is_time_point, normalise_date
from kg.heuristics import applies, declare
from kg.model import TimeExpression

if TYPE_CHECKING:
    from spacy.tokens import Token

MAX_CLIMB = 12

POINT_FIRST = declare(
    "event.time.point-first", "facts.event",
    reads="the date expressions hanging from one word",
    writes="Event.time",
    description="Of two expressions hanging from one word, one that names a day, month or "
                "year is the word's date over one that names none (\"died at the age of 87 "
                "on 4 February 2005\", \"sealed the deal at 0227 GMT on Friday\"): the first "
                "in the sentence no longer hides it.",
    example="Ossie Davis died in Miami at the age of 87 on 4 February 2005.",
)


def pinned(time: TimeExpression, reference: date | None) -> TimeExpression:
    """``time`` with a value read from its leading words when the whole could not be read.

    >>> t = TimeExpression(0, 18, "Sunday after weeks", 0, None)
    >>> pinned(t, date(2024, 6, 11)).value
    datetime.date(2024, 6, 9)

    The leading words never cut a length of time in two: the parser would read the "six" of
    "six years" as June.

    >>> pinned(TimeExpression(0, 9, "six years", 0, None), date(2024, 6, 11)).value is None
    True
    """
    if time.value is not None:
        return time
    words = time.text.split()
    for size in range(len(words) - 1, 0, -1):
        if is_duration(" ".join(words[size - 1 : size + 1])):
            continue  # "six | years"
        value, granularity = normalise_date(" ".join(words[:size]), reference)
        if value is not None:
            return replace(time, value=value, granularity=granularity)
    return time


def attached_times(ctx: FactContext, sentence: int) -> dict[int, TimeExpression]:
    """Token index of the word each date expression of a sentence hangs from → expression."""
    attached: dict[int, TimeExpression] = {}
    for i, time in ctx.time_at.items():
        token = ctx.doc[i]
        if token.head.i in ctx.time_at and ctx.time_at[token.head.i] is time:
            continue  # not the expression's root
        point = token.head.head if token.head.dep_ == "prep" else token.head
        if ctx.sentence(point) != sentence:
            continue
        before = attached.setdefault(point.i, time)
        if before is not time and not is_time_point(before.text) and is_time_point(time.text) \
                and applies(POINT_FIRST.id, lambda: True):
            attached[point.i] = time  # "at the age of 87 on 4 February 2005": the day
    return attached


def when_clause_time(verb: Token, attached: dict[int, TimeExpression]) -> TimeExpression | None:
    """The date of a "when" clause under ``verb``, which dates ``verb`` too."""
    for clause in verb.children:
        if clause.dep_ == "advcl" and clause.i in attached and any(
                c.lower_ == "when" and c.dep_ in {"advmod", "mark"} for c in clause.children):
            return attached[clause.i]
    return None


def time_of(ctx: FactContext, word: Token, scope: Sequence[Token] = (),
            stop: Callable[[Token], bool] | None = None) -> TimeExpression | None:
    """The date expression that goes with ``word`` (see the module docstring); the climb ends
    below a word for which ``stop`` holds (the edge of ``word``'s own clause)."""
    attached = attached_times(ctx, ctx.sentence(word))
    found = None
    current = word
    for _ in range(MAX_CLIMB):
        if current.i in attached:
            found = attached[current.i]
            break
        if (when := when_clause_time(current, attached)) is not None:
            found = when  # "When Britain went to the polls in 1979, … X resigned"
            break
        if current.head.i == current.i or stop is not None and stop(current):
            break
        current = current.head
    if found is None:
        found = next((ctx.time_at[t.i] for t in scope if t.i in ctx.time_at), None)
    reference = ctx.frame.document.meta.date_published
    return pinned(found, reference) if found is not None else None
