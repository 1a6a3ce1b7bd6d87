"""Train the trigger-sense model on the tune halves; measure it on the check halves.

    .venv/bin/python bench/train_trigger_sense.py [--out kg/extract/rules/sense_model]
                                                  [--figures FILE] [--dims 64]

Examples, each a trigger word in its sentence (parsed by the build's pipeline), labelled in its
event sense or not:

* ECB+ dev (``../shared/data/ecbplus-dev``): in every sentence that carries an annotated
  mention, each word that kg's trigger lexicon lists for its part of speech (or that
  ``event_type`` reads as a trigger) is positive inside an ``ACTION_*``/``NEG_ACTION_*``
  mention, negative outside;
* the judged event rows (``tests/eval/precision*/events.jsonl``): the row's trigger is positive
  when the row is right or its type was judged right, negative when its type was judged wrong
  for a reason of sense ("a metaphor", "an idiom", "is no protest"); rows whose type was wrong
  for a reason of factuality (future, hypothetical, negated, habitual) are left out — that is
  another heuristic's work;
* trigger words judged on their sense alone (``bench/draw_trigger_senses.py``): every word the
  model is asked about in 248 unjudged tune-half BBC articles
  (``tests/eval/precision/trigger-senses.jsonl``) and up to four per lemma in CoNLL-2003's
  training split (``tests/eval/trigger-senses/conll-train.jsonl``, read with the sentences of
  ``../shared/data/conll2003/train.txt``): positive in the sense of its event type, negative
  in another sense or as an event of another type.

Halves (``bench/halves.py``): ECB+ by topic, BBC rows by article; CoNLL's training split is
tune data. The model (a logistic regression, L2, scikit-learn; judged words weighted
``--judged-weight``) is fitted on the tune half; its threshold is chosen on 5-fold
out-of-fold probabilities of the tune half's judged words: the one that drops the most
wrong-sense triggers less right ones, dropping at most ``--max-loss`` of the right ones. The
check half is scored once with that threshold. The model ships with it (``--ship tuned``, the
default since the check half bore it out: ``docs/trigger-sense-card.md``); ``--ship off``
writes threshold 0 (no word dropped, the tuned one kept beside it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.conll import CONLL as CONLL_DIR  # noqa: E402
from bench.conll import conll_texts, sentence_of  # noqa: E402
from bench.halves import half, unit  # noqa: E402
from kg.extract.rules.event_senses import event_type  # noqa: E402
from kg.extract.rules.figures import phrasal_lemma  # noqa: E402
from kg.extract.rules.trigger_sense import (  # noqa: E402
    SenseModel,
    context_features,
    sense_features,
    sentence_vector,
    similarities,
    slot_vectors,
)
from kg.lexicon.fact_words import trigger_type  # noqa: E402

ECB = ROOT.parent / "shared" / "data" / "ecbplus-dev" / "ecbplus_dev.jsonl"
JUDGED = (ROOT / "tests" / "eval" / "precision" / "events.jsonl",
          ROOT / "tests" / "eval" / "precision-ecb" / "events.jsonl")
#: Triggers judged on their sense alone (``bench/draw_trigger_senses.py``): of tune-half BBC
#: articles, and of CoNLL-2003's training split (stored without its text, read from CONLL).
SENSES = ROOT / "tests" / "eval" / "precision" / "trigger-senses.jsonl"
CONLL_SENSES = ROOT / "tests" / "eval" / "trigger-senses" / "conll-train.jsonl"
CONLL = ROOT.parent / "shared" / "data" / "conll2003" / "train.txt"
MODEL_DIR = ROOT / "kg" / "extract" / "rules" / "sense_model"
#: Positive examples a type's slot needs for a centroid.
MIN_SEEN = 3
#: A judgement whose reason is factuality, not sense: such rows teach this model nothing.
FACTUALITY = re.compile(
    r"to come|future|hypothetic|conditional|not happened|had not|has not|none happened|"
    r"not (?:yet|held)|planned|pending|hoped|feared|under discussion|threat|belief|habitual|"
    r"in general|general statement|scheduled|offer|disputed|allows|no deal made|"
    r"will |going to|is [A-Z]\w+, not", re.IGNORECASE)


@dataclass
class Example:
    source: str  # "ecb", "judged" (event rows), "senses" (BBC triggers judged on their sense)
    # or "conll" (CoNLL-2003 training triggers judged on their sense: tune data, no half)
    unit: str  # the halves' unit
    text: str  # the word
    kind: str  # the event type it would trigger
    features: dict[str, float]  # sparse
    slots: dict[str, list[float]]  # each argument slot's embedding
    context: list[float]  # the sentence's embedding
    positive: bool


def in_half(e: Example, which: str) -> bool:
    """Whether an example is of the tune or check half (CoNLL's training split: tune)."""
    return (which == "tune") if e.source == "conll" else half(e.unit) == which


def candidate_kind(token: Any) -> Any:
    """The event type a word would trigger, in any sense: what the lexicon lists for its part
    of speech, or what ``event_type`` reads."""
    if token.pos_ not in ("VERB", "NOUN"):
        return None
    return event_type(token) or trigger_type(phrasal_lemma(token), token.pos_) \
        or trigger_type(token.lemma_, token.pos_) or trigger_type(token.lower_, token.pos_)


def example(source: str, key: str, token: Any, kind: Any, dims: int, positive: bool) -> Example:
    return Example(source, key, token.text, kind.value, sense_features(token, kind),
                   slot_vectors(token, dims) if dims else {},
                   sentence_vector(token, dims) if dims else [], positive)


def ecb_examples(nlp: Any, dims: int) -> tuple[list[Example], Counter[str]]:
    """Every candidate trigger of ECB+ dev's annotated sentences, labelled by the annotation."""
    rows = [json.loads(line) for line in ECB.read_text(encoding="utf-8").splitlines()]
    sentences: list[tuple[str, str, list[tuple[int, int]]]] = []
    for doc in rows:
        annotated: dict[int, list[tuple[int, int]]] = {}
        for m in doc["mentions"]:
            spans = annotated.setdefault(m["sent"], [])
            if "ACTION_" in m["type"]:
                spans.append((m["char_start"], m["char_end"]))
        for sent, spans in sorted(annotated.items()):
            sentences.append((f"ecb:{doc['topic']}", doc["sentences"][sent], spans))
    examples, counts = [], Counter[str]()
    for (key, _text, spans), parsed in zip(
            sentences, nlp.pipe(s[1] for s in sentences), strict=True):
        for token in parsed:
            kind = candidate_kind(token)
            if kind is None:
                continue
            inside = any(b <= token.idx < e for b, e in spans)
            counts[f"{half(key)} {'positive' if inside else 'negative'}"] += 1
            examples.append(example("ecb", key, token, kind, dims, inside))
    return examples, counts


def judged_examples(nlp: Any, dims: int) -> tuple[list[Example], Counter[str]]:
    rows = [json.loads(line) for path in JUDGED
            for line in path.read_text(encoding="utf-8").splitlines()]
    kept, counts = [], Counter[str]()
    for row in rows:
        type_right = row["fields"].get("type", True)
        if not row["correct"] and not type_right and FACTUALITY.search(row.get("why", "")):
            counts[f"{half(unit(row['article']))} left out (factuality)"] += 1
            continue
        kept.append((row, bool(row["correct"] or type_right)))
    examples = []
    for key, token, positive in judged_triggers(nlp, kept, counts):
        counts[f"{half(key)} {'positive' if positive else 'negative'}"] += 1
        examples.append(example("judged", key, token, candidate_kind(token), dims, positive))
    return examples, counts


def judged_triggers(nlp: Any, kept: Sequence[tuple[dict[str, Any], bool]],
                    counts: Counter[str]) -> Iterator[tuple[str, Any, bool]]:
    """Each judged event row's halves unit, its trigger token in the parsed sentence and its
    label; a row whose trigger the parse does not offer is counted and skipped. A CoNLL row
    keeps no sentence (Reuters' text is not committed): it is found again in the document by
    its digest (``bench/conll.py``, ``sentence_of``), and counted when it is not."""
    from bench.precision import _digest

    texts = conll_texts(CONLL_DIR / "train.txt") if any(
        r["article"].startswith("conll-") for r, _ in kept) else []
    readable = []
    for row, positive in kept:
        sentence = row["sentence"] or sentence_of(row, _digest, texts)
        if sentence:
            readable.append((row, positive, sentence))
        else:
            counts[f"{half(unit(row['article']))} sentence not found"] += 1
    for (row, positive, _), parsed in zip(readable, nlp.pipe(s for _, _, s in readable),
                                          strict=True):
        trigger = row["output"]["trigger"]
        token = next((t for t in parsed if t.text == trigger and candidate_kind(t)), None)
        key = unit(row["article"])
        if token is None:
            counts[f"{half(key)} trigger not found"] += 1
            continue
        yield key, token, positive


def sense_examples(nlp: Any, dims: int) -> tuple[list[Example], Counter[str]]:
    """The triggers judged on their sense alone: positive when used in the sense of their
    event type, negative in another sense or as an event of another type."""
    rows = [json.loads(line) for line in SENSES.read_text(encoding="utf-8").splitlines()
            if line.strip()] if SENSES.exists() else []
    examples, counts = [], Counter[str]()
    for row, parsed in zip(rows, nlp.pipe(r["sentence"] for r in rows), strict=True):
        key = unit(row["article"])
        token = next((t for t in parsed if t.idx == row["in_sentence"]), None)
        kind = candidate_kind(token) if token is not None else None
        if token is None or kind is None:
            counts[f"{half(key)} trigger not found"] += 1
            continue
        counts[f"{half(key)} {'positive' if row['correct'] else 'negative'}"] += 1
        examples.append(example("senses", key, token, kind, dims, bool(row["correct"])))
    return examples, counts


def conll_examples(nlp: Any, dims: int) -> tuple[list[Example], Counter[str]]:
    """The CoNLL-2003 training triggers judged on their sense, their sentences read again."""
    from bench.draw_trigger_senses import conll_sentences

    rows = [json.loads(line) for line in CONLL_SENSES.read_text(encoding="utf-8").splitlines()
            if line.strip()] if CONLL_SENSES.exists() and CONLL.exists() else []
    text = {(d, s): t for d, s, t in conll_sentences(CONLL)} if rows else {}
    examples, counts = [], Counter[str]()
    for row, parsed in zip(rows, nlp.pipe(text[r["doc"], r["sent"]] for r in rows),
                           strict=True):
        token = next((t for t in parsed if t.idx == row["in_sentence"]), None)
        kind = candidate_kind(token) if token is not None else None
        if token is None or kind is None or token.text != row["trigger"]:
            counts["trigger not found"] += 1
            continue
        counts["positive" if row["correct"] else "negative"] += 1
        examples.append(example("conll", f"conll-train:{row['doc']}", token, kind, dims,
                                bool(row["correct"])))
    return examples, counts


def examples(dims: int, cache: Path | None
             ) -> tuple[list[Example], Counter[str], list[Example], Counter[str]]:
    """The ECB+ and judged examples, parsed again or read from ``cache`` (a pickle of a
    previous run on the same data, code and ``dims``)."""
    import pickle

    digest = hashlib.sha256(f"{dims}".encode())
    for path in (ECB, *JUDGED, SENSES, CONLL_SENSES, Path(__file__),
                 ROOT / "kg/extract/rules/trigger_sense.py"):
        digest.update(path.read_bytes())
    if cache is not None and cache.exists():
        cached = pickle.loads(cache.read_bytes())
        if cached[0] == digest.hexdigest():
            return cached[1]  # type: ignore[no-any-return]
    from kg.extract import load_pipeline

    nlp = load_pipeline()
    judged, judged_counts = judged_examples(nlp, dims)
    senses, sense_counts = sense_examples(nlp, dims)
    conll, conll_counts = conll_examples(nlp, dims)
    found = (*ecb_examples(nlp, dims), judged + senses + conll,
             judged_counts + Counter({f"{k} (sense)": v for k, v in sense_counts.items()})
             + Counter({f"conll {k}": v for k, v in conll_counts.items()}))
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_bytes(pickle.dumps((digest.hexdigest(), found)))
    return found


def centroids(examples: Sequence[Example]) -> dict[str, dict[str, list[float]]]:
    """Per event type and slot, the unit mean of the slot embeddings of the positive
    examples (a type or slot seen fewer than ``MIN_SEEN`` times has none)."""
    import numpy as np

    sums: dict[str, dict[str, list[Any]]] = {}
    for e in examples:
        if e.positive:
            for slot, vector in e.slots.items():
                sums.setdefault(e.kind, {}).setdefault(slot, []).append(vector)
    found: dict[str, dict[str, list[float]]] = {}
    for kind, slots in sums.items():
        for slot, vectors in slots.items():
            if len(vectors) >= MIN_SEEN:
                mean = np.mean(np.asarray(vectors), axis=0)
                found.setdefault(kind, {})[slot] = [
                    round(float(x), 5) for x in mean / (np.linalg.norm(mean) or 1.0)]
    return found


def features(e: Example, means: dict[str, dict[str, list[float]]]) -> dict[str, float]:
    return {**e.features, **similarities(e.slots, means.get(e.kind, {})),
            **context_features(e.context)}


@dataclass
class Fitted:
    pipeline: Any
    centroids: dict[str, dict[str, list[float]]]

    def probabilities(self, examples: Sequence[Example]) -> list[float]:
        if not examples:
            return []
        rows = [features(e, self.centroids) for e in examples]
        return [float(p) for p in self.pipeline.predict_proba(rows)[:, 1]]


def fit(examples: Sequence[Example], judged_weight: float, c: float,
        ecb_weight: float = 1.0) -> Fitted:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    means = centroids(examples)
    model = make_pipeline(DictVectorizer(), LogisticRegression(C=c, max_iter=5000))
    weights = [ecb_weight if e.source == "ecb" else judged_weight for e in examples]
    model.fit([features(e, means) for e in examples], [e.positive for e in examples],
              logisticregression__sample_weight=weights)
    return Fitted(model, means)


def out_of_fold(examples: Sequence[Example], judged_weight: float, c: float,
                ecb_weight: float = 1.0, folds: int = 5) -> list[float]:
    """Each example's probability from a model fitted without its unit's fold."""
    units = sorted({e.unit for e in examples})
    fold_of = {u: int(hashlib.sha256(u.encode()).hexdigest(), 16) % folds for u in units}
    probabilities = [0.0] * len(examples)
    for k in range(folds):
        train = [e for e in examples if fold_of[e.unit] != k]
        model = fit(train, judged_weight, c, ecb_weight)
        test = [i for i, e in enumerate(examples) if fold_of[e.unit] == k]
        for i, p in zip(test, model.probabilities([examples[i] for i in test]), strict=True):
            probabilities[i] = p
    return probabilities


def dropped(examples: Sequence[Any], probabilities: Sequence[float], threshold: float,
            source: str = "judged senses conll") -> tuple[int, int, int, int]:
    """(negatives dropped, negatives, positives dropped, positives) of the sources named."""
    pairs = [(e.positive, p) for e, p in zip(examples, probabilities, strict=True)
             if e.source in source.split()]
    negatives = [p for positive, p in pairs if not positive]
    positives = [p for positive, p in pairs if positive]
    return (sum(p < threshold for p in negatives), len(negatives),
            sum(p < threshold for p in positives), len(positives))


#: The sources figures are given for ("judged senses": both kinds of judged example).
SOURCES = ("judged", "senses", "conll", "judged senses conll", "ecb")


def auc(examples: Sequence[Any], probabilities: Sequence[float],
        source: str = "judged senses conll") -> float | None:
    """The area under the ROC curve of the sources named (``None`` with one class only)."""
    from sklearn.metrics import roc_auc_score

    pairs = [(e.positive, p) for e, p in zip(examples, probabilities, strict=True)
             if e.source in source.split()]
    if len({positive for positive, _ in pairs}) < 2:
        return None
    return round(float(roc_auc_score([a for a, _ in pairs], [b for _, b in pairs])), 3)


def choose_threshold(examples: Sequence[Any], probabilities: Sequence[float],
                     max_loss: float, source: str = "judged senses conll") -> float:
    """The cut that drops the most negatives less positives of the sources named, dropping at
    most ``max_loss`` of the positives (0: none pays)."""
    best, best_gain = 0.0, 0
    for step in range(1, 100):
        threshold = step / 100
        neg, _n, pos, npos = dropped(examples, probabilities, threshold, source)
        if pos <= max_loss * npos and neg - pos > best_gain:
            best, best_gain = threshold, neg - pos
    return best


def to_sense_model(model: Fitted, threshold: float, dims: int, tuned: float) -> SenseModel:
    vectorizer, regression = model.pipeline.named_steps.values()
    names = vectorizer.get_feature_names_out()
    weights = {str(n): round(float(w), 5) for n, w in zip(names, regression.coef_[0], strict=True)
               if abs(w) >= 1e-5}
    return SenseModel(round(float(regression.intercept_[0]), 5), weights, threshold, dims,
                      model.centroids, tuned)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    parser.add_argument("--cache", type=Path,
                        help="the parsed examples, kept here between runs (bench/work/...)")
    parser.add_argument("--figures", type=Path, help="write the tune and check figures here")
    parser.add_argument("--dims", type=int, default=64)
    parser.add_argument("--judged-weight", type=float, default=3.0)
    parser.add_argument("--c", type=float, default=1.0)
    parser.add_argument("--max-loss", type=float, default=0.03)
    parser.add_argument("--ship", choices=("off", "tuned"), default="tuned",
                        help="the threshold shipped: the one chosen on the tune half (the "
                             "check half bore it out, docs/trigger-sense-card.md) or 0 (no "
                             "word dropped)")
    args = parser.parse_args(argv)
    ecb, ecb_counts, judged, judged_counts = examples(args.dims, args.cache)
    print("ECB+ candidates:", dict(sorted(ecb_counts.items())))
    print("judged rows:", dict(sorted(judged_counts.items())))
    tune = [e for e in ecb + judged if in_half(e, "tune")]
    check = [e for e in ecb + judged if in_half(e, "check")]
    oof = out_of_fold(tune, args.judged_weight, args.c)
    threshold = choose_threshold(tune, oof, args.max_loss)
    model = fit(tune, args.judged_weight, args.c)
    on_check = model.probabilities(check)
    figures = {
        "threshold": threshold,
        "tune (out of fold)": {s: dropped(tune, oof, threshold, s) for s in SOURCES},
        "check": {s: dropped(check, on_check, threshold, s) for s in SOURCES},
        "tune AUC (out of fold)": {s: auc(tune, oof, s) for s in SOURCES},
        "check AUC": {s: auc(check, on_check, s) for s in SOURCES},
        "ecb_counts": dict(ecb_counts), "judged_counts": dict(judged_counts),
    }
    print(json.dumps(figures, indent=1))
    sense = to_sense_model(model, threshold if args.ship == "tuned" else 0.0, args.dims,
                           threshold)
    args.out.mkdir(parents=True, exist_ok=True)
    data = (json.dumps(sense.to_json(), indent=0, sort_keys=True) + "\n").encode()
    (args.out / "trigger-sense.json").write_bytes(data)
    (args.out / "trigger-sense.sha256").write_text(
        f"{hashlib.sha256(data).hexdigest()}  trigger-sense.json\n", encoding="utf-8")
    if args.figures:
        args.figures.parent.mkdir(parents=True, exist_ok=True)
        args.figures.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
