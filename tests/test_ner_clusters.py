"""The news NER's word-cluster and gazetteer features (kg/extract/ner/clusters.py)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy
import spacy

from kg.extract.ner.clusters import (
    CLUSTER_FILE,
    cluster_features,
    cluster_table,
    gazetteer_flags,
    word_cluster,
    write_table,
)


def test_the_shipped_table_puts_names_of_a_kind_on_one_path() -> None:
    table = cluster_table()
    assert len(table) > 150_000
    # people share the first steps of their paths, countries others
    assert table["Clinton"] & 0b11111 == table["Sampras"] & 0b11111
    assert table["Germany"] & 0b111111 == table["France"] & 0b111111
    assert table["Germany"] & 0b11111 != table["Clinton"] & 0b11111


def test_a_headline_word_in_capitals_takes_its_title_case_cluster() -> None:
    table = {"Germany": 934, "said": 116}
    assert word_cluster("GERMANY", table) == 934
    assert word_cluster("Said", table) == 116  # lower-case form
    assert word_cluster("Qwxzt", table) == 0


def test_gazetteer_flags_come_from_kgs_word_lists() -> None:
    flags = gazetteer_flags()
    assert flags["john"] & 1 and flags["paris"] & 2 and flags["york"] & 4
    assert flags["german"] & 8 and flags["bank"] & 16 and flags["minister"] & 32
    assert "the" not in flags  # a stop word of a longer place name ("The Hague") is no flag


def test_features_hold_the_attributes_then_one_column_per_prefix() -> None:
    nlp = spacy.blank("en")
    doc = nlp.make_doc("Clinton visited Germany")
    model = cluster_features(["ORTH"], [4, 6], gazetteer=True)
    [columns] = model.predict([doc])
    assert columns.shape == (3, 4)
    table = cluster_table()
    assert int(columns[0, 1]) == (table["Clinton"] & 0b1111) + (1 << 32)
    assert int(columns[2, 2]) == (table["Germany"] & 0b111111) + (2 << 32)
    assert int(columns[2, 3]) == gazetteer_flags()["germany"]
    assert columns.dtype == numpy.uint64


def test_the_table_is_written_the_same_way_every_time(tmp_path: Path) -> None:
    source = tmp_path / "en_lexeme_cluster.json.gz"
    with gzip.open(source, "wt", encoding="utf-8") as out:
        json.dump({"b": 3, "a": 5, "none": 0, " pad": 4, "tab\tbed": 2}, out)
    first, second = tmp_path / "1.tsv.gz", tmp_path / "2.tsv.gz"
    assert write_table(source, first) == 2
    write_table(source, second)
    assert first.read_bytes() == second.read_bytes()
    assert gzip.decompress(first.read_bytes()).decode() == "a\t5\nb\t3\n"
    assert CLUSTER_FILE.name == "clusters.tsv.gz" and CLUSTER_FILE.parent.name == "model"
