"""The learned trigger-sense model (kg.extract.rules.trigger_sense, issue 35 item 5): it ships
with its hash and its tuned threshold, reads a trigger word's sense from its sentence, drops
the word in another sense, and can be switched off; the triggers judged on their sense that it
learned from (bench/draw_trigger_senses.py) are well formed and kept apart."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kg.extract import extract_document
from kg.extract.rules import signals, trigger_sense
from kg.extract.rules.event_senses import event_type
from kg.extract.rules.trigger_sense import SENSE_RULE, SenseModel, event_sense, load_sense_model
from kg.heuristics import firing, switched_off
from kg.ingest.files import document_from_text
from kg.model import Event


@pytest.fixture
def cutting() -> SenseModel:
    """The shipped model: it cuts at the threshold chosen on the tune half."""
    shipped = load_sense_model()
    assert shipped is not None and shipped.threshold > 0
    return shipped


def test_the_shipped_model_loads_and_matches_its_hash() -> None:
    model = load_sense_model()
    assert model is not None and model.dims > 0
    assert 0 < model.threshold == model.tuned_threshold < 1  # shipped on, at the tuned cut
    data = trigger_sense.MODEL_FILE.read_bytes()
    assert trigger_sense.HASH_FILE.read_text().split()[0] == hashlib.sha256(data).hexdigest()
    assert model.centroids and len(next(iter(next(iter(model.centroids.values())).values()))) \
        == model.dims


def test_a_model_round_trips_through_its_json() -> None:
    model = SenseModel(0.5, {"lemma=strike": -1.0}, 0.0, 2, {"Attack": {"patient": [0.6, 0.8]}},
                       0.4)
    assert SenseModel.from_json(json.loads(json.dumps(model.to_json()))) == model


def _sense(nlp: Any, sentence: str, word: str) -> float:
    token = next(t for t in nlp(sentence) if t.text == word)
    kind = event_type(token)
    assert kind is not None
    probability = event_sense(token, kind)
    assert probability is not None
    return probability


#: Pairs of general sentences in which one trigger word is in its event sense and then not.
PAIRS = [
    ("Rebels struck the army base near Goma on Sunday.",
     "The earthquake struck the island of Sumatra on Sunday.", "struck"),
    ("Gunmen struck a police station in Basra on Monday.",
     "A storm struck the coast of Florida on Monday.", "struck"),
    ("Thousands rallied in Kiev against the election result.",
     "The dollar rallied against the euro.", "rallied"),
]


@pytest.mark.parametrize(("event", "other", "word"), PAIRS)
def test_the_sense_of_a_trigger_word_is_read_from_its_sentence(
        nlp: Any, cutting: SenseModel, event: str, other: str, word: str) -> None:
    """The event sense is kept; the other is read as more likely another sense than not (it
    is dropped only below the cut, which is low: a storm that "struck" a coast is kept)."""
    assert _sense(nlp, event, word) >= max(cutting.threshold, 0.5) > _sense(nlp, other, word)


def _events(nlp: Any, text: str) -> list[Event]:
    extraction = extract_document(nlp, document_from_text(text, doc_id="sense"))
    return [f for f in extraction.facts if isinstance(f, Event)]


@pytest.mark.parametrize(("text", "kinds"), [
    (PAIRS[0][1], []),  # an earthquake struck
    ("The dollar rallied against the euro after the figures were published.", []),
    (PAIRS[0][0], ["Attack"]),
    ("Thousands rallied in Kiev against the election result.", ["Protest"]),
])
def test_as_shipped_the_word_in_another_sense_is_dropped(
        nlp: Any, text: str, kinds: list[str]) -> None:
    with firing() as log:
        assert [e.kind.value for e in _events(nlp, text)] == kinds
    assert (SENSE_RULE in log) == (not kinds)


def test_switched_off_the_trigger_is_an_event_again(nlp: Any, cutting: SenseModel) -> None:
    text = PAIRS[0][1]
    with firing() as log:
        assert _events(nlp, text) == []
    assert SENSE_RULE in log
    with switched_off({SENSE_RULE}):
        assert [e.kind.value for e in _events(nlp, text)] == ["Attack"]


def test_docstring_examples() -> None:
    import doctest

    result = doctest.testmod(trigger_sense, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_a_model_shipped_switched_off_is_not_asked(
        nlp: Any, monkeypatch: pytest.MonkeyPatch, cutting: SenseModel) -> None:
    def refuse(*_args: Any) -> Any:
        raise AssertionError("features computed for a model that drops nothing")

    off = replace(cutting, threshold=0.0)  # what ``--ship off`` writes
    monkeypatch.setattr(trigger_sense, "load_sense_model", lambda: off)
    monkeypatch.setattr(SenseModel, "features", refuse)
    # the verifier's own signal, the model's probability in bands, is another reader: stubbed
    monkeypatch.setattr(signals, "event_sense", lambda *_args: None)
    with firing() as log:
        assert [e.kind.value for e in _events(nlp, PAIRS[0][1])] == ["Attack"]
    assert SENSE_RULE not in log


ROOT = Path(__file__).resolve().parent.parent
SENSES = ROOT / "tests" / "eval" / "precision" / "trigger-senses.jsonl"
CONLL_SENSES = ROOT / "tests" / "eval" / "trigger-senses" / "conll-train.jsonl"


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def test_the_bbc_sense_rows_are_of_tune_articles_of_no_first_look() -> None:
    from bench.halves import half

    rows = _rows(SENSES)
    assert len(rows) >= 300 and sum(not r["correct"] for r in rows) >= 80
    pinned = {a for p in sorted((ROOT / "tests/eval/precision/samples").glob("*.txt"))
              for a in p.read_text(encoding="utf-8").split()}
    for row in rows:
        assert row["sense"] in ("yes", "no", "type") and row["why"], row["key"]
        assert row["correct"] == (row["sense"] == "yes") == row["fields"]["type"], row["key"]
        assert half(row["article"]) == "tune", row["key"]
        assert row["article"] not in pinned, row["key"]  # no first look's article
        trigger = row["output"]["trigger"]
        at = row["in_sentence"]
        assert row["sentence"][at : at + len(trigger)] == trigger, row["key"]


def test_the_conll_triggers_carry_no_text_but_the_word() -> None:
    """CoNLL-2003's text may not be shipped: its judged triggers name document, sentence and
    offset, and the training reads the sentence from ../shared/data."""
    rows = _rows(CONLL_SENSES)
    assert len(rows) >= 300
    for row in rows:
        assert set(row) == {"doc", "sent", "in_sentence", "trigger", "lemma", "type", "sense",
                            "correct", "why"}, row
        assert " " not in row["trigger"] and row["correct"] == (row["sense"] == "yes"), row


@pytest.mark.parametrize(("sentence", "word", "object_"), [
    ("The peninsula that Velmar seized in 2014 is still occupied.", "seized", "peninsula"),
    ("Moscow holds the land it has seized along the coast.", "seized", "land"),
    ("Velmar seized the port in 2014.", "seized", "port"),
])
def test_a_relative_clause_takes_the_noun_it_hangs_on_as_its_object(
        nlp: Any, sentence: str, word: str, object_: str) -> None:
    token = next(t for t in nlp(sentence) if t.text == word)
    kind = event_type(token)
    assert kind is not None
    assert trigger_sense.sense_features(token, kind)[f"dobj={object_}"] == 1.0
    assert object_ in trigger_sense.slot_words(token)["patient"]


def test_judgement_lines_become_rows_and_a_bad_line_names_its_place(tmp_path: Path) -> None:
    from bench.draw_trigger_senses import conll_judged

    candidates = tmp_path / "candidates.jsonl"
    candidates.write_text("".join(json.dumps(
        {"id": i, "doc": 1, "sent": i, "in_sentence": 4, "trigger": word, "lemma": word,
         "type": "Attack"}) + "\n" for i, word in enumerate(("struck", "hit"))))
    judged = tmp_path / "judged.tsv"
    judged.write_text("0\tyes\ta raid\n\n1\tno\ta song that hit the charts\n")
    rows = conll_judged(candidates, judged)
    assert [(r["trigger"], r["sense"], r["correct"], r["why"]) for r in rows] == [
        ("struck", "yes", True, "a raid"), ("hit", "no", False, "a song that hit the charts")]
    judged.write_text("0\tyes\ta raid\nx\tmaybe\n")
    with pytest.raises(SystemExit, match=r"judged\.tsv:2: not 'id<TAB>yes\|no\|type<TAB>why'"):
        conll_judged(candidates, judged)
