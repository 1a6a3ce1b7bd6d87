"""The rule registry: every rule declared once, fires on its own example, and docs/rules.md is
generated from it (docs/contributing.md#adding-a-rule)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.extract import extract_document
from kg.extract.rules import all_rules
from kg.extract.rules.registry import Rule, rule, rules_markdown
from kg.ingest.files import document_from_text

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
RULES = all_rules()


def test_every_kind_of_fact_has_rules() -> None:
    assert len(RULES) >= 18 and len({r.id for r in RULES}) == len(RULES)
    assert {r.produces for r in RULES} == {"Membership", "Relation", "Figure", "Event", "Claim"}
    assert all(0 < r.confidence <= 1 and r.description and r.example for r in RULES)


def test_a_rule_is_declared_once() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        rule(RULES[0].id, "Event", 0.5, "again", "again")


@pytest.mark.parametrize("declared", RULES, ids=[r.id for r in RULES])
def test_each_rule_fires_on_its_example(nlp: Any, declared: Rule) -> None:
    extraction = extract_document(nlp, document_from_text(declared.example, doc_id="example"))
    fired = {fact.evidence.rule for fact in extraction.facts}
    assert declared.id in fired, f"{declared.example!r} gave only {sorted(fired)}"


def test_docs_rules_md_is_generated_from_the_registry() -> None:
    assert DOCS.read_text(encoding="utf-8") == rules_markdown(RULES), (
        "docs/rules.md is stale: run `kg rules --markdown > docs/rules.md`"
    )


def test_kg_rules_prints_the_table() -> None:
    result = CliRunner().invoke(app, ["rules"], env={"COLUMNS": "250"})
    assert result.exit_code == 0
    for declared in RULES:
        assert declared.id in result.output
    markdown = CliRunner().invoke(app, ["rules", "--markdown"])
    assert markdown.output == rules_markdown(RULES)
