"""Figures: numbers as reported, with what they count and the measured thing they describe.

A figure's *measure* is keyed by (predicate, counted class, anchor): "771 fighters had
surrendered" → (Surrender, fighters, <the city the article is about>); "its population was
around 430,000" → (population, people, <the city>). Different sources giving different values
for one measure is what the conflicting-figures question lists.

"half that number" is read relative to the figure before it and takes over its measure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from kg.extract.entities import fold_space
from kg.extract.recovery import is_dateline
from kg.extract.rules.context import DEMONSTRATIVES, FactContext
from kg.extract.rules.measures import (
    Amount,
    Revised,
    amount_of,
    clause_tokens,
    event_period,
    forecast_cut,
    forecast_noun,
    forecaster,
    is_forecast,
    is_increment,
    participle_cause,
    participle_event,
    period_of,
    previous_value,
    quantity_words,
    revised_quantity,
    revision_role,
    story_cause,
    time_period,
)
from kg.extract.rules.places import is_city
from kg.extract.rules.registry import rule
from kg.extract.rules.tolls import is_running_count, toll_attribute, toll_cause, verb_attribute
from kg.extract.values import (
    NUMBER_LABELS,
    is_compound_modifier,
    number_qualifier,
    number_range,
    number_unit,
    parse_number,
    range_partner,
    scale_after,
)
from kg.heuristics import applies, declare, found, is_on
from kg.lexicon.fact_words import (
    AMOUNT_VERBS,
    ANAPHORIC_AMOUNTS,
    COUNTED_CLASSES,
    EPISTEMIC_VERBS,
    LOCATIVE_PREPS,
    PLACE_NOUNS,
    RELATIVE_FACTORS,
    REMAIN_VERBS,
    counted_class,
    trigger_type,
)
from kg.lexicon.measure_words import (
    BATCH_NOUNS,
    FORECAST_WORDS,
    MADE_ATTRIBUTES,
    RACE_EVENTS,
    STATE_ADJECTIVES,
    TOLL_ATTRIBUTES,
    attribute_of,
    cause_of,
    toll_noun,
)
from kg.lexicon.words import (
    CURRENCY_CODES,
    CURRENCY_SYMBOLS,
    CURRENCY_WORDS,
    DASHES,
    NUMBER_SCALES,
)
from kg.model import EntityKind, Figure, Measure, Mention, Party, Span

#: Scale suffixes the tagger may read as words of their own ("£7m" → "7" "m").
SCALE_SUFFIXES = frozenset(w for w in NUMBER_SCALES if len(w) <= 2)
#: Units that are currencies (ISO 4217 codes), for telling a conversion from a second figure.
CURRENCIES = frozenset(CURRENCY_SYMBOLS.values()) | CURRENCY_CODES | frozenset(
    CURRENCY_WORDS.values())
#: Units of amounts, measured by the quantity they are of rather than by what they count.
AMOUNT_UNITS = CURRENCIES | {"percent", "percentage points"}

if TYPE_CHECKING:
    from spacy.tokens import Span as SpacySpan
    from spacy.tokens import Token

SKIPPED_LABELS = frozenset({"DATE", "TIME", "ORDINAL"})
#: A line that is a web address, as pages copied to text keep it (tokenised or not).
WEB_ADDRESS = re.compile(r"\s*(https?\s*:\s*/\s*/|www\s*\.)", re.I)
SUBJECTS = frozenset({"nsubj", "nsubjpass"})
CLAUSE_DEPS = frozenset({"ccomp", "relcl", "advcl", "xcomp", "conj", "acl", "parataxis"})
POPULATION = "population"
NUMBER = rule(
    "figure.number", "Figure", 0.9,
    "A number with what it counts and the measure it describes (predicate, class, place).",
    "About 2,000 workers lost their jobs in Detroit last year.",
)
RELATIVE = rule(
    "figure.relative", "Figure", 0.75,
    "\"half that number\": a fraction or multiple of the figure just before it.",
    "Organisers said 100,000 people marched, although police said it was only half that number.",
)
REMAIN = "remain"
PEOPLE = "people"
_REFUGEES = "refugees"  # the counted class of refugees, evacuees, migrants
DISPLACED = toll_noun("refugee")  # the attribute refugees are counted under


def number_spans(ctx: FactContext) -> Iterator[SpacySpan]:
    """Numbers of the chunk: spaCy's number entities, bare numerals the model left untagged,
    and four-digit "years" that count a plural noun ("2000 fighters")."""
    doc = ctx.doc
    taken: set[int] = set()
    for ent in doc.ents:
        if ent.label_ in NUMBER_LABELS or applies(COUNTING_YEAR, partial(_counting_year, ent)):
            taken.update(range(ent.start, ent.end))
            yield ent
        elif ent.label_ in SKIPPED_LABELS:
            taken.update(range(ent.start, ent.end))
    for token in doc:
        if token.i not in taken and token.like_num and token.pos_ == "NUM":
            if ctx.mention(token) is None:
                yield doc[token.i : token.i + 1]


def _counting_year(ent: SpacySpan) -> bool:
    """A bare number the tagger read as a year or date that counts: "2000 fighters", or the
    object of a toll's verb ("killing 10 people and injuring 80")."""
    token = ent.root
    if ent.label_ != "DATE" or len(ent) != 1 or not token.text.isdigit():
        return False
    if token.dep_ == "nummod" and token.head.tag_ == "NNS":
        return True
    return token.dep_ in {"dobj", "nsubjpass"} and token.head.pos_ == "VERB" \
        and attribute_of(token.head.lemma_.lower()) in TOLL_ATTRIBUTES


def figures_of(ctx: FactContext) -> list[Figure]:
    """Every figure of the chunk with its measure, in text order."""
    figures: list[Figure] = []
    previous: list[tuple[int, str]] = []
    revised: list[tuple[int, Revised]] = []
    owned: list[tuple[int, Token]] = []
    spans = sorted(number_spans(ctx), key=lambda s: s.start)
    spans = found(SPACED_THOUSANDS, partial(_spaced_thousands, spans)) or spans
    for span in [part for s in spans for part in _revised_range(s)]:
        figure = _figure(ctx, span, figures)
        if figure is not None:
            if (role := revision_role(span.root)) is not None:
                revised.append((len(figures), role))
            elif (noun := previous_value(span.root)) is not None:
                previous.append((len(figures), noun))
            elif (forecast := forecast_noun(span.root)) is not None:
                owned.append((len(figures), forecast))
            figures.append(figure)
    for i, noun in previous:
        figures[i] = _superseded(figures[i], noun, figures)
    _revisions(ctx, figures, revised)
    for i, owner in owned:
        figures[i] = _owned_forecast(ctx, figures[i], owner, figures)
    return figures


