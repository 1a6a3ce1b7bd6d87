"""The shipped verifier: per kind of fact, weights over features, a calibration and a threshold.

The model file (``kg/verify/model/verifier.json``) holds, for each kind, a logistic model's
bias and feature weights, the calibration that maps its score to a probability of being right
(a non-decreasing step function over the score, fitted on held-out folds), and the threshold a
build cuts at by default: the one chosen on the tune half for precision ≥ 0.85 where the check
half bore it out, else 0 (every fact written with its confidence; ``docs/verifier-card.md``).
Its SHA-256 is checked against ``verifier.sha256`` when it is loaded, as the NER's weights are.

>>> model = VerifierModel({"claims": KindModel(0.0, {"cue=say": 2.0}, [(-9.0, 0.2), (1.0, 0.9)],
...                                            0.5)})
>>> model.kinds["claims"].probability(["cue=say"])
0.9
>>> model.kinds["claims"].probability(["cue=deny"])
0.2
"""

from __future__ import annotations

import json
import math
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from kg.model import Evidence, Extraction, Fact, Resolution
from kg.resources import PACKAGE_DIR, hashed_bytes
from kg.verify.features import KINDS, fact_features

__all__ = ["KindModel", "VerifierModel", "load_verifier", "verified"]

MODEL_DIR = PACKAGE_DIR / "verify" / "model"
MODEL_FILE = MODEL_DIR / "verifier.json"
HASH_FILE = MODEL_DIR / "verifier.sha256"


@dataclass(frozen=True)
class KindModel:
    """One kind's model: logistic score, isotonic calibration, threshold."""

    bias: float
    weights: dict[str, float]
    #: (score, probability) steps, scores ascending: a score takes the probability of the last
    #: step at or below it (the first step's below all of them).
    calibration: list[tuple[float, float]]
    threshold: float

    def score(self, features: Iterable[str]) -> float:
        """The bias and the weights of the distinct ``features``, summed exactly: a float sum
        in a set's order depends on the process's hash seed, and a score on a step of the
        calibration gave two builds of one corpus two confidences."""
        return math.fsum([self.bias, *(self.weights.get(f, 0.0) for f in set(features))])

    def probability(self, features: Iterable[str]) -> float:
        """The calibrated probability that a fact with ``features`` is right."""
        score = self.score(features)
        at = bisect_right([s for s, _p in self.calibration], score) - 1
        return round(self.calibration[max(at, 0)][1], 3)


@dataclass(frozen=True)
class VerifierModel:
    kinds: dict[str, KindModel]

    def to_json(self) -> dict[str, Any]:
        return {kind: {"bias": m.bias, "weights": dict(sorted(m.weights.items())),
                       "calibration": [list(step) for step in m.calibration],
                       "threshold": m.threshold}
                for kind, m in sorted(self.kinds.items())}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> VerifierModel:
        return cls({kind: KindModel(float(m["bias"]),
                                    {k: float(v) for k, v in m["weights"].items()},
                                    [(float(s), float(p)) for s, p in m["calibration"]],
                                    float(m["threshold"]))
                    for kind, m in data.items()})


@cache
def load_verifier() -> VerifierModel | None:
    """The shipped verifier (``None`` when the package has none: facts keep their rules'
    confidences); ``ModelError`` when its file does not match its recorded hash."""
    data = hashed_bytes(MODEL_FILE, HASH_FILE, "the verifier's weights", "run make train-verifier")
    if data is None:
        return None
    return VerifierModel.from_json(json.loads(data))


def verified(extractions: Sequence[Extraction], resolution: Resolution,
             min_confidence: float | None = None,
             model: VerifierModel | None = None) -> list[Extraction]:
    """``extractions`` with each role, claim and event given the verifier's confidence, and
    those below the threshold left out: the kind's shipped one (0 where none was borne out), or
    ``min_confidence`` when given (0 keeps every fact). Without a model, as they are."""
    model = model or load_verifier()
    if model is None:
        return list(extractions)
    found = []
    for extraction in extractions:
        facts = []
        for fact in extraction.facts:
            scored = _scored(fact, extraction.document.doc_id, resolution, model)
            if scored is None:
                facts.append(fact)
                continue
            confidence, threshold = scored
            if confidence >= (threshold if min_confidence is None else min_confidence):
                facts.append(replace(fact, evidence=_with(fact.evidence, confidence)))
        found.append(replace(extraction, facts=tuple(facts)))
    return found


def _scored(fact: Fact, doc_id: str, resolution: Resolution, model: VerifierModel
            ) -> tuple[float, float] | None:
    kind = model.kinds.get(KINDS.get(type(fact), ""))
    if kind is None:
        return None
    return kind.probability(fact_features(fact, doc_id, resolution)), kind.threshold


def _with(evidence: Evidence, confidence: float) -> Evidence:
    return replace(evidence, confidence=confidence)
