"""The ablation's verdicts and report (bench/ablate.py) and the verifier's threshold and card
(bench/train_verifier.py): the pure parts, without a build."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.ablate import Contribution, judged_rows, same_rows, summary
from bench.halves import half, split, unit
from bench.train_verifier import card, choose_threshold, gated, reliability_svg


@pytest.mark.parametrize(("deltas", "broken", "verdict"), [
    ({"conll": {"F1": -0.001}}, (), "pays"),  # off, the set loses
    ({"conll": {"F1": 0.001}}, (), "harms"),  # off, the set gains
    ({"conll": {"F1": -0.001}, "ecb": {"B3": 0.002}}, (), "mixed"),
    ({"conll": {"F1": 0.0}}, (), "idle"),
    ({"judged": {"right kept": -2.0, "wrong kept": -2.0}}, (), "idle"),  # as many of each
    ({"judged": {"right kept": -1.0, "wrong kept": -3.0}}, (), "harms"),  # keeps more wrong
    ({"facts": {"roles matched": -1.0}}, (), "pays"),
    ({}, ("conll",), "relied on"),
])
def test_a_heuristic_pays_when_switching_it_off_only_loses(
        deltas: dict, broken: tuple, verdict: str) -> None:
    assert Contribution("x", "ner.drop", {}, deltas, broken).verdict() == verdict


def test_the_summary_counts_verdicts_by_stage_and_lists_what_harms(tmp_path: Path) -> None:
    saved = tmp_path / "ablation.json"
    saved.write_text(json.dumps({"half": "check", "base": {}, "contributions": [
        {"id": "a.one", "stage": "ner.drop", "fired": {}, "deltas": {}, "broken": [],
         "verdict": "idle"},
        {"id": "a.two", "stage": "ner.drop", "fired": {"conll": 3},
         "deltas": {"conll": {"F1": 0.002}}, "broken": [], "verdict": "harms"}]}))
    lines = summary(saved)
    assert "| ner.drop | 0 | 0 | 1 | 1 | 0 |" in lines
    assert "| `a.two` | harms | conll: F1 +0.002 |" in lines


def test_halves_are_stable_and_cover_every_unit() -> None:
    units = [f"bbc-sport-{i:03d}" for i in range(200)]
    halves = split(units, str)
    assert sorted(halves["tune"] + halves["check"]) == sorted(units)
    assert 60 < len(halves["tune"]) < 140  # a hash, not a sort: both halves well filled
    assert all(half(u) == "tune" for u in halves["tune"])


@pytest.mark.parametrize(("probabilities", "labels", "threshold"), [
    # the lowest cut that keeps 15 rows or more, right at 0.85 or more
    ([0.2] * 10 + [0.9] * 20, [False] * 10 + [True] * 18 + [False] * 2, 0.9),
    ([0.5] * 20 + [0.9] * 20, [True] * 18 + [False] * 2 + [True] * 20, 0.5),
    # no cut reaches it: the most precise one that keeps enough rows
    ([0.3] * 20 + [0.6] * 20, [False] * 20 + [True] * 10 + [False] * 10, 0.6),
])
def test_the_threshold_is_the_lowest_that_reaches_the_target(
        probabilities: list[float], labels: list[bool], threshold: float) -> None:
    assert choose_threshold(probabilities, labels, 0.85) == threshold


def test_the_card_and_its_plot_show_every_kind() -> None:
    figures = {"rows": 10, "right": 8, "base precision": 0.8, "precision": 0.9, "recall": 0.75,
               "kept": 6, "ece": 0.05, "reliability": {"0.8-0.9": (10, 0.85, 0.8)},
               "curve": [(0.5, 0.9, 0.75, 6)]}
    report = {kind: {"check": figures, "check bbc": figures, "check ecb": figures,
                     "check conll": figures,
                     "threshold": 0.7, "shipped threshold": 0.7 if kind != "events" else 0.0}
              for kind in ("people-roles", "claims", "events")}
    page = card(report, Counter({("claims", "bbc", "tune"): 12}), 0.85)
    assert "| claims | bbc | 12 | 0 |" in page and "| claims | conll | 0 | 0 |" in page
    assert "| claims | 0.700 | yes | 80.0% | 90.0% | 75.0% | 6/10 |" in page
    assert "| events | 0.700 | no: every fact kept | 80.0% |" in page
    plot = reliability_svg(report)
    assert plot.startswith("<svg") and plot.count("<circle") == 3


@pytest.mark.parametrize(("kept_precision", "recall", "shipped"), [
    (0.61, 0.9, 0.0), (0.80, 0.8, 0.55), (0.9, 0.85, 0.55),
    (0.89, 0.46, 0.0),  # precise, but half the right facts gone: no cut by default
])
def test_a_threshold_ships_only_where_the_check_half_bears_it_out(
        kept_precision: float, recall: float, shipped: float) -> None:
    from kg.verify.model import KindModel

    model = KindModel(0.0, {}, [(-1e9, 0.5)], 0.55)
    check = {"precision": kept_precision, "recall": recall}
    assert gated(model, check, 0.85).threshold == shipped


def test_a_row_whose_sentence_moved_keeps_its_judgement() -> None:
    """A rule before the parser moves a sentence's bounds (a dateline no longer opens it): a
    row with a judged row's output in the same article is that row; a new output is new, and
    an output two judged rows share keeps its own key."""
    judged = {"claims|a|s1|o1": {}, "claims|a|s2|o2": {}, "claims|a|s3|o2": {}}
    produced = {"claims|a|s9|o1", "claims|a|s9|o2", "claims|b|s9|o1", "claims|a|s9|o3"}
    assert same_rows(produced, judged) == {"claims|a|s1|o1", "claims|a|s9|o2", "claims|b|s9|o1",
                                           "claims|a|s9|o3"}


def test_conll_judged_rows_are_halved_by_document() -> None:
    assert unit("conll-train-17") == "conll-train:17" and unit("bbc-tech-007") == "bbc-tech-007"
    assert unit("3_1ecb") == "ecb:3"
    rows = judged_rows("check", "first-look-6")
    assert rows and all(r["sample"] == "first-look-6" for r in rows.values())
    assert all(half(unit(r["article"])) == "check" for r in rows.values())
