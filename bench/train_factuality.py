"""Train the event-factuality model on the tune halves; measure it on the check halves.

    .venv/bin/python bench/train_factuality.py [--out kg/extract/rules/factuality_model]
                                               [--figures FILE] [--ship tuned|off]

Examples, each an event trigger in its sentence (parsed by the build's pipeline), labelled
happened or not:

* the judged event rows (``tests/eval/precision*/events.jsonl``): happened when the row is
  right; not happened when it is wrong and its judgement says why in those terms (still to
  come, planned, agreed but not completed, hoped, speculated, generic or habitual, negated,
  hypothetical: ``NOT_HAPPENED``); rows wrong for another reason (a participant, a sense, a
  date) are left out, as are those whose judgement starts "another sense", "wrong
  participant" or "left out" — their factuality was not what was judged;
* event triggers judged on their factuality alone (``bench/draw_event_factuality.py``,
  ``tests/eval/precision/event-factuality.jsonl``): every event kg builds, not already planned
  or generic, in unjudged tune-half BBC articles.

Halves (``bench/halves.py``): ECB+ rows by topic, BBC rows by article. The model (a logistic
regression, L2, scikit-learn) is fitted on the tune half; its threshold is chosen on 5-fold
out-of-fold probabilities of the tune half: the one that drops the most not-happened events
less happened ones, dropping at most ``--max-loss`` of the happened. The check half is scored
once with that threshold. ``--ship tuned`` writes it as the model's threshold, ``--ship off``
writes 0 (no event dropped; the tuned one kept beside it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.halves import half  # noqa: E402
from bench.train_trigger_sense import (  # noqa: E402
    auc,
    choose_threshold,
    dropped,
    judged_triggers,
    unit,
)
from kg.atomic import atomic_write_bytes  # noqa: E402
from kg.extract.rules.event_factuality import FactualityModel, factuality_features  # noqa: E402

JUDGED = (ROOT / "tests" / "eval" / "precision" / "events.jsonl",
          ROOT / "tests" / "eval" / "precision-ecb" / "events.jsonl")
FACTUALITY = ROOT / "tests" / "eval" / "precision" / "event-factuality.jsonl"
MODEL_DIR = ROOT / "kg" / "extract" / "rules" / "factuality_model"
#: A judgement that says the event did not happen (or not yet, or not as one occasion).
NOT_HAPPENED = re.compile(
    r"not happened|none happened|no \w+ (?:has |have )?happened|did not happen|never happened|"
    r"to come\b|future|hypothetic|conditional|planned|pending|hoped|hoping|wished|feared|"
    r"under discussion|under way|not (?:yet|held|completed|stated)|not made|still to|"
    r"agreed, not|generic|habitual|in general|general statement|a threat|speculat|a plot|"
    r"a call to|a belief|scheduled|disputed|what the law|a plan\b|may come|an offer|"
    r"rejected offer|made-up|no deal (?:was )?made", re.IGNORECASE)
#: A judgement of something else first: the row's factuality was not what was judged.
OTHER_REASON = re.compile(r"^(?:another sense|wrong participant|left out)\b", re.IGNORECASE)
SOURCES = ("judged", "factuality", "judged factuality")


@dataclass
class Example:
    source: str  # "judged" (event rows) or "factuality" (triggers judged on factuality alone)
    unit: str  # the halves' unit
    text: str  # the trigger
    features: dict[str, float]
    positive: bool  # happened


def label(row: dict[str, Any]) -> bool | None:
    """A judged event row's label: happened (right), not happened (wrong for that), or
    ``None`` (wrong for another reason)."""
    if row["correct"]:
        return True
    why = row.get("why", "")
    if OTHER_REASON.search(why) or not NOT_HAPPENED.search(why):
        return None
    return False


def judged_examples(nlp: Any) -> tuple[list[Example], Counter[str]]:
    rows = [json.loads(line) for path in JUDGED
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    counts = Counter[str]()
    kept = []
    for row in rows:
        positive = label(row)
        if positive is None:
            counts[f"{half(unit(row['article']))} left out"] += 1
        else:
            kept.append((row, positive))
    found = []
    for key, token, positive in judged_triggers(nlp, kept, counts):
        counts[f"{half(key)} {'happened' if positive else 'not happened'}"] += 1
        found.append(Example("judged", key, token.text, factuality_features(token), positive))
    return found, counts


def factuality_examples(nlp: Any) -> tuple[list[Example], Counter[str]]:
    rows = [json.loads(line) for line in FACTUALITY.read_text(encoding="utf-8").splitlines()
            if line.strip()] if FACTUALITY.exists() else []
    found, counts = [], Counter[str]()
    for row, parsed in zip(rows, nlp.pipe(r["sentence"] for r in rows), strict=True):
        key = unit(row["article"])
        token = next((t for t in parsed if t.idx == row["in_sentence"]), None)
        if token is None:
            counts[f"{half(key)} trigger not found"] += 1
            continue
        counts[f"{half(key)} {'happened' if row['correct'] else 'not happened'}"] += 1
        found.append(Example("factuality", key, token.text, factuality_features(token),
                             bool(row["correct"])))
    return found, counts


def fit(examples: Sequence[Example], c: float) -> Any:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    model = make_pipeline(DictVectorizer(), LogisticRegression(C=c, max_iter=5000))
    model.fit([e.features for e in examples], [e.positive for e in examples])
    return model


def probabilities(model: Any, examples: Sequence[Example]) -> list[float]:
    if not examples:
        return []
    return [float(p) for p in model.predict_proba([e.features for e in examples])[:, 1]]


def out_of_fold(examples: Sequence[Example], c: float, folds: int = 5) -> list[float]:
    """Each example's probability from a model fitted without its unit's fold."""
    fold_of = {u: int(hashlib.sha256(u.encode()).hexdigest(), 16) % folds
               for u in {e.unit for e in examples}}
    found = [0.0] * len(examples)
    for k in range(folds):
        model = fit([e for e in examples if fold_of[e.unit] != k], c)
        test = [i for i, e in enumerate(examples) if fold_of[e.unit] == k]
        for i, p in zip(test, probabilities(model, [examples[i] for i in test]), strict=True):
            found[i] = p
    return found


def to_model(model: Any, threshold: float, tuned: float) -> FactualityModel:
    vectorizer, regression = model.named_steps.values()
    weights = {str(n): round(float(w), 5) for n, w in zip(
        vectorizer.get_feature_names_out(), regression.coef_[0], strict=True) if abs(w) >= 1e-5}
    return FactualityModel(round(float(regression.intercept_[0]), 5), weights, threshold, tuned)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODEL_DIR)
    parser.add_argument("--figures", type=Path, help="write the tune and check figures here")
    parser.add_argument("--c", type=float, default=1.0)
    parser.add_argument("--max-loss", type=float, default=0.03)
    parser.add_argument("--ship", choices=("off", "tuned"), default="tuned",
                        help="the threshold shipped: the one chosen on the tune half, or 0 "
                             "(no event dropped)")
    args = parser.parse_args(argv)
    from kg.extract import load_pipeline

    nlp = load_pipeline()
    judged, judged_counts = judged_examples(nlp)
    drawn, drawn_counts = factuality_examples(nlp)
    print("judged rows:", dict(sorted(judged_counts.items())))
    print("judged on factuality:", dict(sorted(drawn_counts.items())))
    tune = [e for e in judged + drawn if half(e.unit) == "tune"]
    check = [e for e in judged + drawn if half(e.unit) == "check"]
    oof = out_of_fold(tune, args.c)
    both = "judged factuality"
    threshold = choose_threshold(tune, oof, args.max_loss, both)
    model = fit(tune, args.c)
    on_check = probabilities(model, check)
    figures = {
        "threshold": threshold, "c": args.c, "max_loss": args.max_loss,
        "tune (out of fold): not-happened dropped, not-happened, happened dropped, happened":
            {s: dropped(tune, oof, threshold, s) for s in SOURCES},
        "check: not-happened dropped, not-happened, happened dropped, happened":
            {s: dropped(check, on_check, threshold, s) for s in SOURCES},
        "tune AUC (out of fold)": {s: auc(tune, oof, s) for s in SOURCES},
        "check AUC": {s: auc(check, on_check, s) for s in SOURCES},
        "judged_counts": dict(judged_counts), "factuality_counts": dict(drawn_counts),
    }
    print(json.dumps(figures, indent=1))
    shipped = to_model(model, threshold if args.ship == "tuned" else 0.0, threshold)
    data = (json.dumps(shipped.to_json(), indent=0, sort_keys=True) + "\n").encode()
    args.out.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(args.out / "event-factuality.json", data)
    atomic_write_bytes(args.out / "event-factuality.sha256",
                       f"{hashlib.sha256(data).hexdigest()}  event-factuality.json\n".encode())
    if args.figures:
        args.figures.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(args.figures, (json.dumps(figures, indent=1) + "\n").encode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
