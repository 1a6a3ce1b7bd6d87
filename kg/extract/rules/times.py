"""When an event happened or a claim was made: the date expression that goes with a word.

An expression attached to the word, or to a clause above it, wins ("ordered the invasion …
on Feb. 24"; "X surrendered, Russia said Wednesday"), and so does the date of a "when" clause
of the word or a clause above it ("When Britain went to the polls in 1979, … X resigned");
else the first one inside the word's own clause ("arrested 45 protesters after clashes … on
Saturday"). An expression the date parser cannot read whole is read by its leading words
("Sunday after weeks" → Sunday).
"""

from __future__ import annotations

from collections.abc import Sequence
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
#: How a date's words hang on a name when the parser glues them to it ("On Thursday Mr Straw").
NAME_GLUE_DEPS = frozenset({"compound", "nmod", "amod", "npadvmod"})

DATE_FIRST = declare(
    "event.time.date-first", "facts.event",
    reads="the date expressions hanging on one word of an event's sentence",
    writes="Event.time",
    description="Of two expressions on one word, a date (pinned, or a point a reader can "
                "place) wins over a clock time, an age or a length of time that comes first "
                "(\"sealed the deal at 0227 GMT on Friday\": Friday).",
    example="The chairman sealed the deal at 0227 GMT on Friday.",
)
NAME_GLUE = declare(
    "event.time.name-glue", "facts.event",
    reads="a date expression the parser hangs on a person's name",
    writes="Event.time",
    description="A person's name is dated by nothing: a date the parser glues to one (\"On "
                "Thursday Mr Straw was in India\", \"last November Samuel Amoah was jailed\") "
                "dates the clause the name is the subject of.",
    example="On Monday Mr Cole was in France visiting the Louvre in Paris.",
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
        if token.dep_ in NAME_GLUE_DEPS and _glued(point) and applies(NAME_GLUE.id, lambda: True):
            point = _name_head(point).head  # "On Thursday Mr Straw was …": the clause's date
        if ctx.sentence(point) != sentence:
            continue
        known = attached.get(point.i)
        if known is None:
            attached[point.i] = time
        elif not _is_date(known) and _is_date(time) and applies(DATE_FIRST.id, lambda: True):
            attached[point.i] = time  # "at 0227 GMT on Friday": Friday
    return attached


def first_date(times: Sequence[TimeExpression]) -> TimeExpression | None:
    """The first of ``times`` that is a date, else the first of them."""
    if not times:
        return None
    dated = next((t for t in times if _is_date(t)), None)
    if dated is not None and dated is not times[0] and applies(DATE_FIRST.id, lambda: True):
        return dated
    return times[0]


def _is_date(time: TimeExpression) -> bool:
    """Whether an expression names a date (pinned, or a point a reader can place)."""
    return time.value is not None or is_time_point(time.text)


def _glued(word: Token) -> bool:
    """Whether ``word`` is a person's name that is the subject of a clause."""
    name = _name_head(word)
    return word.ent_type_ == "PERSON" and name.dep_ in {"nsubj", "nsubjpass"}


def _name_head(word: Token) -> Token:
    while word.dep_ in {"compound", "flat"} and word.head.i != word.i:
        word = word.head
    return word


def _when_clause_time(verb: Token, attached: dict[int, TimeExpression]) -> TimeExpression | None:
    """The date of a "when" clause under ``verb``, which dates ``verb`` too."""
    for clause in verb.children:
        if clause.dep_ == "advcl" and clause.i in attached and any(
                c.lower_ == "when" and c.dep_ in {"advmod", "mark"} for c in clause.children):
            return attached[clause.i]
    return None


def time_of(ctx: FactContext, word: Token, scope: Sequence[Token] = ()) -> TimeExpression | None:
    """The date expression that goes with ``word`` (see the module docstring)."""
    attached = attached_times(ctx, ctx.sentence(word))
    found = None
    current = word
    for _ in range(MAX_CLIMB):
        if current.i in attached:
            found = attached[current.i]
            break
        if (when := _when_clause_time(current, attached)) is not None:
            found = when  # "When Britain went to the polls in 1979, … X resigned"
            break
        if current.head.i == current.i:
            break
        current = current.head
    if found is None:
        found = first_date([ctx.time_at[t.i] for t in scope if t.i in ctx.time_at])
    reference = ctx.frame.document.meta.date_published
    return pinned(found, reference) if found is not None else None
