"""What the verifier reads of a fact in its parse: signals of sense, factuality and attachment.

Each role, claim and event leaves extraction with ``Evidence.signals``: short strings naming
what the sentence shows around it — the rule, the trigger's lemma and tag, a negation, a
modal, a future or conditional, hedging or generic wording, how the speaker was found, how far
the parts lie apart. ``kg.verify`` turns them (with what resolution knows: the classes of the
parts) into the fact's calibrated confidence; extraction itself decides nothing with them.

>>> bucket(0), bucket(3), bucket(12), bucket(40)
('0', '1-3', '4-12', '13+')
>>> band(0.05), band(0.5), band(0.99), band(None)
('0.0', '0.4', '0.8', 'none')
>>> is_capitals("PM WINS VOTE"), is_capitals("PM wins vote"), is_capitals("US")
(True, False, False)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from kg.extract.recovery import dateline_places, line_around
from kg.extract.rules.context import FactContext
from kg.extract.rules.event_factuality import happened
from kg.extract.rules.event_senses import (
    CONDITIONAL_MARKS,
    DENIAL_VERBS,
    FUTURE_AUXILIARIES,
    IRREALIS_VERBS,
    MODALS,
    NEGATIVE_DETERMINERS,
)
from kg.extract.rules.trigger_sense import event_sense
from kg.lexicon import table, word_list
from kg.model import Claim, Event, Fact, Membership, Party, PartyKind
from kg.model.document import DESCRIPTION

if TYPE_CHECKING:
    from spacy.tokens import Token

#: Words that hedge or report without asserting ("reportedly", "allegedly", "expected").
HEDGES = word_list("hedge-words")
#: Nouns that relate a person to someone else ("son", "friend"): a tie, not a post.
KINSHIP = word_list("relational-nouns")
#: Entity labels whose words are names, not vocabulary.
NAME_TYPES = frozenset({"PER", "PERSON", "ORG", "LOC", "GPE", "FAC", "MISC", "NORP"})
#: Pronouns a speaker or participant may be written as.
PRONOUNS = frozenset(word for words in table("pronouns").values() for word in words)
#: Words that make a statement general rather than about one occasion.
GENERIC = word_list("generic-words")


def bucket(n: int) -> str:
    """A count in four coarse bins (the verifier learns per bin, not per number)."""
    return "0" if n <= 0 else "1-3" if n <= 3 else "4-12" if n <= 12 else "13+"


def band(p: float | None) -> str:
    """A probability in five bands of 0.2 (``none`` when no model gave one)."""
    return "none" if p is None else f"{min(int(p * 5), 4) / 5:.1f}"


def is_capitals(text: str) -> bool:
    """Whether a line is set in capitals ("BLAIR WINS THIRD TERM"): a headline or a wire
    slug, not a sentence that reports (five letters or more, nine in ten of them capitals)."""
    letters = [ch for ch in text if ch.isalpha()]
    return len(letters) >= 5 and sum(ch.isupper() for ch in letters) >= 0.9 * len(letters)


def with_signals(ctx: FactContext, fact: Fact) -> Fact:
    """``fact`` with its evidence's signals (roles, claims and events; others as they are)."""
    from dataclasses import replace

    if not isinstance(fact, Membership | Claim | Event):
        return fact
    anchor = _anchor(ctx, fact)
    if anchor is None:
        return fact
    found = [f"rule={fact.evidence.rule}", *_clause(anchor), *_sentence(anchor),
             *_specific(ctx, fact, anchor)]
    return replace(fact, evidence=replace(fact.evidence, signals=tuple(dict.fromkeys(found))))


def _anchor(ctx: FactContext, fact: Membership | Claim | Event) -> Token | None:
    """The token a fact hangs on: an event's trigger, a claim's cue, a role's person."""
    if isinstance(fact, Event):
        at = fact.trigger.begin
    elif isinstance(fact, Membership):
        at = fact.person.begin
    else:
        return _cue(ctx, fact)
    bounds = ctx.token_bounds(at, at + 1)
    return ctx.doc[bounds[0]] if bounds else None


def _cue(ctx: FactContext, claim: Claim) -> Token | None:
    bounds = ctx.token_bounds(claim.content.begin, claim.content.end)
    if bounds is None:
        return None
    sent = ctx.doc[bounds[0]].sent
    cues = [t for t in sent if t.lemma_.lower() == claim.cue.split()[0]]
    if not cues:
        return ctx.doc[bounds[0] : bounds[1]].root
    middle = (bounds[0] + bounds[1]) / 2
    return min(cues, key=lambda t: abs(t.i - middle))


def _chain(token: Token, steps: int = 4) -> Iterator[Token]:
    """The token and the words it hangs from, up to ``steps`` levels."""
    current = token
    for _ in range(steps + 1):
        yield current
        if current.head.i == current.i:
            return
        current = current.head


