"""The resolution evaluations run in the suite and their figures stay above measured floors.

Measured when the floors were set (docs/resolution.md) — tests/eval/resolution.json: pairwise F1
0.945 (all pairs) and 0.947 (cross-document), B-cubed F1 0.980; tests/eval/bbc_politics.json:
0.972, 0.981, 0.979 at precision 1.0. The floors leave a little room for harmless changes; a
rule that starts over- or under-merging falls through them.
"""

from __future__ import annotations

from typing import Any

import pytest

from kg.resolve.evaluate import (
    BBC_SET,
    DEFAULT_SET,
    PROJECT_ROOT,
    Evaluation,
    bcubed,
    evaluate,
    load_set,
    pairwise,
)

FLOORS = {"pairwise_all": 0.92, "pairwise_cross": 0.92, "bcubed": 0.96}
BBC_FLOORS = {"pairwise_all": 0.94, "pairwise_cross": 0.95, "bcubed": 0.95}


@pytest.fixture(scope="module")
def evaluation(nlp: Any) -> Evaluation:
    return evaluate(DEFAULT_SET, nlp)


@pytest.fixture(scope="module")
def bbc_evaluation(nlp: Any) -> Evaluation:
    if not (PROJECT_ROOT.parent / "shared" / "corpora" / "bbc").is_dir():
        pytest.skip("the BBC corpus is not beside the project (../shared/corpora/bbc)")
    return evaluate(BBC_SET, nlp)


@pytest.mark.parametrize("figure", sorted(FLOORS))
def test_f1_stays_above_floor(evaluation: Evaluation, figure: str) -> None:
    precision, recall, f1 = getattr(evaluation, figure)
    assert f1 >= FLOORS[figure], evaluation.lines()


@pytest.mark.parametrize("figure", sorted(BBC_FLOORS))
def test_bbc_f1_stays_above_floor(bbc_evaluation: Evaluation, figure: str) -> None:
    precision, recall, f1 = getattr(bbc_evaluation, figure)
    assert f1 >= BBC_FLOORS[figure] and precision >= 0.97, bbc_evaluation.lines()


def test_most_gold_names_are_extracted_and_scored(evaluation: Evaluation) -> None:
    _documents, gold = load_set(DEFAULT_SET)
    assert len(evaluation.missed) <= len(gold) // 5
    assert evaluation.scored >= 80


@pytest.mark.parametrize(
    ("scored", "expected_all", "expected_cross"),
    [
        ([("a", "x", "d1"), ("a", "x", "d2")], (1.0, 1.0, 1.0), (1.0, 1.0, 1.0)),
        ([("a", "x", "d1"), ("b", "x", "d2")], (1.0, 0.0, 0.0), (1.0, 0.0, 0.0)),
        ([("a", "x", "d1"), ("a", "y", "d2"), ("a", "y", "d2")],
         (0.333, 1.0, 0.5), (0.0, 1.0, 0.0)),
    ],
)
def test_pairwise(scored: list[tuple[str, str, str]], expected_all: tuple[float, ...],
                  expected_cross: tuple[float, ...]) -> None:
    figures = pairwise(scored)
    assert figures["all"] == expected_all and figures["cross"] == expected_cross


def test_bcubed_of_a_perfect_and_of_a_lumped_answer() -> None:
    perfect = [("a", "x", "d1"), ("b", "y", "d1")]
    lumped = [("a", "x", "d1"), ("a", "y", "d1")]
    assert bcubed(perfect) == (1.0, 1.0, 1.0)
    assert bcubed(lumped) == (0.5, 1.0, 0.667)


def test_script_prints_the_figures(evaluation: Evaluation, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import kg.resolve.evaluate

    monkeypatch.setattr(kg.resolve.evaluate, "evaluate", lambda path: evaluation)
    assert kg.resolve.evaluate.main([]) == 0
    out = capsys.readouterr().out
    assert "pairwise (cross-document)" in out and "B-cubed" in out and "F1" in out
