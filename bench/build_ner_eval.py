"""Names as a whole kg build gives them: CoNLL-style sets through extraction and resolution.

    .venv/bin/python bench/build_ner_eval.py [--data ../shared/data] [--model DIR]
                                             [--sets conll,wikigold,btc] [--errors N]

``bench/ner_eval.py`` scores the tagger's entities (``doc.ents``); what a user gets is the
graph, where every mention is typed by the entity resolution gives it and the build's rules
have dropped, cut or recovered names (headline and table lines, nicknames, an article's own
repeats, class votes across the corpus). This instrument scores that: each document of a set
(its tokens joined by spaces, its sentences by newlines, ``-DOCSTART-`` documents) is built
with every other document of the set as one corpus, as ``kg build`` builds a folder; a
mention counts as PER, ORG or LOC by its entity's class (schema:Person, schema:Organization and
its subclasses, schema:Place; works, products and events count as none), and is right when
its character span and class are the gold name's exactly. The tagger's own figures from the
same run are printed beside it (``doc.ents``, the small model's labels mapped), so the two
can be told apart. ``--errors N`` lists the N most frequent false positives and negatives.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.ecb_eval import kg_run  # noqa: E402
from bench.ner_eval import news_pipeline  # noqa: E402
from kg.extract.ner.corpus import (  # noqa: E402
    CONLL_LABELS,
    TRAINING_SETS,
    Sentence,
    read_documents,
)
from kg.model import (  # noqa: E402
    OWN_CLASSES,
    WORK_CLASSES,
    EntityKind,  # noqa: E402
)

TYPES = ("PER", "ORG", "LOC")
#: The sets scored, by the name ``--sets`` gives them: (path below the data folder, labels).
SETS = {
    "conll": ("conll2003/dev.txt", CONLL_LABELS),
    "wikigold": ("ner-open/wikigold/wikigold.conll", TRAINING_SETS["wikigold"].labels),
    "btc": ("ner-open/btc/g.conll", TRAINING_SETS["btc-g"].labels),
}
KIND_TYPES = {EntityKind.PERSON: "PER", EntityKind.ORGANIZATION: "ORG", EntityKind.PLACE: "LOC"}
NER_TYPES = {"PERSON": "PER", "PER": "PER", "ORG": "ORG", "GPE": "LOC", "LOC": "LOC",
             "FAC": "LOC"}
Span = tuple[int, int, str]  # (begin, end, PER|ORG|LOC), character offsets in a document


def document_text(sentences: Sequence[Sentence]) -> tuple[str, set[Span]]:
    """A document's text (tokens joined by spaces, sentences by newlines) and its gold names.

    >>> text, gold = document_text([Sentence(("Kim", "Jong", "left", "Seoul"),
    ...                                      ("B-PER", "I-PER", "O", "B-LOC"))])
    >>> text, sorted(gold)
    ('Kim Jong left Seoul', [(0, 8, 'PER'), (14, 19, 'LOC')])
    """
    lines, names, offset = [], set(), 0
    for sentence in sentences:
        current: list[Any] | None = None
        for word, tag in zip(sentence.words, sentence.tags, strict=True):
            if tag.startswith("B-") or (tag.startswith("I-") and (
                    current is None or current[2] != tag[2:])):
                if current is not None:
                    names.add(tuple(current))
                current = [offset, offset + len(word), tag[2:]]
            elif tag.startswith("I-") and current is not None:
                current[1] = offset + len(word)
            elif current is not None:
                names.add(tuple(current))
                current = None
            offset += len(word) + 1
        if current is not None:
            names.add(tuple(current))
        lines.append(" ".join(sentence.words))
    return "\n".join(lines), {n for n in names if n[2] in TYPES}  # type: ignore[misc]


def entity_type(entity: Any) -> str | None:
    """PER, ORG or LOC for an entity of the graph; ``None`` for a work, product or event."""
    if entity.fine_type in OWN_CLASSES or entity.fine_type in WORK_CLASSES:
        return None
    return KIND_TYPES.get(entity.kind)


@dataclass
class Scores:
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)
    errors: Counter[tuple[str, str, str]] = field(default_factory=Counter)

    def add(self, gold: set[Span], found: set[Span], text: str) -> None:
        for _b, _e, kind in gold & found:
            self.tp[kind] += 1
        for b, e, kind in found - gold:
            self.fp[kind] += 1
            self.errors["FP", kind, text[b:e]] += 1
        for b, e, kind in gold - found:
            self.fn[kind] += 1
            self.errors["FN", kind, text[b:e]] += 1

    def prf(self, kinds: Sequence[str]) -> tuple[float, float, float]:
        tp, fp, fn = (sum(c[k] for k in kinds) for c in (self.tp, self.fp, self.fn))
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        return p, r, 2 * p * r / (p + r) if p + r else 0.0


def score_set(nlp: Any, path: Path, labels: Any) -> tuple[Scores, Scores]:
    """(build, tagger) scores of one set, built as one corpus."""
    documents = read_documents(path, labels)
    texts, golds = {}, {}
    for i, sentences in enumerate(documents):
        key = f"d{i:04d}"
        texts[key], golds[key] = document_text(sentences)
    run = kg_run(texts, nlp)
    build, tagger = Scores(), Scores()
    for key, text in texts.items():
        found = set()
        for begin, end, entity_key in run.found.get(key, ()):
            kind = entity_type(run.entities[entity_key])
            if kind is not None:
                found.add((begin, end, kind))
        build.add(golds[key], found, text)
        tagged = {(b, e, NER_TYPES[label]) for b, e, label in run.stages["ner"].get(key, ())
                  if label in NER_TYPES}
        tagger.add(golds[key], tagged, text)
    return build, tagger


def table(name: str, build: Scores, tagger: Scores) -> list[str]:
    lines = [f"### {name}", "", "| | type | P | R | F1 |", "|---|---|---|---|---|"]
    for system, scores in (("kg build", build), ("tagger (doc.ents)", tagger)):
        for kinds in ([k] for k in TYPES):
            lines.append(f"| {system} | {kinds[0]} | " + " | ".join(
                f"{v:.3f}" for v in scores.prf(kinds)) + " |")
        lines.append(f"| {system} | **PER+ORG+LOC** | " + " | ".join(
            f"**{v:.3f}**" for v in scores.prf(TYPES)) + " |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    from kg.extract.ner.component import MODEL_DIR

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--model", type=Path, default=MODEL_DIR)
    parser.add_argument("--sets", default="conll", help=f"comma-separated, of: {', '.join(SETS)}")
    parser.add_argument("--errors", type=int, default=0, metavar="N")
    args = parser.parse_args(argv)
    names = [s for s in args.sets.split(",") if s]
    if unknown := [s for s in names if s not in SETS]:
        print(f"build_ner_eval: unknown sets {unknown}", file=sys.stderr)
        return 2
    nlp = news_pipeline(args.model)
    for name in names:
        path, labels = SETS[name]
        if not (args.data / path).is_file():
            print(f"build_ner_eval: {args.data / path} not found", file=sys.stderr)
            return 2
        build, tagger = score_set(nlp, args.data / path, labels)
        print("\n".join(table(f"{name} ({path}), exact span and type", build, tagger)), "\n")
        for (kind, label, text), count in build.errors.most_common(args.errors):
            print(f"{count:4} {kind} {label} {text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