def _word(token: Token) -> str:
    """A word as the verifier may learn it: a common word's lemma, a name only as a name (a
    weight learned for "Kennedy" would say nothing of the next article)."""
    if token.pos_ == "PROPN" or token.ent_type_ in NAME_TYPES:
        return "NAME"
    if token.like_num:
        return "NUMBER"
    return token.lemma_.lower()


def _clause(anchor: Token) -> Iterator[str]:
    yield f"tag={anchor.tag_}"
    yield f"dep={anchor.dep_}"
    yield f"lemma={_word(anchor)}"
    yield f"head={_word(anchor.head)}" if anchor.head.i != anchor.i else "head=root"
    for child in anchor.children:  # what the word governs: its sense's best clue
        if child.dep_ in {"dobj", "nsubj", "nsubjpass", "pobj", "attr"}:
            yield f"{child.dep_}={_word(child)}"
            yield f"{child.dep_}-ent={child.ent_type_ or 'none'}"
        elif child.dep_ == "prep":
            objects = [_word(o) for o in child.children if o.dep_ == "pobj"]
            yield f"prep={child.lower_}:{objects[0] if objects else ''}"
    for depth, token in enumerate(_chain(anchor)):
        near = "" if depth == 0 else "up:"
        for child in token.children:
            if child.dep_ == "neg" or child.lower_ in NEGATIVE_DETERMINERS:
                yield f"{near}negated"
            if child.dep_ in {"aux", "auxpass"} and child.lower_ in MODALS:
                yield f"{near}modal={child.lower_}"
            if child.dep_ == "aux" and child.lower_ in FUTURE_AUXILIARIES:
                yield f"{near}future"
            if child.dep_ == "mark" and child.lower_ in CONDITIONAL_MARKS:
                yield f"{near}conditional"
            if child.lower_ in HEDGES:
                yield f"{near}hedged"
            if child.lower_ in GENERIC:
                yield f"{near}generic"
        if depth and token.lemma_.lower() in IRREALIS_VERBS:
            yield "under-irrealis"
        if depth and token.lemma_.lower() in DENIAL_VERBS:
            yield "under-denial"
    if anchor.pos_ == "NOUN":
        determiners = [c.lower_ for c in anchor.children if c.dep_ == "det"]
        yield f"det={determiners[0] if determiners else 'none'}"
        if anchor.tag_ == "NNS":
            yield "plural-noun"


def _sentence(anchor: Token) -> Iterator[str]:
    sent = anchor.sent
    yield f"sentence-words={bucket(len(sent) // 5)}"
    if sent[-1].text == "?" or any(t.text == "?" for t in sent):
        yield "question"
    if any(t.is_quote for t in sent):
        yield "quoted"
    # No "first sentence" signal: where a document's first sentence is its headline (ECB+'s
    # joined lines) or its lede (a wire story) depends on how it came in, and a weight learned
    # from one told against the other (held-out facts: roles' recall 0.76 -> 0.16).


def _party(name: str, party: Party | None) -> Iterator[str]:
    if party is None:
        yield f"{name}=none"
        return
    yield f"{name}-kind={party.kind.value}"
    first = party.text.split()[0].lower() if party.text.split() else ""
    if first in PRONOUNS:
        yield f"{name}=pronoun:{first}"
    elif party.text[:1].islower():
        yield f"{name}=common-noun"
    if party.mention is not None and not party.begin <= party.mention[0] < party.end:
        yield f"{name}=antecedent"
    if party.kind is PartyKind.GROUP and party.text[-1:].islower():
        yield f"{name}-head={party.text.split()[-1].lower()}"


def _specific(ctx: FactContext, fact: Membership | Claim | Event, anchor: Token) -> Iterator[str]:
    if isinstance(fact, Membership):
        words = fact.role.lower().split()
        yield f"role-head={words[-1] if words else ''}"
        yield f"role-words={bucket(len(words))}"
        if set(words) & KINSHIP:
            yield "kinship"
        yield from _party("org", fact.organization)
        if fact.organization is not None:
            yield f"org-distance={bucket(abs(fact.organization.begin - fact.person.begin) // 10)}"
        if fact.former:
            yield "former"
    elif isinstance(fact, Claim):
        yield f"kind={fact.kind.value}"
        yield f"cue={fact.cue}"
        yield from _party("speaker", fact.speaker)
        yield f"content-words={bucket(len(fact.content.text.split()) // 4)}"
        side = "before" if fact.speaker.end <= fact.content.begin else (
            "after" if fact.speaker.begin >= fact.content.end else "inside")
        yield f"speaker-{side}"
        if fact.content.text[:1].islower():
            yield "content-lowercase"
    else:
        yield f"type={fact.kind.value}"
        yield f"type-lemma={fact.kind.value}:{fact.lemma}"
        yield f"agents={bucket(len(fact.agents))}"
        yield f"patients={bucket(len(fact.patients))}"
        for party in fact.agents[:1]:
            yield from _party("agent", party)
        for party in fact.patients[:1]:
            yield from _party("patient", party)
        yield "placed" if fact.places else "no-place"
        yield "dated" if fact.time is not None else "no-date"
        if fact.planned:
            yield "planned"
        if fact.figures:
            yield "figures"
        yield from _event_context(ctx, fact, anchor)


