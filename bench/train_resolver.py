"""Train the context model of resolution (``kg/resolve/context.py``) on the ECB+ dev tune topics.

    .venv/bin/python bench/train_resolver.py [--write] [--report]

The ECB+ dev documents are parsed once (``bench/parses.py``) and extracted; on the *tune*
topics (``bench/halves.py``) each article's groups are made and the rule joins of
``resolve.corpus`` run, recording every join a rule makes (``Merger.gate``); then the
candidates of ``kg.resolve.blocks`` are listed, and pairs of one last word (the baseline's
blocks: harder pairs, to learn what context says). A pair is labelled by the
gold clusters of its groups' mentions (each group's commonest; pairs of two topics and groups
without a gold mention are left out). A logistic regression (scikit-learn) is fitted on
their features (``pair_features``); its threshold is the one that gives the best
within-topic B-cubed F1 on the tune topics (the higher of two within 0.002). ``--write``
ships it (``kg/resolve/model/context.json`` and its SHA-256); ``--report`` prints B-cubed on
the tune and check topics with and without the context steps, beside the last-word baseline.
The check topics are read by ``--report`` alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.ecb_eval import DEV_SET, GoldMention, align, load_documents, overlapping  # noqa: E402
from bench.ecb_eval import score as ecb_score  # noqa: E402
from kg.heuristics import steps, switched_off  # noqa: E402
from kg.model import Extraction  # noqa: E402
from kg.resolve import context as context_module  # noqa: E402
from kg.resolve.blocks import candidate_pairs  # noqa: E402
from kg.resolve.context import ContextModel, Contexts, pair_features  # noqa: E402
from kg.resolve.document import document_groups  # noqa: E402
from kg.resolve.groups import Group, Merger  # noqa: E402
from kg.resolve.linking import GATED  # noqa: E402

WORK = ROOT / "bench" / "work" / "resolver"
CONTEXT_STEPS = {"resolve.corpus.context-joins"}
THRESHOLDS = (0.6, 0.7, 0.8, 0.9)


def extractions(which: str) -> tuple[list[Extraction], list[GoldMention]]:
    """The extractions and gold mentions of one half's topics (parses cached)."""
    from bench.parses import ParsedSet
    from kg.ingest.files import document_from_text
    from kg.resolve.corpus_names import with_corpus_names

    texts, _gold = load_documents(DEV_SET)
    documents = [document_from_text(texts[d], doc_id=d) for d in sorted(texts)]
    parsed = ParsedSet.of(documents, cache=WORK.parent / "parses" / "ecb-dev")  # parsed once
    mine, gold = load_documents(DEV_SET, which)
    keep = [k for k, d in enumerate(parsed.documents) if d.doc_id in mine]
    parsed = ParsedSet(tuple(parsed.documents[k] for k in keep), [parsed.docs[k] for k in keep],
                       parsed.model)
    return with_corpus_names(parsed.extract()), gold


class Recorder:
    """A gate that refuses nothing and remembers every gated rule's pair."""

    def __init__(self) -> None:
        self.pairs: list[tuple[int, int, str]] = []

    def __call__(self, i: int, j: int, rule: str) -> float | None:
        self.pairs.append((i, j, f"rule:{rule}" if rule in GATED else "rule:other"))
        return None


def pairs_of(found: list[Extraction]) -> tuple[list[Group], Contexts, list[tuple[int, int, str]]]:
    """The groups of ``found``, their contexts, and the pairs to label: the weak rule joins,
    then the candidates the rules left apart."""
    found = sorted(found, key=lambda e: (e.document.doc_id, e.document.path))
    groups = [g for extraction in found for g in document_groups(extraction)]
    contexts = Contexts(found, groups)
    merger, recorder = Merger(len(groups)), Recorder()
    merger.contexts, merger.gate = contexts, recorder
    for step in steps("resolve.corpus"):
        if step.fn is not None and step.id not in CONTEXT_STEPS:
            step(groups, merger)
    merger.gate = None
    return groups, contexts, (recorder.pairs + list(candidate_pairs(groups, merger))
                              + last_words(groups, merger))


def last_words(groups: Sequence[Group], merger: Merger) -> list[tuple[int, int, str]]:
    """Pairs of groups with one last word in different sets (the baseline's blocks): more
    pairs, and harder ones, to learn what context says; their relation never comes up when
    the model is used."""
    from kg.resolve.names import comparison_tokens

    blocks: dict[str, list[int]] = {}
    for k, group in enumerate(groups):
        if words := comparison_tokens(group.anchor):
            blocks.setdefault(words[-1], []).append(k)
    return [(i, j, "last-word") for block in blocks.values() if len(block) <= 40
            for a, i in enumerate(block) for j in block[a + 1:]
            if merger.find(i) != merger.find(j)]


