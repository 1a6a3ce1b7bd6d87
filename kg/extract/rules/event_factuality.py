"""Whether the sentence states that an event happened: a small learned model.

The cues of ``event_senses`` (negation, modals, "can", an "if" clause, "going to", what is
dodged; heuristics ``event.factuality.*``) catch the forms someone wrote down; this model
learns the rest from judged examples: a logistic regression over what the parse says of the
trigger's mood, tense and the clauses above it — negation, modal and other auxiliaries, its
tag, the lemmas of the verbs it is the complement of ("agreed to buy", "plans to sell",
"hopes to meet", "denied"), a "to"-infinitive, a condition, a question, the words of time and
frequency on its clause, a bare plural subject, a headline without a full stop, and the
trigger's own lemma. No word list: which governing verbs or adverbs matter, and how much, is
learned from the data.

It was trained (``bench/train_factuality.py``, ``make train-factuality``) on tune data only:
the judged event rows (right: happened; wrong because the event did not happen: not
happened; wrong for another reason: left out) and event triggers judged on their factuality
alone in unjudged tune-half BBC articles; ``docs/factuality-card.md`` gives its data and
figures. The weights ship in ``kg/extract/rules/factuality_model/`` with their SHA-256,
checked on load. An event the model reads as not happened (below the threshold) is not
written, as the cues' are; one already written as planned or generic is left as it is.

It ships **on**, cutting at the threshold chosen on the tune half's out-of-fold
probabilities (0.33): on the check half it took out 35 judged-wrong event rows for 4 right
ones, held-out facts recall did not move, and it leaves out 1 of the seed articles' 21 events
(Russia "pushing … to encircle Ukrainian troops": an aim).

>>> model = FactualityModel(1.0, {"gov=agree": -3.0}, 0.5)
>>> model.probability({"gov=agree": 1.0}) < 0.5 < model.probability({"gov=say": 1.0})
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from kg.extract.rules.learned import load_model, logistic
from kg.heuristics import applies, declare
from kg.resources import PACKAGE_DIR

if TYPE_CHECKING:
    from spacy.tokens import Token

__all__ = ["FACTUALITY_RULE", "FactualityModel", "factuality_features", "happened",
           "load_factuality_model", "not_happened"]

MODEL_DIR = PACKAGE_DIR / "extract" / "rules" / "factuality_model"
MODEL_FILE = MODEL_DIR / "event-factuality.json"
HASH_FILE = MODEL_DIR / "event-factuality.sha256"
#: The dependencies along which a clause is the complement, object or modifier of the one
#: above it: the walk from the trigger up to the verbs that govern it.
CHAIN_DEPS = frozenset({"xcomp", "ccomp", "dobj", "pobj", "prep", "pcomp", "acl", "conj",
                        "advcl", "relcl", "nsubj", "nsubjpass", "attr", "oprd", "appos"})
#: The children of a clause that say its mood, time or frequency.
MOOD_DEPS = frozenset({"aux", "auxpass", "neg", "mark", "advmod", "npadvmod", "prt"})
#: How far up the walk goes.
DEPTH = 4

FACTUALITY_RULE = "event.learned-factuality"
declare(FACTUALITY_RULE, "facts.event", reads="the trigger's mood, tense and auxiliaries, the "
        "verbs above it, words of time and frequency on its clauses, a condition or question",
        writes="drops the event (not stated as happened; not written)",
        description="An event the learned factuality model (docs/factuality-card.md) reads as "
                    "not happened — agreed but not completed, planned, hoped, speculated, "
                    "habitual — is not stated as happened.",
        example="Velmar Holdings has agreed to buy the Riga brewer Baltika for $2bn.")


@dataclass(frozen=True)
class FactualityModel:
    """A logistic model over sparse features of a trigger's parse, with its threshold."""

    bias: float
    weights: dict[str, float]
    #: The probability of having happened below which an event is not written.
    threshold: float
    #: The threshold chosen on the tune half; ``threshold`` is the one shipped: this one where
    #: the check half bore it out, else 0 (no event dropped: the heuristic is switched off).
    tuned_threshold: float = 0.0

    def probability(self, features: dict[str, float]) -> float:
        """The probability that the sentence states the event as happened."""
        return logistic(self.bias, self.weights, features)

    def to_json(self) -> dict[str, Any]:
        return {"bias": self.bias, "threshold": self.threshold,
                "tuned_threshold": self.tuned_threshold,
                "weights": dict(sorted(self.weights.items()))}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FactualityModel:
        return cls(float(data["bias"]), {k: float(v) for k, v in data["weights"].items()},
                   float(data["threshold"]), float(data.get("tuned_threshold",
                                                            data["threshold"])))