#: Digits a tokenised text splits at a thousands comma ("26 , 000").
_SPLIT_THOUSANDS = re.compile(r"(?<=\d) , (?=\d{3}\b)")


def _spaced_thousands(spans: list[SpacySpan]) -> list[SpacySpan] | None:
    """Numbers a tokenised text wrote with spaces around the thousands comma ("more than
    26 , 000 people", "120 , 000"): one number of both parts, as prose writes it
    "26,000"; ``None`` when there is none. Prose never puts a space before a comma, and a
    date ("May 5 , 200 people") is no number span."""
    from spacy.tokens import Span as Joined

    joined: list[SpacySpan] = []
    skip_to = -1
    for span in spans:
        if span.start < skip_to:
            continue  # the "000" of a number joined already
        doc, end = span.doc, span.end
        while (end + 1 < len(doc) and doc[end].text == "," and doc[end].whitespace_
               and doc[end - 1].whitespace_ and doc[end - 1].text.isdigit()
               and len(doc[end - 1].text) <= 3 and re.fullmatch(r"\d{3}", doc[end + 1].text)):
            end += 2
        joined.append(span if end == span.end else Joined(doc, span.start, end, span.label_))
        skip_to = end
    return joined if len(joined) != len(spans) or any(
        len(a) != len(b) for a, b in zip(joined, spans, strict=False)) else None


def _revised_pair(span: SpacySpan, partner: int) -> bool:
    """Whether a number and the one its range word joins it to are the value before and the
    one after of a revision ("revised down from 157,000 to 133,000")."""
    doc = span.doc
    other = doc[span.end + 1] if partner > 0 else doc[span.start - 2]
    low, high = (span.root, other) if partner > 0 else (other, span.root)
    first, second = revision_role(low), revision_role(high)
    return first is not None and second is not None and first.before and not second.before


def _revised_range(span: SpacySpan) -> list[SpacySpan]:
    """A span the tagger made one range of two values a revising verb tells ("revised down
    from 157,000 to 133,000"): the two values, each a figure; else the span."""
    words = [t for t in span if t.lower_ in {"to", "-"}]
    if len(span) > 1 and words and words[-1].i == span.end - 1:  # "4.1% to" + "3.6%"
        trimmed = span.doc[span.start : span.end - 1]
        return [trimmed] if revision_role(trimmed.root) is not None else [span]
    if len(words) != 1 or words[0].i == span.start:
        return [span]
    low, high = span.doc[span.start : words[0].i], span.doc[words[0].i + 1 : span.end]
    first, second = revision_role(low.root), revision_role(high.root)
    if first is not None and second is not None and first.before and not second.before:
        return [low, high]
    return [span]


def _revisions(ctx: FactContext, figures: list[Figure], roles: list[tuple[int, Revised]]) -> None:
    """A revising verb's values before and after (``figure.revised-change``), paired — a
    value after "from" with the next value after "to", one after "instead of" with the one
    before it ("to 139,000 in September instead of 96,000, and to 198,000 in August instead
    of 128,000": two pairs) —: each pair measures what the verb revises, in the period its
    own words give, is the source's the verb names, and its value before is marked as
    superseded; a value with no partner is left as read."""
    by_verb: dict[int, list[tuple[int, Revised]]] = {}
    for i, role in roles:
        by_verb.setdefault(role.verb.i, []).append((i, role))
    for pairs in by_verb.values():
        verb = pairs[0][1].verb
        source = _revising_source(ctx, verb)
        after = [(i, r) for i, r in pairs if not r.before]
        several = len(after) > 1
        for i, role in pairs:
            if not role.before:
                continue
            partners = [(j, r) for j, r in after if figures[j].unit == figures[i].unit and (
                r.number.i < role.number.i if role.backward else
                r.number.i > role.number.i if several else True)]
            if not partners:
                continue
            j, new = min(partners, key=lambda p: abs(p[1].number.i - role.number.i))
            measure, wording = _revised_measure(
                ctx, verb, new.number, figures[j],
                between=(new.number, role.number) if several else None)
            if measure is None:
                continue
            figures[j] = replace(figures[j], measure=measure, wording=wording, source=source)
            figures[i] = replace(figures[i], measure=measure, wording=wording, source=source,
                                 previous=True)


def _revised_measure(ctx: FactContext, verb: Token, number: Token, new: Figure,
                     between: tuple[Token, Token] | None = None
                     ) -> tuple[Measure | None, str | None]:
    """What a revising verb revises, as a measure: the quantity its object or passive
    subject names ("the rate of growth" → growth), in the period the sentence gives — one
    pair of several, the period between its two values ("to 139,000 in September instead of
    96,000") —; else the measure the new value was read with."""
    noun = revised_quantity(verb)
    if noun is None:
        return new.measure, new.wording
    key, wording = quantity_words(ctx, noun)
    counted = new.unit or counted_class(noun.lemma_) or noun.lemma_.lower()
    forecast = noun.lemma_.lower() in FORECAST_WORDS or any(
        c.lemma_.lower() in FORECAST_WORDS for c in verb.subtree if c.dep_ == "compound")
    own = None
    if between is not None:  # "to 139,000 in September instead of 96,000, and to …"
        low, high = sorted(t.i for t in between)
        own = next((ctx.time_at[i] for i in range(low + 1, high) if i in ctx.time_at), None)
    period = time_period(own) if own is not None else period_of(ctx, number, verb, noun)
    return Measure(key, counted, None, None, period, forecast), wording


def _revising_source(ctx: FactContext, verb: Token) -> Party | None:
    """Who revises: the named subject of the verb, or the agent of its passive ("by the
    ONS")."""
    doers = [c for c in verb.children if c.dep_ == "nsubj"]
    doers += [o for a in verb.children if a.dep_ == "agent" for o in a.children]
    for doer in doers:
        if named := ctx.mentions_in(list(doer.subtree)):
            return ctx.entity_party(named[0])
    return None


def _owned_forecast(ctx: FactContext, figure: Figure, noun: Token,
                    figures: list[Figure]) -> Figure:
    """A forecast named by its noun alone (``figure.forecast-noun``) measures what the
    nearest other forecast of its sentence and unit does, and is the noun's owner's
    ("Gordon Brown's forecast of 3%")."""
    sentence = figure.evidence.sentences[-1:]
    others = [f for f in figures if f is not figure and f.measure is not None
              and f.measure.forecast and f.unit == figure.unit and not f.previous
              and f.evidence.sentences[-1:] == sentence
              and (figure.measure is None or f.measure.predicate != figure.measure.predicate)]
    if not others:
        return figure
    other = min(others, key=lambda f: abs(f.span.begin - figure.span.begin))
    owners = [c for c in noun.children if c.dep_ == "poss"]
    named = ctx.mentions_in([t for o in owners for t in o.subtree])
    source = ctx.entity_party(named[0]) if named else figure.source
    return replace(figure, measure=other.measure, wording=other.wording, source=source)


