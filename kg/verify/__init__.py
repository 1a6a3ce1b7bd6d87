"""The verifier: a calibrated confidence for each role, claim and event, and the threshold a
fact must clear to be written.

    extractions ─▶ resolution ─▶ verify ─▶ rdf
                                 confidence = P(the fact is right), learned from judged rows

Each kind of fact (``Membership``, ``Claim``, ``Event``) has a small logistic model over the
fact's signals (``kg.extract.rules.signals``: rule, trigger, negation, modality, tense, hedges,
how the speaker was found …) and what resolution knows of its parts (their classes), calibrated
on held-out judgements so that its output reads as a probability of being right. Its
threshold was chosen on the tune half of the judged rows for precision ≥ 0.85; a fact below it
is not written unless the caller asks for more (``Settings.min_confidence``, ``kg build
--min-confidence``). The model ships in ``kg/verify/model/`` with its hash
(``docs/verifier-card.md`` says what it was trained on and how well it is calibrated;
``make train-verifier`` rebuilds it).

>>> from kg.model import Resolution
>>> verified([], Resolution((), {}))
[]
"""

from kg.verify.features import fact_features
from kg.verify.model import VerifierModel, load_verifier, verified

__all__ = ["VerifierModel", "fact_features", "load_verifier", "verified"]
