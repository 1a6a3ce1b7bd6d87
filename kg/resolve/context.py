"""What surrounds a name: a learned scorer for the joins that names alone cannot decide.

Names propose; context decides. Candidates are blocked by name keys (``kg.resolve.blocks``:
an acronym, words abbreviated, a plural, an initial, a variant of a given name, a surname no
full name was joined to, one name in two classes); each pair of groups is scored by a logistic
model over what surrounds the mentions:

* a static embedding of each group's sentences, its name masked (``wordllama``'s bundled
  256-dimension table: no download, ~5,000 sentences/s on one core), and of its article's
  opening (the topic);
* the other names its article shares with the other group's article (co-occurring entities);
* the classes of the two groups, whether cues decided them, and the relation that blocked them.

The weights are trained on the ECB+ dev tune topics (``bench/train_resolver.py``) and shipped
as JSON with its SHA-256 (``kg/resolve/model/``), as the verifier's are. The heuristic
``resolve.corpus.context-joins`` clusters the candidates corpus-wide with it (average linkage
over the scored pairs of two sets, joined at the learned threshold; ``kg.resolve.linking``),
each join a logged ``MergeDecision`` with its score.

>>> model = ContextModel(0.0, {"ctx": 4.0}, 0.5)
>>> round(model.probability({"ctx": 0.5}), 3)
0.881
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from kg.errors import ModelError
from kg.model import EntityKind, Extraction
from kg.resolve.names import comparison_tokens
from kg.resources import PACKAGE_DIR

if TYPE_CHECKING:
    import numpy as np

    from kg.resolve.groups import Group

__all__ = ["ContextModel", "Contexts", "load_context_model", "pair_features"]

MODEL_DIR = PACKAGE_DIR / "resolve" / "model"
MODEL_FILE = MODEL_DIR / "context.json"
HASH_FILE = MODEL_DIR / "context.sha256"
#: Sentences of a group embedded (its first ones): more adds time, not signal.
SENTENCES_PER_GROUP = 6
#: Characters of an article's opening embedded as its topic.
OPENING = 1200
#: Texts embedded at once. wordllama pads a batch to its longest text and holds every token's
#: vector as float32 before pooling: 64 texts of six sentences took ~48 MB at the peak, more
#: than the rest of resolution together; 8 take a few MB, as fast (bench/bench_resolve.py).
EMBED_BATCH = 8


@dataclass(frozen=True)
class ContextModel:
    """A logistic model over pair features and its join threshold."""

    bias: float
    weights: dict[str, float]
    threshold: float  # two sets join when their pairs' mean probability reaches it

    def probability(self, features: dict[str, float]) -> float:
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in features.items())
        return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))

    def to_json(self) -> dict[str, Any]:
        return {"bias": self.bias, "weights": dict(sorted(self.weights.items())),
                "threshold": self.threshold}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ContextModel:
        return cls(float(data["bias"]), {k: float(v) for k, v in data["weights"].items()},
                   float(data["threshold"]))


@cache
def load_context_model() -> ContextModel | None:
    """The shipped model, its SHA-256 checked; ``None`` when none is shipped."""
    if not MODEL_FILE.is_file():
        return None
    data = MODEL_FILE.read_bytes()
    want = HASH_FILE.read_text(encoding="utf-8").split()[0] if HASH_FILE.is_file() else ""
    if hashlib.sha256(data).hexdigest() != want:
        raise ModelError(f"{MODEL_FILE}: SHA-256 does not match {HASH_FILE.name}")
    try:
        return ContextModel.from_json(json.loads(data))
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ModelError(f"{MODEL_FILE}: not a context model ({e})") from e


@cache
def _embedder() -> Any:
    """wordllama's bundled table, loaded once, never from the network."""
    from pathlib import Path

    import wordllama

    return wordllama.WordLlama.load(cache_dir=Path(wordllama.__file__).parent,
                                    disable_download=True)


def embed(texts: Sequence[str]) -> np.ndarray:
    """Unit vectors of ``texts`` (a row of zeros for a text without words)."""
    import numpy as np

    vectors = np.zeros((len(texts), 256), dtype=np.float32)
    full = [k for k, text in enumerate(texts) if any(c.isalnum() for c in text)]
    if full:
        vectors[full] = np.asarray(_embedder().embed([texts[k] for k in full], norm=True,
                                                       batch_size=EMBED_BATCH),
                                   dtype=np.float32)
    return vectors