def _superseded(old: Figure, noun: str, figures: list[Figure]) -> Figure:
    """A value given before ("from a previous estimate of 3.7%") measures what the figure of
    its sentence that superseded it measures (the nearest of the same unit; a forecast only by
    a forecast: "spent 59.2 trillion, far in excess of its original projection of 14.5
    trillion" is an outturn against a plan, not a revision): the pair is a revision by one
    source."""
    sentence = old.evidence.sentences[-1:]
    forecast = noun in FORECAST_WORDS or noun in {"target", "guidance"}  # a plan
    candidates = [f for f in figures if f is not old and f.measure is not None
                  and f.unit == old.unit and f.evidence.sentences[-1:] == sentence
                  and (f.measure.forecast or not forecast)]
    if not candidates:
        return old
    new = min(candidates, key=lambda f: abs(f.span.begin - old.span.begin))
    return replace(old, measure=new.measure, wording=new.wording, source=new.source,
                   previous=True)


def _figure(ctx: FactContext, span: SpacySpan, before: list[Figure]) -> Figure | None:
    text = fold_space(span.text)
    if " , " in text and is_on(SPACED_THOUSANDS):
        text = _SPLIT_THOUSANDS.sub(",", text)  # "26 , 000" → "26,000"
    value = parse_number(text)
    if value is None or _is_pronoun_one(span) or value < 2 and text.isalpha():
        return None
    if applies(WEB_ADDRESS_LINE, lambda: _in_web_address(ctx, span)):
        return None  # "…/2010-05-05/3-dead-after-…/423816": an address, no figure
    if applies(LONG_SPAN, lambda: _is_long_span(ctx, span)):
        return None  # "NEW YORK 74 56 .569", a list of results: a table, no one quantity
    if applies(BATCH_SIZE, lambda: _is_batch_size(span)):
        return None  # "released in batches of 10": the size of a share, not a total
    if applies(COMPOUND_MODIFIER, lambda: is_compound_modifier(span)):
        return None  # "a two-horse race", "a 25-yard strike": no quantity
    if applies(LABEL_NUMBER, lambda: _is_label(span)):
        return None  # "Super 3G", "100m gold", "its 2004 results": a label, no quantity
    scale = scale_after(span)  # "$17.7" + "m"
    bounds = number_range(text)
    partner = found(RANGE, lambda: range_partner(span) or None) or 0  # +1, -1 or 0
    if partner and _revised_pair(span, partner):
        partner = 0  # "revised down from 157,000 to 133,000": two values, no range
    if partner > 0:
        return None  # "2,000 to 3,000 copies": one figure, read at "3,000"
    if partner < 0 and (low := parse_number(span.doc[span.start - 2].text)) is not None:
        if applies(NOT_A_RANGE, partial(_is_score, span, low, value)):
            return None  # "the 4-2 defeat", "a 0-0 draw", "the 2005-6 budget": no quantity
        if applies(NOT_A_RANGE, lambda: _dated_low(span)):
            partner = 0  # "in 2005 to 5.5 million tonnes": a year, then the figure
        else:
            bounds = (low, value)
    value = (bounds[0] if bounds else value) * scale
    upper = bounds[1] * scale if bounds else None
    unit = number_unit(span)
    tokens = [*span, span.doc[span.end]] if scale != 1 else list(span)
    if partner < 0:
        tokens = [span.doc[span.start - 2], *tokens]
    where = ctx.span(tokens)
    evidence = ctx.evidence(span, NUMBER)
    if (factor := _relative_factor(span)) is not None and before:
        previous = before[-1]
        near = ctx.sentence(span.root) - previous.evidence.sentences[-1] <= 1
        if previous.value is not None and near:
            evidence = ctx.evidence(span, RELATIVE)
            return Figure(where, previous.value * factor, number_qualifier(span),
                          previous.unit, previous.measure, evidence, wording=previous.wording)
    if unit is None and value < 10:
        return None
    reading = _reading(ctx, span, unit, before) if value >= 1 and not applies(
        STARTING_POINT, lambda: _is_starting_point(span)) else None
    measure = reading.measure if reading is not None else None
    if measure is not None and applies(CONVERSION, lambda: _is_conversion(ctx, where, unit,
                                                                          before)):
        measure = None  # "$1.1m (£600,000)": the same amount again, not a second figure
    qualifier = "between" if upper is not None else number_qualifier(span)
    if qualifier is None and measure is not None and measure.predicate in TOLL_ATTRIBUTES \
            and applies(RUNNING_COUNT, lambda: is_running_count(span.root)):
        qualifier = "at least"  # "5,000 deaths so far": the toll is at least that
    return Figure(where, value, qualifier, unit, measure, evidence, upper,
                  reading.wording if reading else None, reading.source if reading else None)


@dataclass(frozen=True)
class Reading:
    """What a number measures (its measure), in the sentence's words, and whose figure the
    sentence says it is."""

    measure: Measure | None
    wording: str | None
    source: Party | None = None


def _reading(
    ctx: FactContext, span: SpacySpan, unit: str | None, before: list[Figure]
) -> Reading | None:
    """An amount (money, a percentage) is read by the quantity it is of; a count by what is
    counted and what happened to it — each with its period and whether it is a forecast."""
    root = span.root
    if unit is not None and unit in AMOUNT_UNITS:
        return _amount_reading(ctx, root, unit)
    head = root.head if root.dep_ in {"nummod", "quantmod"} else root
    clauses = [c for c in head.children if c.dep_ == "relcl" and head.i == root.i]
    verb = clauses[0] if clauses else governing_verb(head)
    noun = head if head.i != root.i else None
    if is_increment(root, noun):
        return None  # "two more victims were found": an addition, not the count
    measure = _measure(ctx, span, unit, before)
    if measure is None:
        return None
    toll = measure.predicate in TOLL_ATTRIBUTES
    running = toll or measure.counted in COUNTED_CLASSES
    if not toll and (event := participle_event(verb)) is not None:  # "…, affecting 5,000"
        measure = replace(measure, predicate=f"{measure.predicate} ({event.lemma_.lower()})")
    counted = measure.counted
    if noun is not None and not toll and not toll_noun(noun.lemma_):
        counted = found(MODIFIED_CLASS, partial(_modified_class, ctx, counted, noun)) or counted
    measure = replace(measure, counted=counted,
                      period=event_period(ctx, root, verb) if running else (
                          period_of(ctx, root, verb, noun)),
                      forecast=is_forecast(verb, noun))
    return Reading(measure, _count_wording(ctx, noun, verb), forecaster(ctx, verb, noun))


