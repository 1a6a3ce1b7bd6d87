"""Score the fact extractor on the hand-annotated sentences in ``cases.jsonl``.

Each case is one news sentence (my own, or from ../shared/corpora/bbc/ where ``source`` says)
with the roles, events and claims a careful reader finds in it. A prediction matches an
expected fact when

    role   the person's name contains the expected name, the post ends in the same word
           ("Army Chief" ~ "Chief"), and the organisation matches (both absent, or the
           predicted name or country contains the expected one);
    event  the type is the same, every expected argument is found among the predicted
           agents, patients and places (names or words), the date, when expected, is it,
           and both are planned ("will visit", ``"planned": true``) or both happened;
    claim  the speaker's words or name contain the expected speaker, the claimed text contains
           the expected words, and every expected value is a figure inside the claim.

Matching is one-to-one; precision = matched / predicted, recall = matched / expected.

    .venv/bin/python -m tests.eval.facts.score          # prints a table per split
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from kg.extract.rules.places import country_named
from kg.ingest.files import document_from_text
from kg.model import ArticleMeta, Claim, Event, Extraction, Figure, Membership, Party, within

CASES = Path(__file__).with_name("cases.jsonl")  # the development split: rules were tuned on it
HELD_OUT = Path(__file__).with_name("heldout.jsonl")  # written before any run, never tuned on
SPLITS = {"development": CASES, "held-out": HELD_OUT}
KINDS = ("roles", "events", "claims")


@dataclass(frozen=True)
class Case:
    """One annotated sentence."""

    id: str
    text: str
    published: date | None
    expected: dict[str, list[Any]]


@dataclass
class Tally:
    """Counts for one kind of fact."""

    predicted: int = 0
    expected: int = 0
    matched: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 1.0


def load_cases(path: Path = CASES) -> list[Case]:
    """The annotated cases."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        published = date.fromisoformat(raw["date"]) if raw.get("date") else None
        expected = {kind: raw.get(kind, []) for kind in KINDS}
        cases.append(Case(raw["id"], raw["text"], published, expected))
    return cases


def _names(party: Party | None, text: str) -> list[str]:
    """Every name a party goes by: its words, the mention it stands for (a pronoun's
    antecedent), and the country it is (a demonym, or a short name such as "UK")."""
    if party is None:
        return []
    names = [party.text]
    if party.mention is not None:
        names.append(text[party.mention[0] : party.mention[1]])
    country = party.country or country_named(party.text)
    if country is not None:
        names.append(country.name)
    return [name.casefold() for name in names]


def _has(names: Iterable[str], wanted: str) -> bool:
    return any(wanted.casefold() in name for name in names)


def role_matches(fact: Membership, expected: Sequence[Any], text: str) -> bool:
    """Whether a predicted membership is the expected [person, role, organisation]."""
    person, role, organization = expected
    same_post = fact.role.casefold().split()[-1] == role.casefold().split()[-1]
    if organization is None:
        same_org = fact.organization is None
    else:
        same_org = _has(_names(fact.organization, text), organization)
    return _has(_names(fact.person, text), person) and same_post and same_org


def event_matches(fact: Event, expected: dict[str, Any], text: str) -> bool:
    """Whether a predicted event is the expected {type, args, date}."""
    parties = (*fact.agents, *fact.patients, *fact.places)
    names = [n for p in parties for n in _names(p, text)]
    wanted_date = expected.get("date")
    got_date = fact.time.value.isoformat() if fact.time and fact.time.value else None
    return (
        fact.kind.value == expected["type"]
        and fact.planned == expected.get("planned", False)
        and all(_has(names, arg) for arg in expected.get("args", []))
        and (wanted_date is None or wanted_date == got_date)
    )


def claim_matches(
    fact: Claim, expected: dict[str, Any], text: str, figures: Sequence[Figure]
) -> bool:
    """Whether a predicted claim is the expected {speaker, text, values}."""
    values = {f.value for f in figures if within(fact.content, f.span.begin, f.span.end)}
    return (
        _has(_names(fact.speaker, text), expected["speaker"])
        and expected["text"].casefold() in fact.content.text.casefold()
        and all(float(v) in values for v in expected.get("values", []))
    )


