"""The rule registry: every extraction rule declared once, with what it produces.

A rule is declared in the module of its kind of fact, next to the function that applies it
(as spaCy's registries do): its id (written into the graph as ``kg:extractedBy``), the kind
of fact it produces, its confidence, a one-line description and an example sentence on which
it fires. ``kg rules`` prints the table and ``docs/rules.md`` is generated from it.

>>> example = rule("example.rule", "Claim", 0.5, "An example.", "X said so.", register=False)
>>> example.id, example.confidence
('example.rule', 0.5)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Rule", "registered_rules", "rule", "rules_markdown"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One extraction rule: its id, what it produces, its confidence, what it reads."""

    id: str
    produces: str  # the kg.model class: Membership, Relation, Figure, Event, Claim
    confidence: float  # of a fact it finds with all its parts; the rule may lower it
    description: str
    example: str  # a sentence on which the rule fires (tests/test_rules.py runs it)


_REGISTRY: dict[str, Rule] = {}


def rule(
    id: str, produces: str, confidence: float, description: str, example: str,
    *, register: bool = True,
) -> Rule:
    """Declare a rule (once: a second declaration of an id is an error).

    >>> rule("x.y", "Event", 1.5, "d", "e", register=False)
    Traceback (most recent call last):
    ...
    ValueError: rule x.y: confidence 1.5 is not between 0 and 1
    """
    if not 0 < confidence <= 1:
        raise ValueError(f"rule {id}: confidence {confidence} is not between 0 and 1")
    declared = Rule(id, produces, confidence, description, example)
    if register:
        if id in _REGISTRY:
            raise ValueError(f"rule {id} is declared twice")
        _REGISTRY[id] = declared
    return declared


def registered_rules() -> tuple[Rule, ...]:
    """Every declared rule, by what it produces and then by id (``kg.extract.rules`` imports
    every rule module, so importing it completes the registry)."""
    return tuple(sorted(_REGISTRY.values(), key=lambda r: (_ORDER.get(r.produces, 9), r.id)))


_ORDER = {"Membership": 0, "Relation": 1, "Figure": 2, "Event": 3, "Claim": 4}


def rules_markdown(rules: tuple[Rule, ...]) -> str:
    """The rules as the Markdown page ``docs/rules.md``.

    >>> print(rules_markdown((Rule("a.b", "Event", 0.5, "One | two.", "X."),)).splitlines()[-1])
    | `a.b` | Event | 0.5 | One \\| two. | X. |
    """
    lines = [
        "# Rules",
        "",
        "<!-- Generated: kg rules --markdown > docs/rules.md (tests/test_rules.py checks). -->",
        "",
        "Every extraction rule of kg, as declared in its registry (`kg/extract/rules/`). The id",
        "is what the graph records as `kg:extractedBy` on each fact; the confidence is that of a",
        "fact found with all its parts (a rule lowers it when a part is missing or guessed, as",
        "[Facts](facts.md) describes). Each example sentence is run through the pipeline by the",
        "tests, which check that its rule fires. How to add a rule:",
        "[Contributing](contributing.md#adding-a-rule).",
        "",
        "| rule | produces | confidence | what it reads | example |",
        "|---|---|---|---|---|",
    ]
    for r in rules:
        cells = [f"`{r.id}`", r.produces, f"{r.confidence:g}", r.description, r.example]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"