def _amount_reading(ctx: FactContext, root: Token, unit: str) -> Reading | None:
    """ "US exports rose 12.3% in January" → export rise · percent · the United States ·
    january."""
    if root.dep_ == "nummod" and root.head.lower_.rstrip(".") in SCALE_SUFFIXES:
        root = root.head  # "£2.36m" read as "2.36" + "m": the amount is the "m"
    amount = amount_of(ctx, root)
    if amount is None or is_increment(root, amount.noun):
        return None
    source = forecaster(ctx, amount.verb, amount.noun)
    anchor = _amount_anchor(ctx, amount, root)
    if anchor is not None and source is not None and anchor.mention == source.mention:
        anchor = None  # "the IMF predicted growth of 3%": the IMF's forecast, not its growth
    measure = Measure(amount.key, unit, anchor, None,
                      period_of(ctx, root, amount.verb, amount.noun),
                      is_forecast(amount.verb, amount.noun))
    return Reading(measure, amount.wording, source)


def _amount_anchor(ctx: FactContext, amount: Amount, root: Token) -> Party | None:
    """Whose the quantity is: a name in its own noun phrase ("US exports", "Chrysler's
    revenue", "profits at TimeWarner" — an organisation before a place), else what
    :func:`_anchor` finds for its verb."""
    if amount.noun is not None:
        number = range(root.left_edge.i, root.right_edge.i + 1)
        said_by = {t.i for w in [amount.noun, *amount.noun.children] for c in w.children
                   if c.dep_ in SUBJECTS for t in c.subtree}  # "the Bank forecast growth"
        if (cut := forecast_cut(amount.noun)) is not None:  # "the IMF forecast growth"
            said_by.update(range(amount.noun.left_edge.i, cut + 1))
        own = [t for t in amount.noun.subtree if t.i not in number and t.i not in said_by]
        named = [m for m in ctx.mentions_in(own) if m.kind is not EntityKind.PERSON]
        if named:
            named.sort(key=lambda m: m.kind is not EntityKind.ORGANIZATION)
            return ctx.entity_party(named[0])
    return _anchor(ctx, amount.verb, root, people=False) if amount.verb is not None else None


def _modified_class(ctx: FactContext, counted: str, noun: Token) -> str | None:
    """The counted class with the adjectives the sentence restricts it by ("three top
    executives" are top executives, not executives); ``None`` when none does."""
    words = [c.lemma_.lower() for c in noun.children
             if c.dep_ == "amod" and c.i < noun.i and c.is_alpha and not c.ent_type_
             and not any(t.text == "-" for t in c.subtree)  # "last-ditch": colour, not a kind
             and c.lemma_.lower() not in STATE_ADJECTIVES]
    return " ".join([*words, counted]) if words else None


def _no_cause(owner: Token) -> bool:
    """Whether a toll's possessor names no cause ("the country's", not "the quake's")."""
    return cause_of(owner.lemma_) is None


def _count_wording(ctx: FactContext, noun: Token | None, verb: Token | None) -> str | None:
    """A count as the sentence words it: the counted noun with its modifiers and the verb
    ("people killed", "killed people", "fighters surrendered")."""
    words = quantity_words(ctx, noun)[1] if noun is not None else ""
    if verb is None or verb.lemma_ in {"be", "have"} or (noun and toll_noun(noun.lemma_)):
        return words or None
    if noun is None:
        return verb.text
    return f"{verb.text} {words}" if verb.i < noun.i else f"{words} {verb.text}"


def _in_web_address(ctx: FactContext, span: SpacySpan) -> bool:
    """Whether a number is on a line that is a web address ("http://…/2013/05/03/…")."""
    text = ctx.frame.document.text
    at = ctx.char(span.root)
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return bool(WEB_ADDRESS.match(line))


#: A number's own parts: "10,756", ".569", "1.875".
_NUMBER_PART = re.compile(r"\d[\d,]*(?:\.\d+)?|\.\d+")
#: A dateline's date ("LONDON 1996-08-22"), which holds no quantity.
_ISO_DATE = re.compile(r"\b\d{4}-\d\d-\d\d\b")
#: How many numbers a run of numbers with no word between them may hold and be one quantity
#: ("8-9%", "2,000 - 3,000" hold two), and how many lines with numbers (dates aside) one
#: sentence may run over and be prose (a headline and its first sentence, as the parser may
#: join them, are two).
RUN_NUMBERS, SENTENCE_LINES = 2, 2


def _is_long_span(ctx: FactContext, span: SpacySpan) -> bool:
    """Whether a number is part of a run too long to be one quantity: numbers with no word
    between them beyond a range's two ("NEW YORK 74 56 .569 -", "73 71 69 71", a phone
    number "212 859 1640", "$ 10,756 $ 13,102 $ 7,961"), or a sentence the parser ran over
    more than two lines holding numbers (a table or a list of results, "-- Sun Co to $ 0.15
    from $ 0.85" under "He cut his estimates on :"; a dateline's date is no number)."""
    sentence = span.root.sent
    lines = ctx.frame.document.text[ctx.char(sentence[0]) : ctx.char(sentence[-1]) + 1]
    if sum(bool(re.search(r"\d", _ISO_DATE.sub("", line)))
           for line in lines.splitlines()) > SENTENCE_LINES:
        return True
    begin, end = span.start, span.end
    while begin > sentence.start and _in_run(span.doc[begin - 1]):
        begin -= 1
    while end < sentence.end and _in_run(span.doc[end]):
        end += 1
    return len(_NUMBER_PART.findall(span.doc[begin:end].text)) > RUN_NUMBERS


def _in_run(token: Token) -> bool:
    """A token a run of numbers may hold: a number, a sign, a symbol — no word, no line break."""
    return "\n" not in token.text_with_ws and not any(c.isalpha() for c in token.text)


def _story_city(ctx: FactContext, token: Token) -> Mention | None:
    """The city the article is about before ``token``: not (``figure.dateline-city``) the
    place of a news agency's dateline ("LONDON 1996-08-22", "KYIV, May 18 (Reuters) -"),
    which says where the report was filed."""
    return ctx.recent_city(token, skip=lambda m: applies(
        DATELINE_CITY, partial(_is_dateline_place, ctx, m)))


def _is_dateline_place(ctx: FactContext, mention: Mention) -> bool:
    text = ctx.frame.document.text
    line = text.rfind("\n", 0, mention.begin) + 1
    return is_dateline(text[line : mention.begin], text[mention.end : mention.end + 80])


def _is_starting_point(span: SpacySpan) -> bool:
    """ "totalled $345m, up from $66m", "fell to 77,000 from 85,000": the value before a change
    refers to another time, and is no value of the measure now."""
    root = span.root
    head = root.head if root.dep_ in {"nummod", "quantmod"} else root
    return head.dep_ == "pobj" and head.head.lower_ == "from"


