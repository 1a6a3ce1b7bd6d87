"""What a number measures, beyond what it counts: the quantity an amount is of, the period
it refers to, whether it is a forecast, and whose forecast it is.

The verb beside a number is evidence, not the key (issue 39): "US exports rose 12.3%" is a
rise of exports, "Chrysler's revenue rose 10%" a rise of revenue — two things, however alike
their verbs —, "a $1.6bn loan" is a loan and "a $3bn package" a package. "The economy would
grow by 2.5% this year" and "forecast growth of 1.8% this year" are both forecasts of this
year's growth. Each reading below is one small function, named as a heuristic (id, what it
reads, an example), registered at the end of this module and switched off on its own
(``kg build --rules -figure.period``):

- ``figure.amount-noun``: the noun an amount modifies or is "of" ("a $1.6bn loan",
  "growth of 1.8%");
- ``figure.amount-subject``: the subject (or the moved object) of the verb an amount is the
  object of ("US exports rose 12.3%", "cut production by 3%");
- ``figure.amount-change``: a rise, a fall or a level ("rose 2% to $11.1bn");
- ``figure.period``: the date expression of the figure's noun or clause ("sales rose 2% in
  January");
- ``figure.forecast``: a modal or a forecasting word on it ("would grow by 2.5%");
- ``figure.forecaster``: the named subject of a forecasting word ("the Bank forecast growth of
  1.8%");
- ``figure.increment``: "more", "another", "further" make a part or an addition ("two more
  victims were found");
- ``figure.previous-value``: "a previous estimate of 3.7%" is the value the source gave
  before the one beside it ("would fall to 3.3% from a previous estimate of 3.7%");
- ``figure.revised-change``: a revising verb's "from X to Y" or "Y instead of X" — or its
  passive subject's value ("a previous estimate of 0.1% … was downgraded to a 0.3% decline")
  — is a value given before and the one that replaced it ("revised down from 157,000 to
  133,000"), of the quantity the verb revises;
- ``figure.forecast-noun``: "below Gordon Brown's forecast of 3% to 3.5%": a forecast named
  by its noun alone forecasts what the sentence's other forecast of the same unit does, and
  is its owner's;
- ``figure.participle-event``: a count in a participle clause belongs to the event of the verb
  it hangs from ("attacked a truck, injuring two people": the attack's toll; "cancelled 77
  flights, affecting 5,000 passengers");
- ``figure.story-cause``: a toll that names no place and no cause is the toll of the cause the
  article names last before it ("… the tsunami. The tragedy has left 25,000 people dead").

>>> normalised_period("in the fourth quarter", None, None)
'fourth quarter'
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from kg.extract.rules.context import FactContext
from kg.heuristics import applies, declare, found
from kg.lexicon.fact_words import EPISTEMIC_VERBS, trigger_type
from kg.lexicon.measure_words import (
    AMOUNT_PREPS,
    EVENT_PRONOUNS,
    FORECAST_MODALS,
    FORECAST_WORDS,
    INCREMENTS,
    LEVEL_VERBS,
    NEUTRAL_WORDS,
    RATE_NOUNS,
    REPLACED_MARKERS,
    REVISING_VERBS,
    REVISION_MARKERS,
    REVISION_NOUNS,
    SPAN_PREPS,
    cause_of,
    change_of,
    subject_quantity,
)
from kg.model import Party, TimeExpression

if TYPE_CHECKING:
    from spacy.tokens import Token

#: Dependencies of a number that modifies the noun it measures ("a $1.6bn loan").
MODIFIER_DEPS = frozenset({"nummod", "quantmod", "compound", "nmod", "amod"})
#: Dependencies of an amount that is the object of its verb ("rose 12.3%", "spent £2m").
OBJECT_DEPS = frozenset({"dobj", "npadvmod", "attr", "oprd", "acomp", "advmod", "nmod"})
SUBJECTS = frozenset({"nsubj", "nsubjpass"})
#: A counted noun's children that can say it is a part or an addition ("two more victims").
MODIFYING_DEPS = frozenset("amod advmod det".split())  # dependency labels
#: A noun's children that are its number or its article, not words of what it names.
NUMBER_DEPS = frozenset("nummod quantmod det predet".split())  # dependency labels
#: Prepositions that give a level ("rose to $5bn", "stood at 5%"); "from" is a starting point.
LEVEL_PREPS = frozenset({"to", "at"})
#: "so far", "to date", "since Monday", "the past eight days": a count up to the report.
_CUMULATIVE = re.compile(
    r"\b(so far|to date|since|(past|last) (few |\w+ )?(days?|weeks?|hours?))\b")
#: "the past two years", "the last decade", "recent years": a count over a span of years, a
#: total of many events, not one event's running count.
_YEARS_SPAN = re.compile(r"\b(past|last|previous|recent)\s+(\w+\s+)?(years|decades?)\b")
#: How far back (tokens) "It killed 612 people" looks for the time of what "it" is.
LOOK_BACK = 60
#: Month names and abbreviations (the C locale's, English).
MONTHS = frozenset(m.lower() for m in (*calendar.month_name, *calendar.month_abbr) if m)
_YEAR = re.compile(r"\b(1[6-9]|20)\d\d\b")
_LEADING = re.compile(r"^(?:(?:in|on|during|over|for|by|of|the|this past)\s+)+")


@dataclass(frozen=True)
class Amount:
    """What an amount is of: its key (lemmas: "export rise", "growth", "loan"), its words as
    the sentence gives them ("US exports"), the noun that names it and the verb it is under."""

    key: str
    wording: str
    noun: Token | None
    verb: Token | None


# -- figure.amount-noun / figure.amount-subject / figure.amount-change -------------------------


def amount_of(ctx: FactContext, root: Token) -> Amount | None:
    """What an amount (money, a percentage) measures: the noun it modifies or is "of" ("a
    $1.6bn loan", "growth of 1.8%"), else the subject — or, for a verb that moves something,
    the object — of the verb it is the object of ("US exports rose 12.3%", "cut production by
    3%"), with the change ("export rise") unless it is a level ("rose to $5bn"); else the
    verb itself when it names what is measured ("UKIP spent £2.36m"). ``None`` for an amount of
    nothing named ("it rose 5%") or a share of people ("63% disagreed")."""
    head = root.head
    noun = None
    if root.dep_ in MODIFIER_DEPS and head.i != root.i and head.pos_ in {"NOUN", "PROPN"}:
        noun = head  # "a $1.6bn loan", "a 5% rise in sales"
    elif root.dep_ == "pobj" and head.lower_ == "of" and head.head.pos_ == "NOUN":
        noun = head.head  # "growth of 1.8%", "a profit of $5m"
    if noun is not None:
        return found(AMOUNT_NOUN.id, lambda: _noun_amount(ctx, noun))
    verb, prep = _verb_of(root)
    if verb is None or prep == "from":
        return None
    return _verb_amount(ctx, verb, prep)


def _verb_of(root: Token) -> tuple[Token | None, str | None]:
    """The verb an amount is the object of, and the preposition between them."""
    head = root.head
    if root.dep_ in OBJECT_DEPS and head.pos_ in {"VERB", "AUX"}:
        return head, None
    if root.dep_ == "pobj" and head.lower_ in AMOUNT_PREPS \
            and head.head.pos_ in {"VERB", "AUX"}:
        return head.head, head.lower_
    return None, None


def _verb_amount(ctx: FactContext, verb: Token, prep: str | None) -> Amount | None:
    lemma = verb.lemma_.lower()
    change = change_of(_phrasal(verb)) or change_of(lemma)
    level = prep in LEVEL_PREPS or lemma in LEVEL_VERBS
    subject = found(AMOUNT_SUBJECT.id, lambda: (  # "cut production by 3%": what it moves
        _object_noun(verb) if change and not level else None) or _subject_noun(verb))
    if subject is None:
        if change or level or lemma == "have":
            return None  # "it rose 5%", "they stood at 3%": a quantity of nothing named
        return Amount(_phrasal(verb), verb.text, None, verb)  # "UKIP spent £2.36m"
    key, wording = quantity_words(ctx, subject)
    if (named := subject_quantity(subject.lemma_, lemma)) is not None:
        return Amount(named, f"{wording} {verb.text}", subject, verb)  # "the economy grew"
    if applies(AMOUNT_CHANGE.id, lambda: bool(change) and not level):
        key = f"{key} {change}"
    return Amount(key, wording, subject, verb)


def _noun_amount(ctx: FactContext, noun: Token) -> Amount | None:
    """ "a $1.6bn loan" (a loan), "a 5% rise in sales" (a rise of sales)."""
    change = found(AMOUNT_CHANGE.id, lambda: change_of(noun.lemma_))
    if change is None:
        key, wording = quantity_words(ctx, noun)
        return Amount(key, wording, noun, _governor(noun))
    targets = [o for p in noun.children if p.dep_ == "prep" and p.lower_ in {"in", "of"}
               for o in p.children if o.dep_ == "pobj" and o.pos_ == "NOUN"]
    verb = _governor(noun)
    if not targets and verb is not None and (subject := _subject_noun(verb)) is not None:
        targets = [subject]  # "sales saw a 5% rise"
    if not targets:
        return None
    key, wording = quantity_words(ctx, targets[0])
    return Amount(f"{key} {change}", wording, targets[0], verb)


def _governor(noun: Token) -> Token | None:
    """The verb a noun phrase belongs to (through prepositions), if it is near."""
    current = noun
    for _ in range(4):
        if current.pos_ in {"VERB", "AUX"}:
            return current
        if current.head.i == current.i:
            return None
        current = current.head
    return None


def _subject_noun(verb: Token) -> Token | None:
    """The common noun that is the verb's subject, through a relative clause ("sales, which
    rose 5%"), raising verbs ("sales are expected to rise 5%") and a shared subject ("growth
    would reach 4.4%, but fall to 3.3%")."""
    current = verb
    for _ in range(3):
        for child in current.children:
            if child.dep_ in SUBJECTS:
                if child.tag_ in {"WDT", "WP"} and current.dep_ == "relcl":
                    child = current.head  # "sales, which rose"
                return child if child.pos_ == "NOUN" else None
        if current.dep_ == "relcl":
            return current.head if current.head.pos_ == "NOUN" else None
        if current.dep_ not in {"xcomp", "conj"}:
            return None
        current = current.head
    return None


def _object_noun(verb: Token) -> Token | None:
    """The thing a transitive change verb moves: "cut production by 3%" → production."""
    objects = [c for c in verb.children if c.dep_ == "dobj" and c.pos_ == "NOUN"
               and not any(t.like_num for t in c.subtree)]
    return objects[0] if objects else None


def quantity_words(ctx: FactContext, noun: Token) -> tuple[str, str]:
    """A quantity's key — the lemmas of the noun and its word modifiers, without names, dates,
    numbers or forecasting words ("fourth quarter sales" → "sale"; "US exports" → "export") —
    and its words as written ("fourth quarter sales", "US exports")."""
    kept = []
    cut = forecast_cut(noun)
    for child in noun.children:
        if child.i > noun.i or child.dep_ not in {"compound", "amod", "nmod"}:
            continue
        if cut is not None and child.i <= cut:
            continue  # "the central bank forecast growth": the forecaster's words
        lemma = child.lemma_.lower()
        if child.pos_ == "VERB" and child.i > 0 and child.nbor(-1).pos_ == "CCONJ":
            continue  # "… and warned growth would be 1%": a verb the parser hung on the noun
        if (ctx.mention(child) is not None or child.ent_type_ or child.like_num
                or lemma in FORECAST_WORDS or lemma in NEUTRAL_WORDS or not child.is_alpha):
            continue
        kept.append(lemma)
    key = " ".join([*kept, noun.lemma_.lower()])
    numbers = {t.i for c in noun.children if c.dep_ in NUMBER_DEPS for t in c.subtree}
    start = noun.i
    first = noun.left_edge.i if cut is None else cut + 1
    while start > first and _in_phrase(ctx, noun.doc[start - 1]):
        start -= 1
    words = "".join(t.text_with_ws for t in noun.doc[start : noun.i + 1] if t.i not in numbers)
    return key, " ".join(words.split())


def forecast_cut(noun: Token) -> int | None:
    """Where a forecaster's words end in a noun phrase the parser built of them ("the central
    bank forecast growth", "the IMF forecast growth"): the last forecasting word before the
    noun, if any."""
    found = [t.i for t in noun.subtree if t.i < noun.i and t.lemma_.lower() in FORECAST_WORDS]
    return max(found) if found else None


def _in_phrase(ctx: FactContext, token: Token) -> bool:
    """Whether a word left of a noun still belongs to its phrase as written (a dateline, a
    comma, a date or a conjunction ends it: "KYIV, May 18 - Nearly 1,000 last-ditch
    fighters", "… and warned growth would be 1%")."""
    attached_hyphen = token.text == "-" and not token.whitespace_
    return (not token.is_punct or attached_hyphen) and not ctx.in_dateline(token) \
        and token.i not in ctx.time_at and token.pos_ != "CCONJ" \
        and not (token.pos_ == "VERB" and token.i > 0 and token.nbor(-1).pos_ == "CCONJ")


def _phrasal(verb: Token) -> str:
    particles = [c.lower_ for c in verb.children if c.dep_ == "prt"]
    return f"{verb.lemma_.lower()} {particles[0]}" if particles else verb.lemma_.lower()


# -- figure.period ---------------------------------------------------------------------------


def clause_tokens(verb: Token) -> list[Token]:
    """Tokens of ``verb``'s own clause: its subtree without embedded complement clauses."""
    nested = [c for c in verb.children if c.dep_ in {"ccomp", "parataxis", "advcl", "conj"}]
    excluded = {t.i for c in nested for t in c.subtree}
    return [t for t in verb.subtree if t.i not in excluded]


def period_of(ctx: FactContext, number: Token, verb: Token | None, noun: Token | None,
              running: bool = False) -> str | None:
    """``figure.period``: :func:`_period_of` unless it is off."""
    return found(PERIOD.id, lambda: _period_of(ctx, number, verb, noun, running))


def _period_of(ctx: FactContext, number: Token, verb: Token | None, noun: Token | None,
               running: bool = False) -> str | None:
    """The period a figure refers to: the first date expression of the noun it measures or
    of its verb's own clause (not of a clause above it: "said on Monday" is when it was said,
    nor a dateline's: "KYIV, May 18 -" is when it was filed), normalised; a running count's
    span up to the report ("so far", "since Monday", "in the past day") is no period: such a
    count is compared with the totals other reports give."""
    tokens = [*number.subtree, *(noun.subtree if noun is not None else ()),
              *(clause_tokens(verb) if verb is not None else ())]
    skip = set(range(number.left_edge.i, number.i + 1))  # the figure's own words
    first = next((t for t in tokens if t.i in ctx.time_at and t.i not in skip
                  and not ctx.in_dateline(t)), None)
    if first is None:
        return None
    time = ctx.time_at[first.i]
    start = min(i for i, t in ctx.time_at.items() if t is time)
    before = ctx.doc[start - 1].lower_ if start > 0 else ""
    if running and _CUMULATIVE.search(f"{before} {time.text}".lower()):
        return None
    return normalised_period(time.text, time.value, time.granularity)


def event_period(ctx: FactContext, number: Token, verb: Token | None = None) -> str | None:
    """``figure.event-period``: :func:`_event_period` unless it is off."""
    return found(EVENT_PERIOD.id, lambda: _event_period(ctx, number, verb))


def _event_period(ctx: FactContext, number: Token, verb: Token | None = None) -> str | None:
    """A running count (a toll, people who fled or surrendered) is
    about one event, whose time is its period only when the sentence names a month or a year
    ("In February, a quake hit Zarand, killing 612 people"; "killed 10,000 in 1998") — or,
    when a pronoun does the counting ("It killed 612 people"), the sentence before it does:
    a day ("on Sunday") or a span up to the report ("so far", "in the past day") makes it no
    other count than the totals other reports give."""
    line = _line(number)
    found = _month_or_year(ctx, line) or _day_of_span(ctx, line) or years_span(
        ctx, clause_tokens(verb) if verb is not None else line)
    if found is None and verb is not None and _pronoun_doer(verb):
        before = number.doc[max(0, number.sent.start - LOOK_BACK) : number.sent.start]
        found = _month_or_year(ctx, reversed(before))
    return time_period(found) if found is not None else None


def _line(number: Token) -> list[Token]:
    """The tokens of a number's sentence on its own line: a headline or a dateline the parser
    glued to the sentence ("November 28, 2005 ⏎ Ten people were killed") is not its time."""
    sentence = number.sent
    start = max([sentence.start, *(t.i + 1 for t in sentence if t.i < number.i and "\n" in t.text
                                   or t.i < number.i and "\n" in t.whitespace_)])
    end = min([sentence.end, *(t.i + 1 for t in sentence if t.i >= number.i and "\n" in
                               t.text + t.whitespace_)])
    return list(number.doc[start:end])


def _month_or_year(ctx: FactContext, sentence: Iterable[Token]) -> TimeExpression | None:
    for token in sentence:
        time = ctx.time_at.get(token.i)
        if time is None or ctx.in_dateline(token) or _CUMULATIVE.search(time.text.lower()):
            continue
        if set(re.findall(r"[a-z]+", time.text.lower())) & MONTHS or _YEAR.search(time.text):
            return time
    return None


def years_span(ctx: FactContext, tokens: Iterable[Token]) -> TimeExpression | None:
    """``figure.years-span``: a span of years up to the report in a count's clause ("1,400
    civilians have died in bomb attacks in the past two years") is its period: a total over
    many events, never one event's toll, which other reports of one attack give."""
    return found(YEARS_SPAN.id, lambda: _years_span(ctx, tokens))


def _years_span(ctx: FactContext, tokens: Iterable[Token]) -> TimeExpression | None:
    for token in tokens:
        time = ctx.time_at.get(token.i)
        if time is not None and not ctx.in_dateline(token) \
                and _YEARS_SPAN.search(time.text.lower()):
            return time
    return None


def _day_of_span(ctx: FactContext, line: Iterable[Token]) -> TimeExpression | None:
    """The day of an event a count is bounded to: "86 arrests over the course of Saturday's
    protests", "during Monday's march" (a day's part of a longer story)."""
    for token in line:
        time = ctx.time_at.get(token.i)
        if time is None or token.dep_ not in {"poss", "compound"} or token.head.i in ctx.time_at:
            continue
        if any(a.lower_ in SPAN_PREPS for a in list(token.head.ancestors)[:4]):
            return time
    return None


def _pronoun_doer(verb: Token) -> bool:
    """ "It killed 612 people", "That temblor killed …": the doer is an event told before."""
    while verb.dep_ == "conj" and not any(c.dep_ in SUBJECTS for c in verb.children):
        verb = verb.head  # "It killed 612 people and injured more than 1,400"
    for subject in (c for c in verb.children if c.dep_ in SUBJECTS):
        if subject.lower_ in EVENT_PRONOUNS or any(
                c.dep_ == "det" and c.lower_ in EVENT_PRONOUNS for c in subject.children):
            return True  # not "those who had given themselves up": people, not an event
    return False


def normalised_period(text: str, value: date | None, granularity: str | None) -> str | None:
    """A period as a key: ``2004``, ``2004-12``, ``2004-12-26`` when the date is known, else
    the words without leading prepositions and articles ("in the three months to December" →
    "three months to december")."""
    if value is not None and granularity == "year":
        return f"{value.year:04d}"
    if value is not None and granularity == "month":
        return f"{value.year:04d}-{value.month:02d}"
    if value is not None:
        return value.isoformat()
    words = _LEADING.sub("", " ".join(text.lower().replace("'s", "").split()))
    return words or None


def time_period(time: TimeExpression) -> str | None:
    """:func:`normalised_period` of a time expression."""
    return normalised_period(time.text, time.value, time.granularity)


# -- figure.forecast / figure.forecaster / figure.increment ---------------------------------


def is_forecast(verb: Token | None, noun: Token | None) -> bool:
    """``figure.forecast``: :func:`_is_forecast` unless it is off."""
    return applies(FORECAST.id, lambda: _is_forecast(verb, noun))


def _is_forecast(verb: Token | None, noun: Token | None) -> bool:
    """Whether a figure is a prediction: a modal on its verb or on a verb it is raised from
    ("would grow by 2.5%", "is expected to rise"), a forecasting verb above it, or a
    forecasting word on its noun ("forecast growth of 1.8%", "predicted a loss of $5m")."""
    current = verb
    for _ in range(3):
        if current is None:
            break
        if current.lemma_.lower() in FORECAST_WORDS:
            return True
        if any(c.dep_ == "aux" and c.lower_ in FORECAST_MODALS for c in current.children):
            return True
        if current.dep_ not in {"xcomp", "ccomp", "conj"}:
            break
        current = current.head
    if noun is None:
        return False
    words = [c for c in noun.children if c.dep_ in {"compound", "amod"}]
    return any(w.lemma_.lower() in FORECAST_WORDS for w in [*words, noun, noun.head])


def forecaster(ctx: FactContext, verb: Token | None, noun: Token | None) -> Party | None:
    """``figure.forecaster``: :func:`_forecaster` unless it is off."""
    return found(FORECASTER.id, lambda: _forecaster(ctx, verb, noun))


def _forecaster(ctx: FactContext, verb: Token | None, noun: Token | None) -> Party | None:
    """Whose forecast a figure is when the sentence says it beside the number: the named
    subject of the forecasting word ("the Bank of England forecast growth of 1.8%", "the IMF
    predicts a rise of 3%"), which a claim around it does not override."""
    words = [w for w in (noun, verb, noun.head if noun is not None else None) if w is not None]
    if noun is not None:
        words += [c for c in noun.children if c.dep_ == "compound"]
    for word in words:
        if word.lemma_.lower() not in FORECAST_WORDS:
            continue
        for subject in (c for w in (word, word.head) for c in w.children if c.dep_ in SUBJECTS):
            if (named := ctx.mentions_in(subject.subtree)):
                return ctx.entity_party(named[0])
    if noun is not None and (cut := forecast_cut(noun)) is not None:
        before = noun.doc[noun.left_edge.i : cut]  # "the IMF forecast growth of 1.8%"
        if (named := ctx.mentions_in(before)):
            return ctx.entity_party(named[-1])
    return None


def is_increment(number: Token, noun: Token | None) -> bool:
    """``figure.increment``: :func:`_is_increment` unless it is off."""
    return applies(INCREMENT.id, lambda: _is_increment(number, noun))


def _is_increment(number: Token, noun: Token | None) -> bool:
    """ "two more victims", "another 300 jobs", "a further three", "Twelve other people": a
    part or an addition, never the total a measure's other figures give."""
    words = [t for t in number.subtree]
    if noun is not None:
        words += [c for c in noun.children if c.dep_ in MODIFYING_DEPS]
    for token in words:
        following = token.nbor() if token.i + 1 < len(token.doc) else None
        than = following is not None and following.lower_ == "than"  # "more than 200"
        if token.lower_ in INCREMENTS and not than:
            return True
    return False


# -- figure.participle-event / figure.story-cause ------------------------------------------------


def participle_event(verb: Token | None) -> Token | None:
    """``figure.participle-event``: :func:`_participle_event` unless it is off."""
    return found(PARTICIPLE_EVENT.id, lambda: _participle_event(verb))


def _participle_event(verb: Token | None) -> Token | None:
    """The verb a count's participle clause hangs from, when that verb tells what happened
    ("attacked a truck, injuring two people" → attacked); not a verb of saying."""
    if verb is None or verb.dep_ != "advcl" or verb.tag_ != "VBG":
        return None
    head = verb.head
    inner = [c for c in head.children if c.dep_ == "xcomp" and c.pos_ == "VERB"]
    if head.lemma_ in {"have", "be"} and inner:
        head = inner[0]  # "had to cancel 77 flights, affecting …": the cancelling
    if head.pos_ not in {"VERB", "AUX"} or head.lemma_.lower() in EPISTEMIC_VERBS:
        return None
    return head


def participle_cause(verb: Token | None) -> str | None:
    """A toll's cause from the event its participle clause hangs from: the cause its subject
    names ("an earthquake hit the island, injuring five people" → earthquake), else the
    event itself when it is one ("attacked a television crew's truck, injuring two people" →
    attack)."""
    head = participle_event(verb)
    if head is None:
        return None
    for subject in (c for c in head.children if c.dep_ in SUBJECTS):
        if (cause := cause_of(subject.lemma_)) is not None:
            return cause
    kind = trigger_type(head.lemma_, "VERB")
    return kind.value.lower() if kind is not None else None


def story_cause(number: Token) -> str | None:
    """``figure.story-cause``: :func:`_story_cause` unless it is off."""
    return found(STORY_CAUSE.id, lambda: _story_cause(number))


def _story_cause(number: Token) -> str | None:
    """The cause the article names last before a number ("… after the tsunami struck. The
    tragedy has left at least 25,000 people dead" → tsunami), else first after it in the
    chunk."""
    doc = number.doc
    for token in (*reversed(doc[: number.i]), *doc[number.i + 1 :]):
        if token.pos_ in {"NOUN", "PROPN"} and (cause := cause_of(token.lemma_)) is not None:
            return cause
    return None


# -- figure.previous-value -------------------------------------------------------------------


def previous_value(number: Token) -> str | None:
    """``figure.previous-value``: :func:`_previous_value` unless it is off."""
    return found(PREVIOUS_VALUE.id, lambda: _previous_value(number))


def _previous_value(number: Token) -> str | None:
    """The noun ("estimate", "forecast" …) when a number is a value given before and now
    superseded: the "of" of an earlier estimate or forecast ("fall to 3.3% from a previous
    estimate of 3.7%", "the panel's earlier forecast of 1.4% was too optimistic"); else
    ``None``."""
    current = number
    for _ in range(3):
        if current.dep_ == "pobj" and current.head.lower_ == "of":
            noun = current.head.head
            lemma = noun.lemma_.lower()
            marked = any(c.lower_ in REVISION_MARKERS or c.lemma_.lower() in REVISION_MARKERS
                         for c in noun.children if c.dep_ in {"amod", "advmod"})
            return lemma if lemma in REVISION_NOUNS and marked else None
        if current.dep_ not in {"compound", "nummod", "quantmod", "amod"}:
            return None
        current = current.head
    return None


# -- figure.revised-change / figure.forecast-noun -----------------------------------------------


@dataclass(frozen=True)
class Revised:
    """A number's part in a revision a verb tells: the verb, and whether the number is the
    value given before (``True``) or the one that replaced it."""

    verb: Token
    before: bool
    number: Token
    backward: bool = False  # a value before told after the one that replaced it ("instead of")


def revision_role(number: Token) -> Revised | None:
    """``figure.revised-change``: :func:`_revision_role` unless it is off."""
    return found(REVISED_CHANGE.id, lambda: _revision_role(number))


def _revision_role(number: Token) -> Revised | None:
    """A number's part in a revision: under a revising verb ("revise", "downgrade" …, or a
    change verb whose object is an estimate or a forecast: "cut its forecast"), the value
    after "from", "instead of" or "rather than", or in the passive subject ("a previous
    estimate of 0.1% … was downgraded"), is the value given before; the value after "to" the
    one that replaced it. ``None`` elsewhere: "fell from 3% to 2%" is a change over time."""
    verb = next((a for a in list(number.ancestors)[:8] if _is_revising(a)), None)
    if verb is None:
        return None
    current = number
    while current.i != verb.i:
        word = current.lower_
        if word in {"of", "than"} and current.i > 0 and \
                current.nbor(-1).lower_ in REPLACED_MARKERS:
            return Revised(verb, True, number, backward=True)  # "to 139,000 instead of 96,000"
        if word == "from" and current.dep_ == "prep":
            return Revised(verb, True, number)
        if word == "to" and current.dep_ in {"prep", "dative", "conj"}:  # "…, and to 198,000"
            return Revised(verb, False, number)
        if current.head.i == verb.i and current.dep_ == "nsubjpass":
            return Revised(verb, True, number)  # "a previous estimate of 0.1% was downgraded to …"
        current = current.head
    return None


def _is_revising(verb: Token) -> bool:
    if verb.pos_ not in {"VERB", "AUX"}:
        return False
    lemma = verb.lemma_.lower()
    if lemma in REVISING_VERBS:
        return True
    objects = [c for c in verb.children if c.dep_ in {"dobj", "nsubjpass"}]
    return change_of(lemma) is not None and any(
        o.lemma_.lower() in REVISION_NOUNS for o in objects)  # "cut its growth forecast"


def revised_quantity(verb: Token) -> Token | None:
    """The noun of what a revising verb revises: its object or passive subject, through an
    estimate, a forecast or a rate of something ("the rate of growth", "a previous estimate
    of 0.1% growth", "the number of jobs created")."""
    nouns = [c for c in verb.children if c.dep_ in {"dobj", "nsubjpass"} and c.pos_ == "NOUN"]
    if not nouns:
        return None
    noun = nouns[0]
    for _ in range(2):
        if noun.lemma_.lower() not in RATE_NOUNS | REVISION_NOUNS or any(
                c.dep_ == "compound" for c in noun.children):
            break  # "its growth forecast": the forecast of growth, as it is worded
        inner = [o for p in noun.children if p.lower_ == "of" for o in p.children
                 if o.dep_ == "pobj" and o.pos_ == "NOUN" and not o.like_num and o.lower_ != "%"]
        if not inner:
            break
        noun = inner[0]
    return noun


def forecast_noun(number: Token) -> Token | None:
    """``figure.forecast-noun``: :func:`_forecast_noun` unless it is off."""
    return found(FORECAST_NOUN.id, lambda: _forecast_noun(number))


def _forecast_noun(number: Token) -> Token | None:
    """The noun of a forecast named by its noun alone ("Gordon Brown's forecast of 3% to
    3.5%", "a prediction of 20 million"): a forecasting noun with the number "of" it and no
    word of its own that names the quantity."""
    current = number
    for _ in range(4):
        if current.dep_ == "pobj" and current.head.lower_ == "of":
            noun = current.head.head
            if noun.pos_ != "NOUN" or noun.lemma_.lower() not in FORECAST_WORDS:
                return None
            named = [c for c in noun.children if c.dep_ in {"compound", "amod", "nmod"}
                     and c.lemma_.lower() not in FORECAST_WORDS | NEUTRAL_WORDS]
            return None if named else noun
        if current.dep_ not in {"compound", "nummod", "quantmod", "amod"}:
            return None
        current = current.head
    return None


# -- the registry's entries: what a figure's measure is read from --

#: How sure a reading is: it is a part of the figure's measure, stated with the figure rule's
#: confidence (``figure.number``); a wrong reading makes two measured things one, or one two.
READING = "a part of the figure's measure: figure.number's prior"

AMOUNT_NOUN = declare(
    "figure.amount-noun", "facts.figure", reads="an amount (money, a percentage) and the noun "
    "it modifies or is \"of\"", writes="Measure.predicate (the quantity) and the figure's wording",
    description="An amount measures the noun it modifies or is \"of\": \"a $1.6bn loan\" is a "
                "loan, \"growth of 1.8%\" growth.",
    example="Turkey agreed a $1.6bn loan with the IMF.", model=READING)
AMOUNT_SUBJECT = declare(
    "figure.amount-subject", "facts.figure", reads="an amount that is the object of a verb, "
    "and the verb's subject (or the object a change verb moves)",
    writes="Measure.predicate (the quantity) and the figure's wording",
    description="An amount under a verb measures the verb's subject (\"US exports rose "
                "12.3%\"), or what a change verb moves (\"cut production by 3%\").",
    example="US exports rose 12.3% in January.", model=READING)
AMOUNT_CHANGE = declare(
    "figure.amount-change", "facts.figure", reads="the verb or noun of an amount",
    writes="Measure.predicate: the quantity with its change (\"export rise\")",
    description="A rise or a fall is another measure than a level: \"rose 12.3%\" is a rise "
                "of exports, \"rose to $5bn\" their level.",
    example="US exports rose 12.3% in January.", model=READING)
PERIOD = declare(
    "figure.period", "facts.figure", reads="the date expressions of a figure's noun and of its "
    "verb's own clause (not a dateline's, not a clause of saying above it)",
    writes="Measure.period, normalised",
    description="An amount's or a count's period: \"sales rose 2% in January\" is January's; "
                "\"so far\", \"since Monday\" make a running count, no period.",
    example="US exports rose 12.3% in January.", model=READING)
EVENT_PERIOD = declare(
    "figure.event-period", "facts.figure", reads="a running count's line, or the sentences "
    "before a pronoun that does the counting", writes="Measure.period of a toll or a count of "
    "people", description="A toll is about one event, whose time is its period only when a "
    "month or a year is named (\"In February, a quake hit Zarand, killing 612 people\").",
    example="In February 2005, an earthquake hit Zarand, killing 612 people.", model=READING)
YEARS_SPAN = declare(
    "figure.years-span", "facts.figure", reads="the date expressions of a running count's "
    "clause", writes="Measure.period of a toll or a count of people",
    description="A span of years up to the report (\"in the past two years\", \"over the last "
                "decade\") is a count's period: a total over many events, not the toll of one "
                "that other reports give.",
    example="About 1,400 civilians have died in bomb attacks in the past two years.",
    model=READING)
FORECAST = declare(
    "figure.forecast", "facts.figure", reads="modals and forecasting words on a figure's verb "
    "or noun", writes="Measure.forecast", description="\"would grow by 2.5%\", \"is expected to "
    "rise\", \"forecast growth of 1.8%\": a prediction, compared only with predictions.",
    example="Tom Reid said the economy would grow by 2.5% this year.", model=READING)
FORECASTER = declare(
    "figure.forecaster", "facts.figure", reads="the named subject of a forecasting word beside "
    "a figure", writes="Figure.source", description="Whose forecast a figure is: \"the Bank of "
    "England forecast growth of 1.8%\" is the Bank's, whatever claim holds the sentence.",
    example="The Bank of England forecast growth of 1.8% this year.", model=READING)
INCREMENT = declare(
    "figure.increment", "facts.figure", reads="\"more\", \"another\", \"further\", \"other\" on "
    "a number or its noun", writes="leaves the figure without a measure",
    description="\"two more victims\", \"another 300 jobs\": an addition, never the total the "
                "measure's other figures give.",
    example="Rescuers said two more victims were found in Zarand on Tuesday.", model=READING)
PREVIOUS_VALUE = declare(
    "figure.previous-value", "facts.figure", reads="\"a previous estimate of\", \"its earlier "
    "forecast of\" around a number", writes="Figure.previous, and the measure of the value "
    "that superseded it", description="\"fall to 3.3% from a previous estimate of 3.7%\": the "
    "value the source gave before, a revision by one source.",
    example="The OECD said growth would fall to 3.3% from a previous estimate of 3.7%.",
    model=READING)
REVISED_CHANGE = declare(
    "figure.revised-change", "facts.figure", reads="the numbers under a revising verb "
    "(\"revised down from … to …\", \"downgraded to\", \"… instead of …\")",
    writes="Figure.previous, and one measure for the value before and the one after",
    description="\"revised down from 157,000 to 133,000\", \"to 139,000 instead of "
                "96,000\": the value a source gave before and the one that replaced it, of "
                "the quantity the verb revises: a revision by one source.",
    example="The ONS revised the annual 2004 rate of growth down from the 5.9% estimated in "
            "November to 3.2%.", model=READING)
FORECAST_NOUN = declare(
    "figure.forecast-noun", "facts.figure", reads="a number \"of\" a forecasting noun that "
    "names no quantity, and the sentence's other forecasts", writes="Measure and "
    "Figure.source (the noun's owner)",
    description="\"Deloitte expects growth of 2% this year, below Gordon Brown's forecast of "
                "3% to 3.5%\": a forecast named by its noun alone forecasts what the "
                "sentence's other forecast of the same unit does, and is its owner's.",
    example="Deloitte expects growth of 2% this year, below Gordon Brown's forecast of 3% to "
            "3.5%.", model=READING)
PARTICIPLE_EVENT = declare(
    "figure.participle-event", "facts.figure", reads="a count in a participle clause and the "
    "verb it hangs from", writes="Measure.predicate and Measure.cause",
    description="\"attacked a truck, injuring two people\" is the attack's toll; \"cancelled "
                "77 flights, affecting 5,000 passengers\" those the cancelling affected.",
    example="The airline cancelled 77 flights, affecting 5,000 passengers.", model=READING)
STORY_CAUSE = declare(
    "figure.story-cause", "facts.figure", reads="a toll that names no place and no cause, and "
    "the causes the chunk names", writes="Measure.cause",
    description="A toll of no named place or cause is the toll of the cause the article names "
                "last before it (\"… the tsunami. The tragedy has left 25,000 people dead\").",
    example="The tsunami struck on Sunday. The tragedy has left at least 25,000 people dead.",
    model=READING)