@cache
def load_factuality_model() -> FactualityModel | None:
    """The shipped model (``None`` when the package has none: every event kept);
    ``ModelError`` when its file does not match its recorded hash."""
    return load_model(MODEL_FILE, HASH_FILE, "the event-factuality model's weights",
                      "run make train-factuality", FactualityModel.from_json)


def _lemma(token: Token) -> str:
    return token.lemma_.lower()


def _clause_features(verb: Token, prefix: str, found: dict[str, float]) -> None:
    """What one clause's own children say of its mood and time: auxiliaries, negation,
    markers ("if", "whether"), adverbs and phrases of time ("next week", "usually"), its
    tag, and a bare plural subject ("rebels attack")."""
    found[f"{prefix}tag={verb.tag_}"] = 1.0
    for child in verb.children:
        if child.dep_ in MOOD_DEPS:
            found[f"{prefix}{child.dep_}={child.lower_}"] = 1.0
            if child.dep_ == "npadvmod":  # "next week", "every year", "last month"
                for d in child.children:
                    if d.dep_ in {"amod", "det"}:
                        found[f"{prefix}time={d.lower_}"] = 1.0
        elif child.dep_ == "advcl":
            for m in child.children:
                if m.dep_ == "mark":
                    found[f"{prefix}advcl-mark={m.lower_}"] = 1.0
        elif child.dep_ == "prep":
            for obj in (o for o in child.children if o.dep_ == "pobj"):
                if obj.ent_type_ in {"DATE", "TIME"}:
                    for d in obj.subtree:
                        if d.ent_type_ in {"DATE", "TIME"} and d.is_alpha:
                            found[f"{prefix}date-word={d.lower_}"] = 1.0
        elif child.dep_ == "nsubj" and child.tag_ == "NNS" and not any(
                d.dep_ in {"det", "poss", "nummod"} for d in child.children) \
                and not child.ent_type_:
            found[f"{prefix}bare-plural-subject"] = 1.0


def factuality_features(token: Token) -> dict[str, float]:
    """The sparse features of a trigger the model weighs (see the module's doc)."""
    lemma = _lemma(token)
    sent = token.sent
    found = {f"lemma={lemma}": 1.0, f"pos={token.pos_}": 1.0, f"tag={token.tag_}": 1.0,
             f"dep={token.dep_}": 1.0}
    text = sent.text.rstrip()
    if text.endswith("?"):
        found["question"] = 1.0
    if text[-1:] not in {".", "?", "!", '"', "'", "\u201d"}:
        found["headline"] = 1.0
    if token.pos_ != "VERB":
        for child in token.children:
            if child.dep_ in {"amod", "det", "compound", "poss"}:
                found[f"noun-{child.dep_}={_lemma(child)}"] = 1.0
    for d in sent:
        if d.ent_type_ in {"DATE", "TIME"} and d.is_alpha:
            found[f"sent-date-word={d.lower_}"] = 1.0
    _clause_features(token, "", found)
    current = token
    for depth in range(DEPTH):
        governor = current.head
        if governor.i == current.i or current.dep_ not in CHAIN_DEPS:
            break
        path = f"{current.dep_}>{governor.pos_}"
        found[f"up{depth}={path}"] = 1.0
        if governor.pos_ in {"VERB", "AUX", "ADJ", "NOUN"}:
            found[f"gov={_lemma(governor)}"] = 1.0
            found[f"gov|dep={_lemma(governor)}|{current.dep_}"] = 1.0
            if depth == 0:
                found[f"gov0={_lemma(governor)}"] = 1.0
            if governor.pos_ in {"VERB", "AUX"}:
                _clause_features(governor, "gov-", found)
        current = governor
    return found


def happened(token: Token, model: FactualityModel | None = None) -> float | None:
    """The model's probability that the sentence states ``token``'s event as happened
    (``None`` without a model)."""
    model = model or load_factuality_model()
    if model is None:
        return None
    return model.probability(factuality_features(token))


def not_happened(token: Token) -> bool:
    """Whether the model, when it is on, reads ``token``'s event as not happened (recorded as
    the heuristic's fire). A model shipped with threshold 0 is not asked."""
    def unreal() -> bool:
        model = load_factuality_model()
        if model is None or model.threshold <= 0:
            return False
        return model.probability(factuality_features(token)) < model.threshold

    return applies(FACTUALITY_RULE, unreal)
