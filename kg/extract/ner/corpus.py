"""Readers of the NER training sets: token-per-line files into spaCy training examples.

Every set is read the same way: one token per line, the token in the first column and its tag
in the last, blank lines between sentences and ``-DOCSTART-`` lines between documents (sets
without them, as tweets, make one document per sentence). Tags come as IOB1 (CoNLL-2003: an
``I-`` may start an entity), IO (wikigold) or BIO; :func:`bio_tags` turns all three into BIO
and maps each set's types onto the news NER's four labels.

>>> bio_tags(["I-PER", "I-PER", "O", "I-LOC", "B-LOC"], CONLL_LABELS)
('B-PER', 'I-PER', 'O', 'B-LOC', 'B-LOC')
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

#: The news NER's labels.
LABELS = ("PER", "ORG", "LOC", "MISC")

CONLL_LABELS: Mapping[str, str] = {label: label for label in LABELS}
CROSSNER_LABELS: Mapping[str, str] = {
    "person": "PER",
    "politician": "PER",
    "organisation": "ORG",
    "politicalparty": "ORG",
    "location": "LOC",
    "country": "LOC",
    "election": "MISC",
    "event": "MISC",
    "misc": "MISC",
}
WNUT_LABELS: Mapping[str, str] = {
    "person": "PER",
    "location": "LOC",
    "group": "ORG",
    "corporation": "ORG",
    "product": "MISC",
    "creative-work": "MISC",
}


@dataclass(frozen=True, slots=True)
class TrainingSet:
    """One token-per-line file set below the data folder, and how its types map to ours."""

    name: str
    train: tuple[str, ...]
    dev: tuple[str, ...]
    labels: Mapping[str, str]


#: The sets the training script knows, by name. Only CoNLL-2003 has a dev part used for
#: choosing the model; the others are training material only (their test files are never read).
TRAINING_SETS = {
    s.name: s
    for s in (
        TrainingSet("conll2003", ("conll2003/train.txt",), ("conll2003/dev.txt",), CONLL_LABELS),
        TrainingSet("wikigold", ("ner-open/wikigold/wikigold.conll",), (), CONLL_LABELS),
        TrainingSet("btc-g", ("ner-open/btc/g.conll",), (), CONLL_LABELS),
        TrainingSet(
            "crossner-politics",
            ("ner-open/crossner-politics/train.txt", "ner-open/crossner-politics/dev.txt"),
            (),
            CROSSNER_LABELS,
        ),
        TrainingSet("wnut17", ("ner-open/wnut17/train.conll",), (), WNUT_LABELS),
    )
}


@dataclass(frozen=True, slots=True)
class Sentence:
    """Words of one sentence and their BIO tags."""

    words: tuple[str, ...]
    tags: tuple[str, ...]


def bio_tags(tags: Iterable[str], labels: Mapping[str, str]) -> tuple[str, ...]:
    """BIO tags from IOB1, IO or BIO ones, with types mapped by ``labels`` (unmapped → O).

    >>> bio_tags(["B-politician", "I-politician", "B-election"], CROSSNER_LABELS)
    ('B-PER', 'I-PER', 'B-MISC')
    """
    out: list[str] = []
    previous = "O"
    for tag in tags:
        prefix, _, raw = tag.partition("-")
        label = labels.get(raw) if raw else None
        if label is None:
            out.append("O")
            previous = "O"
            continue
        begins = prefix == "B" or previous != label
        out.append(("B-" if begins else "I-") + label)
        previous = label
    return tuple(out)


def read_documents(path: Path, labels: Mapping[str, str]) -> list[list[Sentence]]:
    """Documents of a token-per-line file, each a list of sentences with BIO tags.

    >>> import tempfile
    >>> f = Path(tempfile.mkdtemp()) / "t.txt"
    >>> text = "-DOCSTART- O\\n\\nEU I-ORG\\nrejects O\\n\\n-DOCSTART- O\\n\\nBonn I-LOC\\n"
    >>> _ = f.write_text(text)
    >>> [[s.tags for s in d] for d in read_documents(f, CONLL_LABELS)]
    [[('B-ORG', 'O')], [('B-LOC',)]]
    """
    documents: list[list[Sentence]] = []
    current: list[Sentence] = []
    rows: list[tuple[str, str]] = []
    has_docstart = False

    def end_sentence() -> None:
        if rows:
            words, tags = zip(*rows, strict=True)
            current.append(Sentence(tuple(words), bio_tags(tags, labels)))
            rows.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        columns = line.split()
        if columns and columns[0] == "-DOCSTART-":
            end_sentence()
            has_docstart = True
            if current:
                documents.append(current)
            current = []
        elif not columns:
            end_sentence()
            if current and not has_docstart:
                documents.append(current)
                current = []
        elif len(columns) >= 2:
            rows.append((columns[0], columns[-1]))
    end_sentence()
    if current:
        documents.append(current)
    return documents


def sha256_of(path: Path) -> str:
    """The sha256 of a file's bytes, as hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def limited(documents: list[list[Sentence]], max_sentences: int) -> list[list[Sentence]]:
    """The first documents holding ``max_sentences`` sentences in all (the last one cut)."""
    out: list[list[Sentence]] = []
    left = max_sentences
    for document in documents:
        if left <= 0:
            break
        out.append(document[:left])
        left -= len(out[-1])
    return out


def doc_of(vocab: Vocab, document: list[Sentence]) -> Doc:
    """A spaCy ``Doc`` of one document, with sentence starts and the gold entities."""
    from spacy.tokens import Doc

    words = [w for s in document for w in s.words]
    tags = [t for s in document for t in s.tags]
    starts: list[bool | int | None] = [i == 0 for s in document for i in range(len(s.words))]
    return Doc(vocab, words=words, sent_starts=starts, ents=tags)


def iter_files(data: Path, names: Iterable[str], split: str) -> Iterator[tuple[Path, TrainingSet]]:
    """(file, set) pairs of the named sets' ``split`` part ("train" or "dev") below ``data``."""
    for name in names:
        training_set = TRAINING_SETS[name]
        for relative in getattr(training_set, split):
            yield data / relative, training_set
