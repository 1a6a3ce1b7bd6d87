"""The learned event-factuality model (kg.extract.rules.event_factuality, issue 35 item 5): it
ships with its hash, reads from the parse whether a sentence states an event as happened,
keeps out of the graph an event agreed, planned or hoped for and keeps a plain past one, can
be switched off; the triggers judged on factuality alone it learned from
(bench/draw_event_factuality.py) are well formed and of the tune half. Sentences invented."""

from __future__ import annotations

import doctest
import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kg.extract import extract_document
from kg.extract.rules import event_factuality, signals
from kg.extract.rules.event_factuality import (
    FACTUALITY_RULE,
    FactualityModel,
    happened,
    load_factuality_model,
)
from kg.heuristics import firing, switched_off
from kg.ingest.files import document_from_text
from kg.model import Event, EventType

DATED = "---\ndate: 2024-03-13\n---\n"
ROOT = Path(__file__).resolve().parent.parent
JUDGED = ROOT / "tests" / "eval" / "precision" / "event-factuality.jsonl"


@pytest.fixture
def shipped() -> FactualityModel:
    model = load_factuality_model()
    assert model is not None
    return model


def test_the_shipped_model_loads_and_matches_its_hash(shipped: FactualityModel) -> None:
    data = event_factuality.MODEL_FILE.read_bytes()
    assert event_factuality.HASH_FILE.read_text().split()[0] == hashlib.sha256(data).hexdigest()
    assert 0 < shipped.tuned_threshold < 1 and shipped.weights
    assert shipped.threshold in (0.0, shipped.tuned_threshold)  # on at the tuned cut, or off


def test_a_model_round_trips_through_its_json() -> None:
    model = FactualityModel(0.5, {"gov=agree": -1.0}, 0.0, 0.3)
    assert FactualityModel.from_json(json.loads(json.dumps(model.to_json()))) == model


def test_the_module_examples_hold() -> None:
    result = doctest.testmod(event_factuality)
    assert result.attempted > 0 and result.failed == 0


#: Sentences whose event has not happened (agreed, planned, hoped, sought, expected) and
#: sentences that state the same kind of event as done.
NOT_HAPPENED = [
    ("Velmar Holdings has agreed to buy the Riga brewer Baltika for $2bn.", "buy"),
    ("Velmar Holdings plans to buy the Riga brewer Baltika next year.", "buy"),
    ("The unions hope to meet President Kovac in Riga next month.", "meet"),
    ("Velmar Holdings is seeking to buy the Riga brewer Baltika.", "buy"),
]
HAPPENED = [
    ("Velmar Holdings bought the Riga brewer Baltika for $2bn in March.", "bought"),
    ("President Kovac met the union leaders in Riga on Monday.", "met"),
    ("Police arrested Tom Baker in Leeds on Friday.", "arrested"),
    ("Thousands protested in Riga against the new law on Saturday.", "protested"),
]


def _happened(nlp: Any, sentence: str, word: str) -> float:
    token = next(t for t in nlp(sentence) if t.text == word)
    probability = happened(token)
    assert probability is not None
    return probability


@pytest.mark.parametrize(("sentence", "word"), NOT_HAPPENED)
def test_an_event_not_yet_done_reads_as_not_happened(
        nlp: Any, shipped: FactualityModel, sentence: str, word: str) -> None:
    assert _happened(nlp, sentence, word) < shipped.tuned_threshold


@pytest.mark.parametrize(("sentence", "word"), HAPPENED)
def test_a_plain_past_event_reads_as_happened(
        nlp: Any, shipped: FactualityModel, sentence: str, word: str) -> None:
    assert _happened(nlp, sentence, word) > 0.8


def _events(nlp: Any, text: str, kind: EventType) -> list[Event]:
    extraction = extract_document(nlp, document_from_text(DATED + text, doc_id="t"))
    return [f for f in extraction.facts if isinstance(f, Event) and f.kind is kind]


def _cutting(monkeypatch: pytest.MonkeyPatch, shipped: FactualityModel) -> None:
    """The model at its tuned cut, whether it ships on or off."""
    on = replace(shipped, threshold=shipped.tuned_threshold)
    monkeypatch.setattr(event_factuality, "load_factuality_model", lambda: on)


def test_at_its_cut_an_agreed_purchase_is_not_stated_and_a_done_one_is(
        nlp: Any, monkeypatch: pytest.MonkeyPatch, shipped: FactualityModel) -> None:
    _cutting(monkeypatch, shipped)
    agreed, done = NOT_HAPPENED[0][0], HAPPENED[0][0]
    with firing() as log:
        assert _events(nlp, agreed, EventType.ACQUISITION) == []
    assert FACTUALITY_RULE in log
    with firing() as log:
        [event] = _events(nlp, done, EventType.ACQUISITION)
    assert not (event.planned or event.generic) and FACTUALITY_RULE not in log
    with switched_off({FACTUALITY_RULE}):  # the rule alone took the agreed purchase out
        assert _events(nlp, agreed, EventType.ACQUISITION)


def test_a_planned_or_generic_event_is_left_as_it_is(
        nlp: Any, monkeypatch: pytest.MonkeyPatch, shipped: FactualityModel) -> None:
    """An event the cues already write as planned is not asked about: it stays kg:Planned."""
    _cutting(monkeypatch, shipped)
    [event] = _events(nlp, "The unions will hold talks with the minister in Cardiff.",
                      EventType.NEGOTIATION)
    assert event.planned


def test_a_model_shipped_switched_off_is_not_asked(
        nlp: Any, monkeypatch: pytest.MonkeyPatch, shipped: FactualityModel) -> None:
    """The rule does not read the sentence for a model that drops nothing (the verifier's own
    signal, the model's probability in bands, is another reader: stubbed here)."""
    def refuse(*_args: Any) -> Any:
        raise AssertionError("features computed for a model that drops nothing")

    off = replace(shipped, threshold=0.0)
    monkeypatch.setattr(event_factuality, "load_factuality_model", lambda: off)
    monkeypatch.setattr(signals, "happened", lambda *_args: None)
    monkeypatch.setattr(event_factuality, "factuality_features", refuse)
    with firing() as log:
        assert _events(nlp, NOT_HAPPENED[0][0], EventType.ACQUISITION)
    assert FACTUALITY_RULE not in log


def test_the_triggers_judged_on_factuality_are_well_formed_and_of_the_tune_half() -> None:
    from bench.halves import half

    rows = [json.loads(line) for line in JUDGED.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    assert len(rows) >= 190 and len({r["key"] for r in rows}) == len(rows)
    assert sum(not r["correct"] for r in rows) >= 30
    event_articles = {a for path in sorted((ROOT / "tests" / "eval").glob("precision*/*.jsonl"))
                      for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
                      for row in [json.loads(line)] if row["kind"] == "events"
                      for a in row["article"].split(",")}
    for row in rows:
        assert row["kind"] == "event-factuality" and row["why"], row["key"]
        assert half(row["article"]) == "tune" and row["article"] not in event_articles
        assert row["label"] == ("happened" if row["correct"] else "not-happened")
        sentence, at = row["sentence"], row["in_sentence"]
        assert sentence[at:at + len(row["output"]["trigger"])] == row["output"]["trigger"]


def test_no_trigger_judged_on_factuality_is_of_a_copy_of_a_judged_article() -> None:
    """An exact copy of an article judged rows name (some are in the check half) would put
    the check half's sentences into the training data."""
    from bench.draw_event_factuality import copies_of_named

    copies = copies_of_named()
    rows = [json.loads(line) for line in JUDGED.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    assert copies and not {r["article"] for r in rows} & copies