def from_dateline(text: str, party: Party) -> bool:
    """Whether ``party`` is, or stands for, a place of a dateline: a wire's own line
    ("NAIROBI 1996-08-29") or the opening of the story's ("KYIV, May 18 (Reuters) -")."""
    for begin, end in {(party.begin, party.end), party.mention or (party.begin, party.end)}:
        if (begin, end) in dateline_places(text, *line_around(text, begin)):
            return True
    return False


def _event_context(ctx: FactContext, fact: Event, anchor: Token) -> Iterator[str]:
    """What the sentence shows around an event beyond its own parts: the names it leaves out
    (a participant the sentence names but the event misses), parts taken from a dateline,
    parts and date far from the trigger or in another sentence, what the factuality and sense
    models read of the trigger, a headline in capitals."""
    parts = [*fact.agents, *fact.patients, *fact.places]
    yield f"parts={min(len(parts) + (fact.time is not None), 4)}"
    taken = [(p.begin, p.end) for p in parts] + [p.mention for p in parts if p.mention]
    if fact.setting is not None:
        taken.append((fact.setting.begin, fact.setting.end))
    sentence = anchor.sent
    clause = next((t for t in _chain(anchor) if t.pos_ in {"VERB", "AUX"}), anchor)
    in_clause = {t.i for t in clause.subtree}
    left_out = {"sentence": 0, "clause": 0}
    kinds: set[str] = set()
    for mention in ctx.mentions_in(sentence):
        tokens = ctx.mention_tokens[(mention.begin, mention.end)]
        if (mention.ner_label == DESCRIPTION or ctx.in_dateline(ctx.doc[tokens[0]])
                or any(b < mention.end and mention.begin < e for b, e in taken)
                or mention.begin <= fact.trigger.begin < mention.end):
            continue
        left_out["sentence"] += 1
        if any(i in in_clause for i in range(*tokens)):
            left_out["clause"] += 1
            kinds.add(mention.kind.value)
    yield f"unnamed-sentence={min(left_out['sentence'], 3)}"
    yield f"unnamed-clause={min(left_out['clause'], 3)}"
    for kind in sorted(kinds):
        yield f"unnamed-clause-kind={kind}"
    text = ctx.frame.document.text
    line = (text.rfind("\n", 0, fact.trigger.begin) + 1,
            (text.find("\n", fact.trigger.end) + 1 or len(text) + 1) - 1)
    far = 0
    for name, group in (("agent", fact.agents), ("patient", fact.patients),
                        ("place", fact.places)):
        for party in group:
            bounds = ctx.token_bounds(party.begin, party.end)
            if bounds is None:
                yield f"{name}-other-chunk"
                continue
            token = ctx.doc[bounds[0]]
            if ctx.in_dateline(token) or from_dateline(text, party):
                yield f"{name}-dateline"
            if token.sent.start != sentence.start:
                yield f"{name}-other-sentence"
            if not line[0] <= party.begin < line[1]:
                yield f"{name}-other-line"
            far = max(far, abs(bounds[0] - anchor.i))
    yield f"part-distance={bucket(far // 2)}"
    if fact.time is not None:
        bounds = ctx.token_bounds(fact.time.begin, fact.time.end)
        other_line = not line[0] <= fact.time.begin < line[1]
        if other_line:
            yield "date-other-line"
        if (bounds is not None and ctx.in_dateline(ctx.doc[bounds[0]])) or (
                other_line and dateline_places(text, *line_around(text, fact.time.begin))):
            yield "date-dateline"
        elif bounds is None or ctx.doc[bounds[0]].sent.start != sentence.start:
            yield "date-other-sentence"
    yield f"happened={band(happened(anchor))}"
    yield f"sense={band(event_sense(anchor, fact.kind))}"
    verb = clause if clause.pos_ in {"VERB", "AUX"} else None
    yield f"clause-tag={verb.tag_ if verb is not None else 'none'}"
    if is_capitals(text[line[0]:line[1]]):
        yield "headline-capitals"
    if sentence[-1].text not in {".", "!", "?", '"', "'", "\u201d"}:
        yield "no-full-stop"