class Contexts:
    """What surrounds each group of a corpus: its sentences' and its article's embeddings
    (computed once, on demand, for the groups a candidate pair names) and its article's other
    names."""

    def __init__(self, extractions: Iterable[Extraction], groups: Sequence[Group]) -> None:
        self.groups = groups
        self.texts: dict[str, str] = {}
        self.sentences: dict[str, list[tuple[int, int]]] = {}
        for extraction in extractions:
            doc = extraction.document.doc_id
            self.texts[doc] = extraction.document.text
            self.sentences[doc] = sorted((s.begin, s.end) for s in extraction.sentences)
        self.names: dict[str, set[tuple[str, ...]]] = {}
        for group in groups:
            self.names.setdefault(group.doc_id, set()).add(comparison_tokens(group.anchor))
        self._vectors: dict[int, Any] = {}
        self._articles: dict[str, Any] = {}

    def prepare(self, indices: Iterable[int]) -> None:
        """Embed, in two batches, the groups ``indices`` and their articles not yet embedded."""
        todo = sorted({i for i in indices if i not in self._vectors})
        docs = sorted({self.groups[i].doc_id for i in todo} - set(self._articles))
        for doc, vector in zip(docs, embed([self.texts.get(d, "")[:OPENING] for d in docs]),
                               strict=True):
            self._articles[doc] = vector
        for i, vector in zip(todo, embed([self._sentences_of(i) for i in todo]), strict=True):
            self._vectors[i] = vector

    def _sentences_of(self, i: int) -> str:
        """The sentences of group ``i``'s first mentions, each with the mention blanked."""
        group = self.groups[i]
        text, bounds = self.texts.get(group.doc_id, ""), self.sentences.get(group.doc_id, [])
        parts: dict[tuple[int, int], str] = {}
        for _doc, begin, end in sorted(group.refs)[: 3 * SENTENCES_PER_GROUP]:
            span = next(((b, e) for b, e in bounds if b <= begin < e), (begin, end))
            if span not in parts and len(parts) < SENTENCES_PER_GROUP:
                parts[span] = text[span[0]:begin] + " " + text[end:span[1]]
        return " ".join(parts.values())

    def vector(self, i: int) -> Any:
        self.prepare((i,))
        return self._vectors[i]

    def article(self, i: int) -> Any:
        self.prepare((i,))
        return self._articles[self.groups[i].doc_id]

    def other_names(self, i: int) -> set[tuple[str, ...]]:
        group = self.groups[i]
        return self.names.get(group.doc_id, set()) - {comparison_tokens(group.anchor)}


def pair_features(contexts: Contexts, i: int, j: int, relation: str) -> dict[str, float]:
    """The features of a candidate pair of groups: each of the context's signals alone and
    beside the relation that blocked the pair.

    ``ctx`` and ``art`` are cosines (sentences, articles), ``names`` the share of the smaller
    article's other names the other article names too; the rest are indicators."""
    a, b = contexts.groups[i], contexts.groups[j]
    ctx = float(contexts.vector(i) @ contexts.vector(j))
    art = float(contexts.article(i) @ contexts.article(j))
    mine, theirs = contexts.other_names(i), contexts.other_names(j)
    shared = len(mine & theirs) / max(1, min(len(mine), len(theirs)))
    kinds = "-".join(sorted((a.kind.value, b.kind.value)))
    features = {"ctx": ctx, "art": art, "names": shared, f"rel={relation}": 1.0,
                f"ctx|{relation}": ctx, f"art|{relation}": art, f"names|{relation}": shared,
                f"kinds={kinds}": 1.0, "same-doc": float(a.doc_id == b.doc_id),
                "evidence": float(a.evidence and b.evidence),
                "one-word": float(min(len(comparison_tokens(a.anchor)),
                                      len(comparison_tokens(b.anchor))) == 1)}
    if a.kind is EntityKind.PERSON or b.kind is EntityKind.PERSON:
        features["person"] = 1.0
    return features
