"""Score entity resolution against hand-made clusters: pairwise and B-cubed P/R/F1.

An evaluation set is a JSON file (``tests/eval/resolution.json``)::

    {"documents": {"d01": "text …", "d02": {"path": "../shared/corpora/bbc/…"}, …},
     "clusters": {"boris-johnson": ["d01:Boris Johnson", "d01:Johnson", "d02:Mr Johnson"], …}}

Each gold mention is an article and a name as written there; every mention the pipeline
finds in that article with that name (case and "the" aside) belongs to that gold cluster.
Mentions the pipeline finds that no gold cluster names are not scored, and gold names it does
not find are counted as missed (an extraction miss, not a resolution error). Scores are over
the scored mentions: pairwise precision/recall/F1 over all pairs and over pairs from different
articles only (cross-document resolution), and B-cubed precision/recall/F1.

    python -m kg.resolve.evaluate [tests/eval/resolution.json | tests/eval/bbc_politics.json]

>>> pairwise([("a", "x", "d1"), ("a", "x", "d2"), ("b", "x", "d1")])["all"]
(1.0, 0.333, 0.5)
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kg.extract import extract_documents, load_pipeline
from kg.ingest.files import document_from_text
from kg.resolve.corpus_names import with_corpus_names
from kg.resolve.names import normalise_name
from kg.resolve.resolver import resolve_entities

#: The checkout the evaluation sets belong to: they are development data (tests/eval/), not
#: shipped in the wheel, and some read BBC articles in place from ../shared.
PROJECT_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SET = PROJECT_ROOT / "tests" / "eval" / "resolution.json"
BBC_SET = PROJECT_ROOT / "tests" / "eval" / "bbc_politics.json"

#: A scored mention: (system entity key, gold cluster id, article id).
Scored = tuple[str, str, str]
Figures = tuple[float, float, float]  # precision, recall, F1


@dataclass(frozen=True)
class Evaluation:
    """The figures of one run and how many gold mentions extraction found."""

    pairwise_all: Figures
    pairwise_cross: Figures
    bcubed: Figures
    scored: int
    missed: tuple[str, ...]

    def lines(self) -> list[str]:
        """The figures as the script prints them."""
        row = "{:<28} P {:.3f}  R {:.3f}  F1 {:.3f}"
        return [row.format("pairwise (all pairs)", *self.pairwise_all),
                row.format("pairwise (cross-document)", *self.pairwise_cross),
                row.format("B-cubed", *self.bcubed),
                f"{self.scored} mentions scored; {len(self.missed)} gold names not extracted"]


def _f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def _figures(tp: float, predicted: float, actual: float) -> Figures:
    p = tp / predicted if predicted else 1.0
    r = tp / actual if actual else 1.0
    return round(p, 3), round(r, 3), round(_f1(p, r), 3)


def _pairs(counts: Counter[Any]) -> int:
    return sum(n * (n - 1) // 2 for n in counts.values())


def pairwise(scored: Sequence[Scored]) -> dict[str, Figures]:
    """Pairwise figures over all mention pairs ("all") and cross-article pairs ("cross")."""
    by_sys = Counter(s for s, _g, _d in scored)
    by_gold = Counter(g for _s, g, _d in scored)
    by_both = Counter((s, g) for s, g, _d in scored)
    within = {name: Counter((*key, d) for *key, d in rows) for name, rows in (
        ("sys", [(s, d) for s, _g, d in scored]), ("gold", [(g, d) for _s, g, d in scored]),
        ("both", [(s, g, d) for s, g, d in scored]))}
    tp, sys_pairs, gold_pairs = _pairs(by_both), _pairs(by_sys), _pairs(by_gold)
    cross = _figures(tp - _pairs(within["both"]), sys_pairs - _pairs(within["sys"]),
                     gold_pairs - _pairs(within["gold"]))
    return {"all": _figures(tp, sys_pairs, gold_pairs), "cross": cross}


def bcubed(scored: Sequence[Scored]) -> Figures:
    """B-cubed precision, recall and F1 (per mention, averaged).

    >>> bcubed([("a", "x", "d1"), ("a", "y", "d2")])
    (0.5, 1.0, 0.667)
    """
    by_sys = Counter(s for s, _g, _d in scored)
    by_gold = Counter(g for _s, g, _d in scored)
    by_both = Counter((s, g) for s, g, _d in scored)
    n = len(scored) or 1
    p = sum(by_both[s, g] / by_sys[s] for s, g, _d in scored) / n
    r = sum(by_both[s, g] / by_gold[g] for s, g, _d in scored) / n
    return round(p, 3), round(r, 3), round(_f1(p, r), 3)


def load_set(path: Path) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """Documents (id → text) and gold names ((id, normalised name) → cluster)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    documents = {doc_id: _text(value) for doc_id, value in data["documents"].items()}
    gold = {}
    for cluster, mentions in data["clusters"].items():
        for mention in mentions:
            doc_id, name = mention.split(":", 1)
            gold[doc_id, normalise_name(name)] = cluster
    return documents, gold


def _text(value: str | dict[str, str]) -> str:
    # A document is its text, or {"path": …} relative to the project root (the BBC corpus in
    # ../shared is read in place, not copied).
    if isinstance(value, str):
        return value
    return (PROJECT_ROOT / value["path"]).read_text(encoding="utf-8")


def evaluate(path: Path = DEFAULT_SET, nlp: Any = None) -> Evaluation:
    """Extract and resolve the set's documents, then score them against its clusters."""
    texts, gold = load_set(path)
    documents = [document_from_text(text, doc_id=doc_id) for doc_id, text in texts.items()]
    extractions = with_corpus_names(list(extract_documents(nlp or load_pipeline(), documents)))
    resolution = resolve_entities(extractions)
    scored, found = [], set()
    for extraction in extractions:
        doc_id = extraction.document.doc_id
        for m in extraction.mentions:
            cluster = gold.get((doc_id, normalise_name(m.name)))
            if cluster is not None:
                found.add((doc_id, normalise_name(m.name)))
                scored.append((resolution.assignments[doc_id, m.begin, m.end], cluster, doc_id))
    pairs = pairwise(scored)
    missed = tuple(sorted(f"{d}:{n}" for d, n in set(gold) - found))
    return Evaluation(pairs["all"], pairs["cross"], bcubed(scored), len(scored), missed)


def main(argv: Sequence[str] = ()) -> int:
    """Print the figures for the set named in ``argv`` (default: the project's own)."""
    evaluation = evaluate(Path(argv[0]) if argv else DEFAULT_SET)
    print("\n".join(evaluation.lines()))
    for missed in evaluation.missed:
        print(f"  not extracted: {missed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
