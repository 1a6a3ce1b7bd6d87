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

from collections.abc import Iterable, Iterator
from typing import TypeVar

from kg.heuristics import STAGES, Heuristic, all_heuristics, declare, fired, is_on
from kg.model import Fact

__all__ = ["FACT_STAGES", "Rule", "kept", "registered_rules", "rule", "rules_markdown"]

F = TypeVar("F", bound=Fact)

#: A fact rule is a heuristic whose stage is its kind of fact.
Rule = Heuristic

#: The stage of each kind of fact, in the order ``facts_of`` runs them.
FACT_STAGES = {"Membership": "facts.role", "Relation": "facts.relation",
               "Figure": "facts.figure", "Event": "facts.event", "Claim": "facts.claim"}

#: How a fact rule's confidence is reckoned, for ``kg rules``.
FACT_MODEL = "prior, lowered per missing part; the verifier's calibrated score replaces it"


def rule(
    id: str, produces: str, confidence: float, description: str, example: str,
    *, register: bool = True,
) -> Rule:
    """Declare a fact rule (once: a second declaration of an id is an error).

    >>> rule("x.y", "Event", 1.5, "d", "e", register=False)
    Traceback (most recent call last):
    ...
    ValueError: heuristic x.y: confidence 1.5 is not between 0 and 1
    """
    return declare(id, FACT_STAGES[produces], reads=description, writes=produces,
                   description=description, example=example, confidence=confidence,
                   model=FACT_MODEL, register=register)


def kept(facts: Iterable[F]) -> Iterator[F]:
    """The facts whose rule is on (each recorded as that rule's fire), as they come: a rule
    that reads what was found before it sees each fact it yields at once."""
    for fact in facts:
        if is_on(fact.evidence.rule):
            fired(fact.evidence.rule)
            yield fact


def registered_rules() -> tuple[Rule, ...]:
    """Every declared fact rule, by what it produces and then by id (``kg.extract.rules``
    imports every rule module, so importing it completes the registry)."""
    order = list(FACT_STAGES)
    return tuple(sorted((h for h in all_heuristics() if h.stage.startswith("facts.")
                         and h.writes in FACT_STAGES),
                        key=lambda r: (order.index(r.produces), r.id)))


def rules_markdown(rules: tuple[Heuristic, ...]) -> str:
    """The heuristics as the Markdown page ``docs/rules.md``, by stage in the order a build
    runs them.

    >>> page = rules_markdown((Rule("a.b", "facts.event", "x", "Event", "One | two.", "X.", 0.5),))
    >>> page.splitlines()[-1]
    '| `a.b` | x | Event | 0.5 | One \\\\| two. | X. |'
    """
    lines = [
        "# Rules",
        "",
        "<!-- Generated: kg rules --markdown > docs/rules.md (tests/test_rules.py checks). -->",
        "",
        "Every heuristic kg applies, as declared in its registry (`kg/heuristics.py`), by stage",
        "in the order a build runs them and, within a stage, in the order the stage runs them.",
        "Any of them can be switched off for a build (`kg build --rules -ID`, patterns such as",
        "`-resolve.corpus.*` allowed) and each is measured on the check halves of the dev sets by",
        "`make ablate` ([Facts](facts.md#measuring-a-rule)). A fact rule's id is what the graph",
        "records as `kg:extractedBy`; its confidence is that of a fact found with all its parts",
        "(a rule lowers it when a part is missing or guessed), before the verifier calibrates",
        "it. Each example is built by the tests (extracted, resolved, written), which check",
        "that the heuristic fires on it; a line `|||` separates the articles of an example that",
        "needs several. A heuristic that fires in no article of the dev sets' tune halves is",
        "listed there as a candidate for removal. How to add one:",
        "[Contributing](contributing.md#adding-a-rule).",
    ]
    stage = None
    for r in rules:
        if r.stage != stage:
            stage = r.stage
            lines += ["", f"## `{stage}`: {STAGES[stage]}", "",
                      "| id | reads | writes | confidence | what it does | example |",
                      "|---|---|---|---|---|---|"]
        confidence = f"{r.confidence:g}" if r.confidence is not None else r.model
        cells = [f"`{r.id}`", r.reads, r.writes, confidence, r.description, r.example]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """``text`` as one cell of a Markdown table: its bars escaped, its line breaks as
    ``<br>`` (an example's lines; a line "|||" between two articles of one).

    >>> _cell("Stoke 4\\n|||\\nBolton 3")
    'Stoke 4<br>\\\\|\\\\|\\\\|<br>Bolton 3'
    """
    return text.replace("|", "\\|").replace("\n", "<br>")