def _is_conversion(
    ctx: FactContext, where: Span, unit: str | None, before: list[Figure]
) -> bool:
    """Whether a money figure converts the one right before it into another currency:
    "154m naira ($1.1m; £591,000)", "$100m (£52m)"."""
    if not before or unit not in CURRENCIES:
        return False
    previous = before[-1]
    gap = ctx.frame.document.text[previous.span.end : where.begin]
    return previous.unit in CURRENCIES and previous.unit != unit and bool(
        re.fullmatch(r"\s*(?:[A-Za-z]+\s*)?[(;,]\s*[^\w\s]{0,3}", gap))


def _is_pronoun_one(span: SpacySpan) -> bool:
    """ "one of the ports": a pronoun, not a count."""
    nxt = span.doc[span.end] if span.end < len(span.doc) else None
    return span.text.lower() == "one" and nxt is not None and nxt.lower_ == "of"


def _relative_factor(span: SpacySpan) -> float | None:
    """The factor of "half that number", "twice that figure"; ``None`` for plain numbers."""
    factor = next((RELATIVE_FACTORS[t.lower_] for t in span if t.lower_ in RELATIVE_FACTORS), None)
    head = span.root.head
    determiners = {c.lower_ for c in head.children if c.dep_ == "det"}
    if factor is not None and head.lemma_ in ANAPHORIC_AMOUNTS and determiners & DEMONSTRATIVES:
        return factor
    return None


def _measure(
    ctx: FactContext, span: SpacySpan, unit: str | None, before: list[Figure]
) -> Measure | None:
    root = span.root
    head = root.head if root.dep_ in {"nummod", "quantmod"} else root
    if span.label_ != "QUANTITY" and (unit is None or counted_class(unit) == PEOPLE) and (
            population := found(POPULATION_OF, lambda: _population(ctx, head))) is not None:
        return population  # "a city of 400,000 people", not "situated 300 kilometres"
    clauses = [c for c in head.children if c.dep_ == "relcl" and head.i == root.i]
    verb = clauses[0] if clauses else governing_verb(head)  # "1,700 who surrendered"
    if unit not in CURRENCIES and (toll := toll_attribute(head, verb, root)) is not None:
        return _toll(ctx, toll, head, verb, root)  # "5,000 deaths", "claimed 5,000 lives"
    if verb is None:
        return None
    predicate, counted = predicate_of(verb), counted_class(unit)
    if (amount := _amount_of(verb)) is not None:  # "the number of refugees … surged past N"
        predicate, counted = amount
    counted = counted or found(COUNTED_NEARBY, lambda: _counted_nearby(ctx, root, before))
    if predicate is None or counted is None:
        return None
    attribute = verb_attribute(verb, predicate)  # "killed" and "died" are both deaths
    if counted == _REFUGEES and attribute == DISPLACED:  # "3,000 refugees fled": people
        counted = PEOPLE
    people = counted in COUNTED_CLASSES
    if attribute not in TOLL_ATTRIBUTES:
        return Measure(attribute, counted, _anchor(ctx, verb, root, people))
    return _keyed_toll(ctx, attribute, counted, head, verb, root, people)


def _keyed_toll(
    ctx: FactContext, attribute: str, counted: str, head: Token, verb: Token | None,
    root: Token, people: bool = True,
) -> Measure:
    """A toll's key: a name in its clause, else its cause ("killed following an earthquake"
    is the earthquake's toll, not the toll of the city the article is about), else that city."""
    anchor = None
    if verb is not None:
        doer = found(CAUSE_SUBJECT, partial(_cause_subject, verb))
        skip = frozenset(t.i for t in doer.subtree) if doer is not None else frozenset()
        anchor = (None if skip else found(NAMED_DOER, lambda: _named_doer(ctx, verb, root))) \
            or _anchor(ctx, verb, root, people=False, skip=skip)
    cause = toll_cause(head, verb, root) if anchor is None else None
    if anchor is None and cause is None and attribute not in MADE_ATTRIBUTES:
        cause = participle_cause(verb) or story_cause(root)
    if anchor is None and cause is None and verb is not None and people:
        anchor = _anchor(ctx, verb, root, people=True)
    return Measure(attribute, counted, anchor, cause)


def _cause_subject(verb: Token) -> Token | None:
    """The subject of a toll's verb when it is a cause ("the quake on the outskirts of
    Dargahan injured two people"): the places it names say where the cause was, not whose
    toll it is — the toll is the cause's."""
    subjects = [c for c in verb.children if c.dep_ == "nsubj" and c.pos_ == "NOUN"]
    return next((c for c in subjects if cause_of(c.lemma_) is not None), None)


def _named_doer(ctx: FactContext, verb: Token, root: Token) -> Party | None:
    """Whoever the toll's verb names as doing it, people too: "Hurricane Mitch killed about
    10,000 people" is Mitch's toll, not the toll of the region the article is about."""
    for subject in (c for c in verb.children if c.dep_ == "nsubj"):
        tokens = list(subject.subtree)
        if root not in tokens and (named := ctx.mentions_in(tokens)):
            return ctx.entity_party(named[0])
    return None


def _toll(
    ctx: FactContext, attribute: str, head: Token, verb: Token | None, root: Token
) -> Measure | None:
    """A count of people named by its noun: a toll's anchor comes from its own verb — not
    from "be" or "have" ("Indonesia was worst hit, with 140,000 deaths" is no toll of
    Indonesia's) —, else it is keyed by its cause. A toll its noun says is a place's
    ("Thailand's 5,300 deaths") is that place's; one of a place it does not name ("the
    country's 5,300 deaths") has no measure: it is a part of some total, of no one known."""
    for owner in (c for c in head.children if c.dep_ == "poss" and c.pos_ in {"NOUN", "PROPN"}):
        named = [m for m in ctx.mentions_in(owner.subtree) if m.kind is not EntityKind.PERSON]
        if named:
            return Measure(attribute, PEOPLE, ctx.entity_party(named[0]))
        if applies(UNNAMED_POSSESSOR, partial(_no_cause, owner)):
            return None
    if head.dep_ in {"dobj", "nsubj", "nsubjpass"} and head.i != root.i:
        verb = head.head  # "claimed 150,000 lives": the verb the toll's noun belongs to
    elif head.i != root.i:
        verb = None  # "in the shadow of 5,300 deaths": the clause is about something else
    own = verb if verb is not None and verb.lemma_ not in {"be", "have"} else None
    return _keyed_toll(ctx, attribute, PEOPLE, head, own, root)


