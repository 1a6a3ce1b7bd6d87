"""The build-level NER instrument (bench/build_ner_eval.py): gold names from token files, and
mentions typed by the entities a whole build gives them."""

from __future__ import annotations

import doctest
from pathlib import Path
from typing import Any

from bench import build_ner_eval
from bench.build_ner_eval import Scores, document_text, entity_type, score_set
from kg.extract.ner.corpus import CONLL_LABELS, Sentence
from kg.model import Entity, EntityKind


def test_gold_names_are_read_with_character_offsets() -> None:
    text, gold = document_text([
        Sentence(("Angela", "Merkel", "met", "Siemens", "staff"),
                 ("B-PER", "I-PER", "O", "B-ORG", "O")),
        Sentence(("In", "Berlin", "."), ("O", "B-LOC", "O")),
    ])
    assert text == "Angela Merkel met Siemens staff\nIn Berlin ."
    assert sorted(gold) == [(0, 13, "PER"), (18, 25, "ORG"), (35, 41, "LOC")]
    assert doctest.testmod(build_ner_eval).failed == 0


def test_works_products_and_events_count_as_no_name() -> None:
    assert entity_type(Entity("o/x", EntityKind.ORGANIZATION, "X", fine_type="SportsTeam")) \
        == "ORG"
    assert entity_type(Entity("o/x", EntityKind.ORGANIZATION, "X", fine_type="Movie")) is None
    assert entity_type(Entity("p/x", EntityKind.PLACE, "X", fine_type="Weapon")) is None
    assert entity_type(Entity("e/x", EntityKind.EVENT, "X")) is None


def test_scores_count_exact_spans_and_types() -> None:
    scores = Scores()
    scores.add({(0, 5, "PER"), (9, 14, "LOC")}, {(0, 5, "PER"), (9, 14, "ORG")}, "Sarah in Paris")
    assert scores.prf(["PER"]) == (1.0, 1.0, 1.0)
    assert scores.prf(["PER", "ORG", "LOC"]) == (0.5, 0.5, 0.5)
    assert scores.errors["FN", "LOC", "Paris"] == 1


def test_a_set_is_built_and_scored_as_one_corpus(nlp: Any, tmp_path: Path) -> None:
    path = tmp_path / "set.txt"
    path.write_text("-DOCSTART- -X- -X- O\n\nAngela NNP B-NP B-PER\nMerkel NNP I-NP I-PER\n"
                    "visited VBD B-VP O\nParis NNP B-NP B-LOC\n. . O O\n")
    build, tagger = score_set(nlp, path, CONLL_LABELS)
    assert build.prf(["PER", "LOC"]) == (1.0, 1.0, 1.0)
    assert tagger.tp["PER"] == 1
