"""The ECB+ dev precision sample (bench/precision_ecb.py): its rows, sample, halves and scores,
and the judged set in tests/eval/precision-ecb/ (no build: the pure functions only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench import precision, precision_ecb
from bench.halves import half

JUDGED = precision_ecb.JUDGED_DIR


def _row(kind: str, article: str, sentence: str, **output: str) -> dict[str, Any]:
    out = {f: output.get(f, "") for f in precision.FIELDS[kind]}
    return {"key": precision.row_key(kind, article, sentence, out), "kind": kind,
            "article": article, "sentence": sentence, "output": out}


def test_topics_are_read_from_the_records_and_a_bad_line_is_named(tmp_path: Path) -> None:
    dev = tmp_path / "dev.jsonl"
    dev.write_text('{"doc": "1_10ecb", "topic": "1"}\n{"doc": "3_1ecbplus", "topic": 3}\n',
                   encoding="utf-8")
    assert precision_ecb.topics(dev) == {"1_10ecb": "1", "3_1ecbplus": "3"}
    dev.write_text('{"doc": "1_10ecb", "topic": "1"}\n{"doc": "x"}\n', encoding="utf-8")
    with pytest.raises(SystemExit, match=r"dev\.jsonl:2: not an ECB\+ record"):
        precision_ecb.topics(dev)


def test_the_export_is_rewritten_only_when_the_documents_change(tmp_path: Path) -> None:
    path = tmp_path / "out" / "ecbplus-dev.jsonl"
    text = precision_ecb.records({"1_10ecb": "Reid checked in .\nShe left ."})
    assert [json.loads(line) for line in text.splitlines()] == [
        {"id": "1_10ecb", "text": "Reid checked in .\nShe left ."}]
    precision_ecb.write_if_changed(path, text)
    stamp = path.stat().st_mtime_ns
    precision_ecb.write_if_changed(path, text)
    assert path.stat().st_mtime_ns == stamp
    precision_ecb.write_if_changed(path, text + text)
    assert path.read_text(encoding="utf-8") == text + text


def test_rows_take_the_ecb_document_id_and_are_keyed_by_it() -> None:
    ids = precision_ecb.doc_ids(["1_10ecb", "3_1ecbplus"])
    assert ids == {"1-10ecb": "1_10ecb", "3-1ecbplus": "3_1ecbplus"}
    built = _row("people-roles", "1-10ecb", "Rep Jack Ketsoyan said .", person="Jack Ketsoyan")
    [row] = precision_ecb.as_ecb([built], ids)
    assert row["article"] == "1_10ecb"
    assert row["key"] == precision.row_key("people-roles", "1_10ecb", built["sentence"],
                                           built["output"]) != built["key"]


def test_the_sample_is_the_seeded_order_and_keeps_a_rows_place() -> None:
    rows = [_row("events", f"1_{i}ecb", f"Sentence {i} .", trigger="died") for i in range(30)]
    first = precision_ecb.pick(rows, 10)
    assert len(first) == 10
    assert first == precision_ecb.pick(list(reversed(rows)), 10)
    assert precision_ecb.pick(rows[:5] + first, 10) == first  # the others do not move it
    assert first != precision_ecb.pick(rows, 10, seed=precision_ecb.SEED + 1)


def test_scores_count_judged_rows_per_kind_and_per_topic_half() -> None:
    tune = next(t for t in map(str, range(1, 50)) if half(f"ecb:{t}") == "tune")
    check = next(t for t in map(str, range(1, 50)) if half(f"ecb:{t}") == "check")
    topic_of = {f"{tune}_1ecb": tune, f"{tune}_2ecb": tune, f"{check}_1ecb": check}
    rows = [_row("claims", doc, "He said so .", speaker="He") for doc in topic_of]
    judged = {rows[0]["key"]: {"correct": True}, rows[2]["key"]: {"correct": False}}
    found = precision_ecb.scores({"claims": rows}, judged, topic_of)
    assert [(s.sampled, s.judged, s.correct) for s in
            (found["claims", "all"], found["claims", "tune"], found["claims", "check"])] == [
        (3, 2, 1), (2, 1, 1), (1, 1, 0)]
    assert precision_ecb.table(found)[2] == (
        "| claims | 2 (3) | 50.0% (1/2) | 100.0% (1/1) | 0.0% (0/1) |")


def test_unjudged_rows_are_blank_and_marked_with_the_sample() -> None:
    rows = [_row("events", "1_10ecb", "Reid checked in .", trigger="checked")]
    [blank] = precision_ecb.unjudged({"events": rows}, {})["events"]
    assert blank["sample"] == precision_ecb.SAMPLE
    assert blank["correct"] is None and set(blank["fields"]) == set(precision.FIELDS["events"])
    assert precision_ecb.unjudged({"events": rows}, {rows[0]["key"]: {}})["events"] == []


def test_every_judged_row_is_judged_field_by_field_with_a_reason() -> None:
    rows = [json.loads(line) for path in sorted(JUDGED.glob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert {r["kind"] for r in rows} == set(precision_ecb.KINDS)
    for row in rows:
        assert row["sample"] == precision_ecb.SAMPLE
        assert row["key"] == precision.row_key(row["kind"], row["article"], row["sentence"],
                                               row["output"]), row["key"]
        assert set(row["fields"]) == set(precision.FIELDS[row["kind"]]), row["key"]
        assert all(isinstance(v, bool) for v in row["fields"].values()), row["key"]
        assert row["correct"] is all(row["fields"].values()), row["key"]
        assert row["why"].strip(), row["key"]