def _amount_of(verb: Token) -> tuple[str | None, str | None] | None:
    """(predicate, counted) when the verb's subject or object is "the number of X who …"."""
    if verb.lemma_.lower() not in AMOUNT_VERBS:
        return None
    for noun in (c for c in verb.children if c.dep_ in {"nsubj", "dobj"}):
        if noun.lemma_.lower() not in ANAPHORIC_AMOUNTS | {"toll"}:
            continue
        counted = [o for p in noun.children if p.lower_ == "of" for o in p.children
                   if o.dep_ == "pobj"]
        if not counted:
            return None
        thing = counted[0]
        clauses = [c for c in thing.children if c.dep_ == "relcl"]
        predicate = predicate_of(clauses[0]) if clauses else None
        return predicate, counted_class(thing.lemma_) if thing.pos_ == "NOUN" else None
    return None


def _counted_nearby(ctx: FactContext, root: Token, before: list[Figure]) -> str | None:
    """What an unlabelled number counts: a counted noun earlier in its sentence ("how many
    fighters remained … where 2,000 were believed …"), else a recent figure's class."""
    for token in reversed(list(root.sent)[: root.i - root.sent.start]):
        if token.tag_ == "NNS" and counted_class(token.lemma_) in COUNTED_CLASSES:
            return counted_class(token.lemma_)
    return _inherited_count(ctx, root, before)


def _population(ctx: FactContext, head: Token) -> Measure | None:
    """ "the city of 400,000 people", "its population was around 430,000"."""
    place_noun = None
    if head.dep_ == "pobj" and head.head.lower_ == "of" and head.head.head.lemma_ in PLACE_NOUNS:
        place_noun = head.head.head
    elif head.dep_ == "attr" and head.head.lemma_ == "be":
        subjects = [c for c in head.head.children if c.dep_ == "nsubj"]
        if subjects and subjects[0].lemma_ == POPULATION:
            place_noun = subjects[0]
    if place_noun is None:
        return None
    return Measure(POPULATION, "people", _place_referent(ctx, place_noun))


def _place_referent(ctx: FactContext, noun: Token) -> Party | None:
    """The place a noun like "the city" or "its population" is about."""
    for token in [noun, *noun.children]:
        if (mention := ctx.mention(token)) is not None and mention.kind is not EntityKind.PERSON:
            return ctx.entity_party(mention)
    city = _story_city(ctx, noun)
    return ctx.entity_party(city) if city is not None else None


def governing_verb(token: Token) -> Token | None:
    """The verb whose clause a noun phrase belongs to (through prepositions and conjuncts);
    past verbs of believing and saying to the verb they introduce ("were believed to be
    holed up" → "holed")."""
    current = token
    for _ in range(8):
        if current.pos_ in {"VERB", "AUX"} and current.lower_ not in SCALE_SUFFIXES:
            break  # "£7m": the tagger's verb "m" is a scale
        if current.head.i == current.i:
            return None
        current = current.head
    else:
        return None
    if current.lemma_.lower() in EPISTEMIC_VERBS:
        inner = [c for c in current.children if c.dep_ == "xcomp"]
        return _deepest(inner[0]) if inner else None
    return current


def _deepest(verb: Token) -> Token:
    """Through auxiliary chains ("to be holed up" → "holed")."""
    inner = [c for c in verb.children if c.dep_ == "xcomp"]
    return _deepest(inner[0]) if verb.lemma_ == "be" and inner else verb


def phrasal_lemma(verb: Token) -> str:
    """The verb's lemma with its particle ("give up"), lower-cased."""
    particles = [c.lower_ for c in verb.children if c.dep_ == "prt"]
    lemma = verb.lemma_.lower()
    return f"{lemma} {particles[0]}" if particles else lemma


def predicate_of(verb: Token) -> str | None:
    """What a figure's verb says happened: an event type, "remain", or the verb's lemma."""
    phrasal, lemma = phrasal_lemma(verb), verb.lemma_.lower()
    if lemma in EPISTEMIC_VERBS or lemma in {"be", "have"}:
        return None
    kind = trigger_type(phrasal, "VERB") or trigger_type(lemma, "VERB")
    if kind is not None:
        return kind.value
    if phrasal in REMAIN_VERBS or lemma in REMAIN_VERBS:
        return REMAIN
    return phrasal


def _inherited_count(ctx: FactContext, root: Token, before: list[Figure]) -> str | None:
    """What an unlabelled number counts: the class of a recent figure (same or previous two
    sentences), so "bringing the total to 1,730" counts what "771 fighters" counted."""
    sentence = ctx.sentence(root)
    for figure in reversed(before):
        if sentence - figure.evidence.sentences[-1] > 2:
            break
        counted = figure.measure.counted if figure.measure is not None else (
            counted_class(figure.unit))
        if counted is not None:
            # only people and the like carry over ("bringing the total to 1,730"): a bare
            # number after "3%" or "$5m" is no percentage or amount ("fell to 94.2")
            return counted if counted in COUNTED_CLASSES else None
    return None


def _anchor(
    ctx: FactContext, verb: Token, root: Token | None = None, people: bool = True,
    skip: frozenset[int] = frozenset(),
) -> Party | None:
    """Whose or where the measured thing is: a name in the verb's subject when the number is
    not the subject itself ("Shares in Multiplex fell 19%", "Yukos shares have fallen 97%"),
    an organisation before a place ("profits at US media giant TimeWarner" are TimeWarner's),
    else a place under a locative preposition in the verb's clause, else — for counts of
    people, fighters, refugees … — the article's current city (a percentage or an amount of
    money needs its own subject or place: "prices rose 3%" is nobody's in particular)."""
    for subject in (c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}):
        tokens = list(subject.subtree)
        if root is not None and root in tokens or subject.i in skip:
            continue
        named = [m for m in ctx.mentions_in(tokens) if m.kind is not EntityKind.PERSON]
        if named:  # "profits at US media giant TimeWarner": TimeWarner's, not the country's
            named.sort(key=lambda m: m.kind is not EntityKind.ORGANIZATION)
            return ctx.entity_party(named[0])
    where = _where_clause_place(verb)  # "In India, where 2,000 are thought to have died"
    if root is not None:  # "injuring 40, 15 of them on Qeshm": a part's place is not the total's
        skip = skip | (found(PART_OF_TOTAL, partial(_part_tokens, verb, root)) or frozenset())
    for token in [*where, *clause_tokens(verb)]:
        if token.i in skip:
            continue
        mention = ctx.mention(token)
        if mention is None or not (token in where or _under_locative(token, verb)):
            continue
        if mention.kind is EntityKind.PLACE or is_city(mention.name):
            return ctx.entity_party(mention)
    city = _story_city(ctx, verb) if people else None
    return ctx.entity_party(city) if city is not None else None