def predictions(extraction: Extraction) -> dict[str, list[Any]]:
    """The extraction's facts by kind."""
    facts = extraction.facts
    return {
        "roles": [f for f in facts if isinstance(f, Membership)],
        "events": [f for f in facts if isinstance(f, Event)],
        "claims": [f for f in facts if isinstance(f, Claim)],
    }


def score_case(case: Case, extraction: Extraction, tallies: dict[str, Tally]) -> None:
    """Add one case's matches to ``tallies``."""
    predicted = predictions(extraction)
    figures = [f for f in extraction.facts if isinstance(f, Figure)]
    text = extraction.document.text
    tests: dict[str, Callable[[Any, Any], bool]] = {
        "roles": lambda fact, want: role_matches(fact, want, text),
        "events": lambda fact, want: event_matches(fact, want, text),
        "claims": lambda fact, want: claim_matches(fact, want, text, figures),
    }
    for kind in KINDS:
        tally, remaining = tallies[kind], list(predicted[kind])
        tally.predicted += len(remaining)
        tally.expected += len(case.expected[kind])
        for want in case.expected[kind]:
            hit = next((p for p in remaining if tests[kind](p, want)), None)
            if hit is None:
                tally.misses.append(f"{case.id}: missed {want}")
            else:
                remaining.remove(hit)
                tally.matched += 1
        tally.misses += [f"{case.id}: extra {_describe(p)}" for p in remaining]


def _describe(fact: Any) -> str:
    if isinstance(fact, Membership):
        org = fact.organization.text if fact.organization else None
        return f"role {fact.person.text} / {fact.role} / {org}"
    if isinstance(fact, Event):
        return f"event {fact.kind.value} {fact.trigger.text!r}"
    return f"claim {fact.speaker.text}: {fact.content.text!r}"


def score(nlp: Any, cases: Sequence[Case] | None = None,
          verified: bool = False) -> dict[str, Tally]:
    """Run the extractor over the cases and tally precision and recall per kind; with
    ``verified``, of the facts a build writes: resolved across the cases as one corpus and
    kept by the verifier's thresholds (``kg.verify``)."""
    from kg.extract import extract_documents
    from kg.resolve import with_corpus_names
    from kg.resolve.resolver import resolve_entities
    from kg.verify import verified as kept_by_verifier

    cases = list(cases if cases is not None else load_cases())
    documents = [
        document_from_text(c.text, doc_id=c.id, meta=ArticleMeta(date_published=c.published))
        for c in cases
    ]
    extractions = list(extract_documents(nlp, documents))
    if verified:
        named = with_corpus_names(extractions)
        extractions = kept_by_verifier(named, resolve_entities(named))
    tallies = {kind: Tally() for kind in KINDS}
    for case, extraction in zip(cases, extractions, strict=True):
        score_case(case, extraction, tallies)
    return tallies


def report(tallies: dict[str, Tally]) -> str:
    """The table of precision and recall per kind of fact."""
    lines = [f"{'kind':<8}{'expected':>9}{'predicted':>10}{'matched':>9}{'P':>7}{'R':>7}"]
    for kind, t in tallies.items():
        lines.append(f"{kind:<8}{t.expected:>9}{t.predicted:>10}{t.matched:>9}"
                     f"{t.precision:>7.2f}{t.recall:>7.2f}")
    return "\n".join(lines)


def main() -> None:
    """Print each split's table and its misses."""
    from kg.extract import load_pipeline

    nlp = load_pipeline()
    for split, path in SPLITS.items():
        tallies = score(nlp, load_cases(path))
        print(f"{split} ({path.name})\n{report(tallies)}")
        for kind, tally in tallies.items():
            for miss in tally.misses:
                print(f"  {kind}: {miss}")
        print(f"{split}, as a build writes them (the verifier's thresholds)\n"
              f"{report(score(nlp, load_cases(path), verified=True))}")


if __name__ == "__main__":
    main()