def gold_of(groups: Sequence[Group], gold: Sequence[GoldMention]) -> list[tuple[str, str] | None]:
    """Each group's commonest gold cluster (with its topic), or ``None``."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    owner: dict[tuple[str, int, int], int] = {}
    for k, group in enumerate(groups):
        for doc, begin, end in group.refs:
            spans.setdefault(doc, []).append((begin, end, ""))
            owner[doc, begin, end] = k
    votes: dict[int, Counter[tuple[str, str]]] = {}
    for g in gold:
        if (span := overlapping(g, spans)) is not None:
            votes.setdefault(owner[g.doc, span[0], span[1]], Counter())[g.topic, g.cluster] += 1
    return [votes[k].most_common(1)[0][0] if k in votes else None for k in range(len(groups))]


def training_rows(found: list[Extraction], gold: Sequence[GoldMention]
                  ) -> tuple[list[dict[str, float]], list[int], list[str]]:
    groups, contexts, pairs = pairs_of(found)
    labels = gold_of(groups, gold)
    contexts.prepare(k for i, j, _r in pairs for k in (i, j))
    rows, ys, relations = [], [], []
    for i, j, relation in pairs:
        a, b = labels[i], labels[j]
        if a is None or b is None or a[0] != b[0]:
            continue
        rows.append(pair_features(contexts, i, j, relation))
        ys.append(int(a == b))
        relations.append(relation)
    return rows, ys, relations


def fit(rows: list[dict[str, float]], ys: list[int]) -> tuple[float, dict[str, float]]:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = DictVectorizer()
    matrix = vectorizer.fit_transform(rows)
    model = LogisticRegression(C=0.5, max_iter=2000, class_weight="balanced")
    model.fit(matrix, ys)
    weights = {name: round(float(w), 4)
               for name, w in zip(vectorizer.get_feature_names_out(), model.coef_[0], strict=True)
               if abs(w) > 1e-4}
    return round(float(model.intercept_[0]), 4), weights


def b_cubed(found: list[Extraction], gold: Sequence[GoldMention], off: set[str] = frozenset()
            ) -> Any:
    from kg.resolve.resolver import resolve_entities

    with switched_off(set(off)):
        resolution = resolve_entities(found)
    system = {e.document.doc_id: [(m.begin, m.end, resolution.assignments[key])
                                  for m in e.mentions
                                  if (key := (e.document.doc_id, m.begin, m.end))
                                  in resolution.assignments]
              for e in found}
    return ecb_score(align(gold, system))


def use(model: ContextModel) -> None:
    """Make ``model`` the one resolution loads (for measuring it before it is shipped)."""
    setattr(context_module, "load_context_model", lambda: model)  # noqa: B010
    import kg.resolve.linking as linking

    setattr(linking, "load_context_model", lambda: model)  # noqa: B010


def choose(found: list[Extraction], gold: Sequence[GoldMention], bias: float,
           weights: dict[str, float]) -> ContextModel:
    """The threshold with the best tune B-cubed F1 (the higher of two within 0.002)."""
    results = []
    for threshold in THRESHOLDS:
        use(ContextModel(bias, weights, threshold))
        f1 = b_cubed(found, gold).system[2]
        results.append((f1, threshold))
        print(f"  threshold {threshold:.2f}: tune B3 F1 {f1:.3f}", file=sys.stderr)
    top = max(f for f, _t in results)
    return ContextModel(bias, weights, max(t for f, t in results if f >= top - 0.002))


def write(model: ContextModel) -> None:
    data = (json.dumps(model.to_json(), indent=1, sort_keys=True) + "\n").encode()
    context_module.MODEL_DIR.mkdir(parents=True, exist_ok=True)
    context_module.MODEL_FILE.write_bytes(data)
    context_module.HASH_FILE.write_text(f"{hashlib.sha256(data).hexdigest()}  context.json\n")


def report(model: ContextModel | None) -> list[str]:
    lines = ["| ECB+ dev topics | kg without context | kg with context | last-word baseline |",
             "|---|---|---|---|"]
    for which in ("tune", "check"):
        found, gold = extractions(which)
        if model is not None:
            use(model)
        before, after = b_cubed(found, gold, CONTEXT_STEPS), b_cubed(found, gold)
        cell = "B³ {2:.3f} (P {0:.3f}, R {1:.3f})"
        lines.append(f"| {which} | {cell.format(*before.system)} | {cell.format(*after.system)}"
                     f" | {cell.format(*after.baseline)} |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="ship the model")
    parser.add_argument("--report", action="store_true", help="B-cubed on both halves")
    parser.add_argument("--threshold", type=float,
                        help="join at this probability instead of the one chosen on the tune "
                             "topics (where their B-cubed does not tell thresholds apart)")
    args = parser.parse_args(argv)
    found, gold = extractions("tune")
    rows, ys, relations = training_rows(found, gold)
    counts = Counter(zip(relations, ys, strict=True))
    print(f"{len(rows)} labelled pairs on the tune topics ({sum(ys)} one thing):",
          file=sys.stderr)
    for relation in sorted({r for r, _y in counts}):
        print(f"  {relation}: {counts[relation, 1]} same, {counts[relation, 0]} different",
              file=sys.stderr)
    bias, weights = fit(rows, ys)
    model = choose(found, gold, bias, weights) if args.threshold is None else ContextModel(
        bias, weights, args.threshold)
    print(f"threshold {model.threshold}", file=sys.stderr)
    (WORK / "last-model.pickle").parent.mkdir(parents=True, exist_ok=True)
    (WORK / "last-model.pickle").write_bytes(pickle.dumps(model))
    if args.write:
        write(model)
    if args.report:
        print("\n".join(report(model)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