def _part_tokens(verb: Token, root: Token) -> frozenset[int] | None:
    """The words of a part of a total in the verb's clause ("injuring 40, 15 of them on
    Qeshm", "94,000 of the 140,000 deaths"): a number "of" something that is not the
    figure's own; ``None`` when there is none."""
    own = {root.i, *(a.i for a in root.ancestors)}
    clause = clause_tokens(verb)
    parts: set[int] = set()
    for number in clause:
        if number.like_num and number.i not in own and any(
                c.dep_ == "prep" and c.lower_ == "of" for c in number.children):
            if number.i > root.i:  # after the total, the rest of the clause is the part's
                parts.update(t.i for t in clause if t.i >= number.i)  # "…, 15 of them on X"
            else:
                parts.update(t.i for t in number.subtree)
    return frozenset(parts - own - {t.i for t in root.subtree}) or None


def _is_score(span: SpacySpan, low: float, value: float) -> bool:
    """Whether two numbers a dash joins are no range but a score or a label: the second not
    larger than the first ("a 4-2 defeat", "a 0-0 draw", "serving at 40-0", "the 2005-6
    budget") — a range runs up."""
    return span.doc[span.start - 1].text in DASHES and value <= low


def _dated_low(span: SpacySpan) -> bool:
    """Whether the number a range word joins to ``span`` from before is a year and ``span``
    none ("rise 3.5% in 2005 to 5.5 million tonnes"): a date, then the figure — no range."""
    low = span.doc[span.start - 2]
    return bool(_YEAR.fullmatch(low.text)) and low.ent_type_ == "DATE" \
        and not _YEAR.fullmatch(span.text)


#: A four-digit number that reads as a year.
_YEAR = re.compile(r"(?:19|20)\d\d")
#: Length units a race's distance is written in ("100m", "10km").
_RACE_UNITS = frozenset({"m", "km"})


def _is_label(span: SpacySpan) -> bool:
    """Whether a number labels something rather than counts it: part of a name — right after
    the proper noun the parser joins it to, or glued to a capital ("Super 3G", "Channel 4",
    "FTSE 100", "Xbox 2") —; a race's distance ("100m gold", "60m hurdles": metres, no
    millions); or a year between a possessive or article and its noun ("its 2004 results",
    "the firm's 2005 profits"; not a count of people: "the 2000 fighters")."""
    doc, root = span.doc, span.root
    if span.label_ in {"MONEY", "PERCENT"}:
        return False
    before = doc[span.start - 1] if span.start > 0 else None
    after = doc[span.end] if span.end < len(doc) else None
    if before is not None and before.pos_ == "PROPN" and before.text[:1].isupper() \
            and (root.head.i == before.i or before.head.i == root.i):
        return True  # "Super 3G", "Channel 4", "FTSE 100"
    if after is not None and not span[-1].whitespace_ and span[-1].like_num:  # glued
        if after.text[:1].isupper() and after.is_alpha and after.lower_ not in SCALE_SUFFIXES:
            return True  # "3G", "3D"
        if after.lower_ in _RACE_UNITS and after.i + 1 < len(doc) \
                and not any(c in span.text for c in CURRENCY_SYMBOLS) \
                and doc[after.i + 1].lower_ in RACE_EVENTS:
            return True  # "100m gold", "60m hurdles"
    head = root.head
    return bool(_YEAR.fullmatch(span.text)) and root.dep_ == "nummod" and head.i > root.i \
        and head.pos_ == "NOUN" and counted_class(head.lemma_) not in COUNTED_CLASSES \
        and any(c.dep_ in {"poss", "det"} and c.i < root.i for c in head.children)


def _is_batch_size(span: SpacySpan) -> bool:
    """A number "of" a noun of a share taken at a time, itself the object of "in" or "into"
    ("released in batches of 10", "split into groups of five")."""
    head = span.root.head
    if span.root.dep_ != "pobj" or head.lower_ != "of":
        return False
    noun = head.head
    return (noun.lemma_.lower() in BATCH_NOUNS and noun.dep_ == "pobj"
            and noun.head.lower_ in {"in", "into"})


def _where_clause_place(verb: Token) -> list[Token]:
    """The noun a "where" clause holding the verb describes (through "are thought to have")."""
    chain = [verb, *list(verb.ancestors)[:3]]
    for i, clause in enumerate(chain):
        if clause.dep_ == "relcl":
            words = {c.lower_ for t in chain[: i + 1] for c in t.children}
            return [clause.head] if "where" in words else []
    return []


def _under_locative(token: Token, stop: Token) -> bool:
    current = token
    while current.i != stop.i and current.head.i != current.i:
        if current.dep_ == "prep" and current.lower_ in LOCATIVE_PREPS:
            return True
        current = current.head
    return False


# -- the registry's entries: which numbers are figures, and what they measure --

#: How sure a reading is (as ``kg.extract.rules.measures`` reads amounts).
READING = "a part of the figure's measure: figure.number's prior"
#: How sure a test that leaves a number out is: it states nothing.
LEFT_OUT = "— (leaves a number out)"

COUNTING_YEAR = declare(
    "figure.counting-year", "facts.figure", reads="a four-digit number the tagger read as a "
    "date", writes="takes it as a number", description="\"2000 fighters\", \"killing 1998 "
    "people\": a number that counts a plural noun or a toll's object is no year.",
    example="Officials said 2000 fighters had surrendered in Mariupol.", model=LEFT_OUT).id
WEB_ADDRESS_LINE = declare(
    "figure.web-address", "facts.figure", reads="the line a number is on",
    writes="leaves the number out", description="A number on a line that is a web address "
    "(\"http://…/2010/05/05/3-dead-after-storm/423816\", as pages copied to text keep it) is "
    "no figure.", example="Three dead after storm\nhttp : / / www.example.com / news / "
    "3 - dead - after - storm / 423816\nThree people died in the storm in Leeds.",
    model=LEFT_OUT).id
LONG_SPAN = declare(
    "figure.long-span", "facts.figure", reads="the numbers around a number and the lines its "
    "sentence runs over", writes="leaves the number out", description="A number in a run too "
    "long to be one quantity — more than two numbers with no word between (a score line, a "
    "table's row, a phone number), or a sentence running over more than two lines with "
    "numbers (a table or a list of results the parser read as one sentence) — is no figure.",
    example="Standings on Monday :\nNEW YORK 74 56 .569 -\nBALTIMORE 69 62 .527 5",
    model=LEFT_OUT).id
DATELINE_CITY = declare(
    "figure.dateline-city", "facts.figure", reads="the city a count falls back on",
    writes="Measure.anchor", description="A news agency's dateline (\"LONDON 1996-08-22\", "
    "\"KYIV, May 18 (Reuters) -\") says where a report was filed, not what its figures are "
    "about: a count with no place of its own is not the dateline city's.",
    example="Fighting in the north\nOSLO 1996-08-26\nHeavy fighting broke out in the north "
            "and at least 29 people were killed .", model=READING).id
