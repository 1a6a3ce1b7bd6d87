"""The ECB+ instrument's loss report (bench/ecb_eval.py): where a gold name is lost or found."""

from __future__ import annotations

from typing import Any

from bench import ecb_eval
from bench.ecb_eval import STAGES, GoldMention, KgRun, fate, losses


def gold(doc: str, text: str, name: str, start: int = 0) -> GoldMention:
    begin = text.index(name, start)
    return GoldMention(doc, "1", begin, begin + len(name), name, "c1", "HUMAN_PART_PER")


def test_a_name_takes_the_fate_of_the_first_stage_without_it() -> None:
    text = "Sarah Palin spoke ."
    spans = {"a": [(0, 11, "Sarah Palin")]}
    stages = {stage: spans if i < 3 else {} for i, stage in enumerate(STAGES)}
    [(_g, found, texts)] = losses([gold("a", text, "Sarah Palin")], KgRun({}, stages))
    assert found == "lost:lines"
    assert texts == ["Sarah Palin"] * 3 + [""] * 3


def test_fates() -> None:
    assert fate([True] * len(STAGES)) == "kept"
    assert fate([False] * len(STAGES)) == "missed"
    assert fate([False, False, True, True, True, True]) == "recovered:recovered"
    assert fate([True, False, False, False, False, False]) == "lost:cleaned"


def test_a_real_run_follows_names_through_the_stages(nlp: Any) -> None:
    text = ("Boxer Wladimir Klitschko defended his title on Saturday .\n"
            "Klitschko 's trainer said the win was his best .")
    run = ecb_eval.kg_run({"k": text}, nlp)
    rows = losses([gold("k", text, "Wladimir Klitschko"), gold("k", text, "Klitschko", 30)],
                  run)
    assert [f for _g, f, _t in rows] == ["kept", "kept"], rows
    assert rows[0][2][:5] == ["PERSON", *["Wladimir Klitschko"] * 4]
    assert rows[0][2][5] == rows[1][2][5] != "", rows  # one entity for both
    assert run.found["k"] == run.stages["resolved"]["k"]
