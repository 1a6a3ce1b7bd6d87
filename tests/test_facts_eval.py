"""The evaluation set: the extractor keeps its precision and recall, and the scorer scores."""

from __future__ import annotations

from typing import Any

import pytest

from kg.model import (
    Claim,
    ClaimKind,
    Country,
    Evidence,
    Figure,
    Membership,
    Party,
    PartyKind,
    Span,
)
from tests.eval.facts.score import (
    HELD_OUT,
    KINDS,
    SPLITS,
    claim_matches,
    load_cases,
    report,
    role_matches,
    score,
)

#: Floors under the figures in docs/facts.md: a change that loses more fails here.
FLOORS = {
    "development": {"roles": (0.95, 0.95), "events": (0.85, 0.75), "claims": (0.9, 0.9)},
    "held-out": {"roles": (0.8, 0.7), "events": (0.75, 0.75), "claims": (0.85, 0.75)},
}


@pytest.fixture(scope="module")
def tallies(nlp: Any) -> dict[str, Any]:
    return {split: score(nlp, load_cases(path)) for split, path in SPLITS.items()}


@pytest.mark.parametrize("split", sorted(SPLITS))
@pytest.mark.parametrize("kind", KINDS)
def test_precision_and_recall_stay_above_their_floors(
    tallies: dict[str, Any], split: str, kind: str
) -> None:
    tally = tallies[split][kind]
    precision, recall = FLOORS[split][kind]
    assert tally.expected > 0
    assert tally.precision >= precision, report(tallies[split])
    assert tally.recall >= recall, report(tallies[split])


def test_the_evaluation_set_is_a_few_dozen_annotated_sentences() -> None:
    cases = load_cases() + load_cases(HELD_OUT)
    assert len(cases) >= 40
    assert len({c.id for c in cases}) == len(cases)
    assert all(any(c.expected[k] for k in KINDS) for c in cases if c.id not in {
        "vw-part-of", "weather", "h-nothing", "h-bbc-shares", "h-bbc-tech-149", "h-bbc-tech-253"})


def _party(text: str, country: Country | None = None) -> Party:
    kind = PartyKind.COUNTRY if country else PartyKind.GROUP
    return Party(kind, text, 0, len(text), None, country)


EVIDENCE = Evidence((0,), "test", 1.0)
RUSSIA = Country("RU", "Russia")


@pytest.mark.parametrize(
    ("expected", "matched"),
    [
        (["Vladimir Putin", "President", "Russia"], True),
        (["Putin", "President", "Russia"], True),
        (["Vladimir Putin", "Prime Minister", "Russia"], False),
        (["Vladimir Putin", "President", None], False),
        (["Vladimir Putin", "President", "Ukraine"], False),
    ],
)
def test_role_matching(expected: list[Any], matched: bool) -> None:
    fact = Membership(_party("Vladimir Putin"), "President", _party("Russian", RUSSIA), EVIDENCE)
    assert role_matches(fact, expected, "") is matched


@pytest.mark.parametrize(
    ("expected", "matched"),
    [
        ({"speaker": "ministry", "text": "771 fighters", "values": [771]}, True),
        ({"speaker": "ministry", "text": "771 fighters", "values": [959]}, False),
        ({"speaker": "Pushilin", "text": "771 fighters"}, False),
        ({"speaker": "ministry", "text": "900 fighters"}, False),
    ],
)
def test_claim_matching(expected: dict[str, Any], matched: bool) -> None:
    text = "771 fighters surrendered"
    claim = Claim(_party("the defence ministry"), "say", ClaimKind.INDIRECT,
                  Span(0, len(text), text), None, EVIDENCE)
    figure = Figure(Span(0, 3, "771"), 771.0, None, "fighter", None, EVIDENCE)
    assert claim_matches(claim, expected, text, [figure]) is matched