NOT_A_RANGE = declare(
    "figure.not-a-range", "facts.figure", reads="two numbers a range word joins",
    writes="leaves a score out; a year and a figure apart", description="Two numbers joined "
    "by a dash or \"to\" are one range only when they run up between quantities: a dash "
    "pair whose second is not larger is a score or a label (\"a 4-2 defeat\", \"the "
    "2005-6 budget\"), no quantity; a year before \"to\" and a figure (\"rise 3.5% in "
    "2005 to 5.5 million tonnes\") is a date and the figure, which stands alone.",
    example="Arsenal slumped to a 4-2 defeat at Anfield.", model=READING).id
LABEL_NUMBER = declare(
    "figure.label-number", "facts.figure", reads="the words a number is written with: the "
    "proper noun before it, a capital or a length unit glued to it, the noun it modifies",
    writes="leaves the number out", description="A number that labels rather than counts is "
    "no figure: part of a name (\"Super 3G\", \"Channel 4\", \"FTSE 100\"), a race's "
    "distance (\"100m gold\", \"60m hurdles\" — metres, not millions; data list "
    "race-events), or a year between a possessive or article and its noun (\"its 2004 "
    "results\"; \"the 2000 fighters\" still counts people).",
    example="The firm said it will give details of its 2004 results and of Super 3G.",
    model=LEFT_OUT).id
BATCH_SIZE = declare(
    "figure.batch-size", "facts.figure", reads="the words a number hangs from",
    writes="leaves the number out", description="A number \"of\" a share taken at a time, "
    "after \"in\" or \"into\" (\"released in batches of 10\", \"split into groups of "
    "five\"), is the size of each share, not a count of the total.",
    example="The hijackers released 140 hostages at Stansted .\nThey released the "
            "hostages in batches of 10 .", model=LEFT_OUT).id
COMPOUND_MODIFIER = declare(
    "figure.compound-modifier", "facts.figure", reads="a number hyphenated to the noun it "
    "describes", writes="leaves the number out", description="\"a two-horse race\", \"a "
    "25-yard strike\": a kind of thing, no quantity.",
    example="Lampard scored with a 25-yard strike.", model=LEFT_OUT).id
RANGE = declare(
    "figure.range", "facts.figure", reads="two numbers joined by \"to\", \"and\" or a dash",
    writes="one figure with its bounds", description="\"2,000 to 3,000 copies\" is one figure "
    "between two bounds, not two figures.",
    example="Police said 2,000 to 3,000 people marched through Leeds.", model=READING).id
STARTING_POINT = declare(
    "figure.starting-point", "facts.figure", reads="a number under \"from\"",
    writes="leaves the figure without a measure", description="\"totalled $345m, up from "
    "$66m\", \"fell to 77,000 from 85,000\": the value before a change is of another time.",
    example="The army said it captured 300 rebels, up from 120 rebels last week.",
    model=LEFT_OUT).id
CONVERSION = declare(
    "figure.conversion", "facts.figure", reads="a money figure right after one in another "
    "currency", writes="leaves the figure without a measure", description="\"154m naira ($1.1m; "
    "£591,000)\", \"$100m (£52m)\": the same amount again, not a second figure of it.",
    example="Turkey agreed a $1.6bn (£850m) loan with the IMF.", model=LEFT_OUT).id
RUNNING_COUNT = declare(
    "figure.running-count", "facts.figure", reads="a toll under \"so far\", \"to date\", "
    "\"since\"", writes="Figure.qualifier \"at least\"", description="\"5,000 deaths so far\": "
    "a running toll is at least that, and a later higher toll updates it.",
    example="The earthquake has killed 5,000 people in Gujarat so far.", model=READING).id
MODIFIED_CLASS = declare(
    "figure.modified-class", "facts.figure", reads="the adjectives of a counted noun",
    writes="Measure.counted", description="\"three top executives\" are top executives, not "
    "executives: two figures of different things are never one measure.",
    example="The bank said 300 senior managers lost their jobs in Frankfurt.", model=READING).id
POPULATION_OF = declare(
    "figure.population", "facts.figure", reads="\"the city of N people\", \"its population was "
    "N\"", writes="Measure population · people · the place", description="A place's "
    "population, of the place named or the city the article is about.",
    example="Mariupol, a city of 400,000 people, was besieged.", model=READING).id
COUNTED_NEARBY = declare(
    "figure.counted-nearby", "facts.figure", reads="a number with no noun, its sentence and "
    "the figures of the two sentences before it", writes="Measure.counted", description="What "
    "an unlabelled number counts: a counted noun earlier in its sentence, else a recent "
    "figure's people (\"771 fighters … bringing the total to 1,730\").",
    example="Russia said 771 fighters had surrendered in Mariupol, bringing the total to "
            "1,730.", model=READING).id
SPACED_THOUSANDS = declare(
    "figure.spaced-thousands", "facts.figure", reads="a number followed by \" , \" and three "
    "digits, as tokenised text writes it", writes="one number of both parts",
    description="\"more than 26 , 000 people\": a tokenised text's thousands, one number "
                "(26,000), not 26 and a stray 000.",
    example="A quake killed more than 26 , 000 people in Bam in December 2003 .",
    model=READING).id
CAUSE_SUBJECT = declare(
    "figure.cause-subject", "facts.figure", reads="the subject of a toll's verb when it is a "
    "cause (\"the quake\")", writes="Measure.cause instead of a place the subject names",
    description="\"The quake on the outskirts of Dargahan injured two people\": the place "
                "says where the quake was; the toll is the quake's, not Dargahan's.",
    example="The quake on the outskirts of Dargahan injured two people.", model=READING).id
PART_OF_TOTAL = declare(
    "figure.part-of-total", "facts.figure", reads="a number \"of\" something in a count's "
    "clause (\"15 of them on Qeshm\")", writes="leaves its place out of the total's measure",
    description="\"injuring 40, 15 of them on Qeshm\": the place of a part is not the "
                "total's; the total stays keyed by its cause or its own place.",
    example="A quake struck near Bandar Abbas, killing seven people and injuring 40, 15 of "
            "them on Qeshm.", model=READING).id
NAMED_DOER = declare(
    "figure.named-doer", "facts.figure", reads="the subject of a toll's verb",
    writes="Measure.anchor", description="Whoever a toll's verb names as doing it, people "
    "too: \"Hurricane Mitch killed about 10,000 people\" is Mitch's toll, not the toll of the "
    "place the article is about.",
    example="Gunman Thomas Hamilton killed 16 children in Dunblane.", model=READING).id
UNNAMED_POSSESSOR = declare(
    "figure.unnamed-possessor", "facts.figure", reads="the possessor of a toll's noun",
    writes="leaves the figure without a measure", description="\"the country's 5,300 "
    "deaths\": a part of some total, of no one named, is no measure of anything known.",
    example="The tsunami struck Asia. The country's 5,300 deaths shocked Thailand.",
    model=LEFT_OUT).id
