"""The registry of every heuristic kg applies, and the switches that turn one off.

Each stage of extraction and resolution is a list of small steps, declared here by the modules
that hold them (as spaCy's registries do) and run from here in their declared order: the
tagger's spans mended and dropped, a mention's class corrected, names the tagger missed
recovered, line and table rules, fact rules, the joins of resolution and the class cues.
A heuristic is declared once, with its id, its stage, what it reads and what it writes, the
confidence model of what it produces and an example; ``kg rules`` prints them all and
``docs/rules.md`` is generated from them.

Any heuristic can be switched off, for one build (``Settings.rules_off``, ``kg build --rules
-ID``) or for a measurement (``bench/ablate.py``): the stage runners ask ``steps(stage)``, which
leaves out what is off; a step that is one test inside a larger one asks ``applies(id, test)``,
one reading inside a larger one ``found(id, find)``.
Where a heuristic changed something is recorded while a ``firing()`` log is open (the tests
check that each fires on its example; the ablation re-runs only the documents it fired in).

>>> @heuristic("doc.example", "ner.drop", reads="a span", writes="drops it",
...            description="An example.", example="X.", register=False)
... def example(span): return False
>>> example.heuristic.stage
'ner.drop'
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

__all__ = [
    "STAGES", "FireLog", "Heuristic", "all_heuristics", "applies", "declare", "expand_switches",
    "fired", "firing", "found", "heuristic", "in_document", "is_on", "rules_off", "steps",
    "switched_off",
]

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

#: The stages, in the order a build runs them, with what a step of each is handed.
STAGES: dict[str, str] = {
    "sentences": "a chunk's text before the parser: where a sentence must start",
    "ner.combine.label": "a news NER span beside the small model's: relabelled or dropped "
                         "(the first rule that applies), and the merge's document-wide rules",
    "ner.combine.mend": "a news NER span beside the small model's: its bounds and label mended",
    "ner.spans": "the tagger's entity spans of a parsed chunk, mended as a list",
    "ner.drop": "one entity span: whether it is no name at all",
    "ner.split": "one entity span: the names it is made of, when it glues several",
    "ner.mention": "one cleaned mention's bounds and class, in token terms",
    "ner.class": "a mention's words: the class they imply where the tagger's contradicts them",
    "recovery": "an article's text and mentions: names the tagger missed",
    "lines": "an article's text and mentions: line, table and headline rules",
    "descriptions": "people an article describes without naming them",
    "facts.role": "a person mention in a parsed chunk: their posts",
    "facts.relation": "a parsed chunk: relations between two named things",
    "facts.figure": "a number in a parsed chunk: a figure of what is counted",
    "facts.event": "a trigger word in a parsed chunk: an event, its sense and who took part",
    "facts.claim": "a speech cue in a parsed chunk: who claimed what",
    "corpus-names": "every article's mentions: names and non-names the corpus settles",
    "resolve.article": "the name groups of one article: which are one thing",
    "resolve.corpus": "the groups of every article: which are one thing",
    "resolve.class": "a group's or an entity's mentions: which class it is",
    "resolve.entities": "the resolved entities: split, retyped or joined again",
    "rdf": "resolved facts as they are written: what is left out of the graph",
    "ledger": "every article's figures, resolved: which are one measured thing, which of them "
              "disagree, and how",
}


@dataclass(frozen=True, slots=True)
class Heuristic:
    """One heuristic: what it is, where it runs, what it reads and writes, how sure it is."""

    id: str
    stage: str
    reads: str
    writes: str
    description: str
    example: str
    #: A fact rule's confidence for a fact found with all its parts (the rule may lower it);
    #: ``None`` for a heuristic that corrects or joins rather than states a fact.
    confidence: float | None = None
    #: How the confidence of what it produces is reckoned: "prior, then the verifier" for a
    #: fact rule, "join score 0.9" for a join, "—" for a correction.
    model: str = "—"
    order: int = 0  # its place in the declaration order (the order its stage runs it in)
    fn: Callable[..., Any] | None = None

    @property
    def prior(self) -> float:
        """A fact rule's confidence (an error for a heuristic that states no fact)."""
        if self.confidence is None:
            raise ValueError(f"heuristic {self.id} states no fact: it has no confidence")
        return self.confidence

    @property
    def produces(self) -> str:
        """What a fact rule produces (its ``writes``: Membership, Relation, Event …)."""
        return self.writes

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        assert self.fn is not None, f"heuristic {self.id} has no function"
        return self.fn(*args, **kwargs)


class FireLog:
    """Where heuristics changed something: heuristic id → the documents (``"*"`` where no one
    document is concerned, as in a join across articles)."""

    def __init__(self) -> None:
        self.documents: dict[str, set[str]] = {}

    def add(self, id: str, document: str) -> None:
        self.documents.setdefault(id, set()).add(document)

    def __contains__(self, id: str) -> bool:
        return id in self.documents


_REGISTRY: dict[str, Heuristic] = {}
_OFF: ContextVar[frozenset[str]] = ContextVar("kg_rules_off", default=frozenset())
_LOG: ContextVar[FireLog | None] = ContextVar("kg_fire_log", default=None)
_DOCUMENT: ContextVar[str] = ContextVar("kg_document", default="*")


def declare(
    id: str, stage: str, *, reads: str, writes: str, description: str, example: str,
    confidence: float | None = None, model: str = "—", fn: Callable[..., Any] | None = None,
    register: bool = True,
) -> Heuristic:
    """Declare a heuristic (once: a second declaration of an id is an error).

    >>> declare("x.y", "nowhere", reads="r", writes="w", description="d", example="e",
    ...         register=False)
    Traceback (most recent call last):
    ...
    ValueError: heuristic x.y: unknown stage 'nowhere'
    """
    if stage not in STAGES:
        raise ValueError(f"heuristic {id}: unknown stage {stage!r}")
    if confidence is not None and not 0 < confidence <= 1:
        raise ValueError(f"heuristic {id}: confidence {confidence} is not between 0 and 1")
    declared = Heuristic(id, stage, reads, writes, description, example, confidence, model,
                         len(_REGISTRY), fn)
    if register:
        if id in _REGISTRY:
            raise ValueError(f"heuristic {id} is declared twice")
        _REGISTRY[id] = declared
        _steps.cache_clear()
    return declared


def heuristic(
    id: str, stage: str, *, reads: str, writes: str, description: str, example: str,
    confidence: float | None = None, model: str = "—", register: bool = True,
) -> Callable[[F], F]:
    """Decorate a step function: declared with ``declare`` and run by its stage's runner; the
    function keeps working as a plain function and gets a ``heuristic`` attribute."""
    def decorate(fn: F) -> F:
        declared = declare(id, stage, reads=reads, writes=writes, description=description,
                           example=example, confidence=confidence, model=model, fn=fn,
                           register=register)
        fn.heuristic = declared  # type: ignore[attr-defined]
        return fn
    return decorate


def all_heuristics() -> tuple[Heuristic, ...]:
    """Every declared heuristic, by stage (in the order the build runs the stages) and then in
    declaration order. ``kg.extract`` and ``kg.resolve`` import every module that declares one."""
    stages = list(STAGES)
    return tuple(sorted(_REGISTRY.values(), key=lambda h: (stages.index(h.stage), h.order)))


def steps(stage: str) -> tuple[Heuristic, ...]:
    """The heuristics of ``stage`` that are on, in declaration order (what its runner runs)."""
    return _steps(stage, _OFF.get())


@lru_cache(maxsize=256)
def _steps(stage: str, off: frozenset[str]) -> tuple[Heuristic, ...]:
    return tuple(h for h in all_heuristics() if h.stage == stage and h.id not in off)


def is_on(id: str) -> bool:
    """Whether heuristic ``id`` runs (a step that is a test inside a larger one asks this)."""
    return id not in _OFF.get()


def applies(id: str, test: Callable[[], object]) -> bool:
    """Whether heuristic ``id`` is on and ``test()`` holds (recorded as a fire when it does):
    the form of a heuristic that is one condition inside a larger step.

    >>> applies("doc.unknown", lambda: True)
    True
    """
    if id in _OFF.get() or not test():
        return False
    fired(id)
    return True


def found(id: str, find: Callable[[], T | None]) -> T | None:
    """What heuristic ``id`` finds (``None`` when it is off, ``find()`` not even asked), recorded
    as a fire when it finds something: the form of a heuristic that is one reading inside a
    larger step.

    >>> found("doc.unknown", lambda: "a period"), found("doc.unknown", lambda: None)
    ('a period', None)
    """
    if id in _OFF.get():
        return None
    result = find()
    if result is not None:
        fired(id)
    return result


def fired(id: str) -> None:
    """Record that heuristic ``id`` changed something (a no-op unless a log is open)."""
    log = _LOG.get()
    if log is not None:
        log.add(id, _DOCUMENT.get())


@contextmanager
def firing() -> Iterator[FireLog]:
    """Record, inside the block, where each heuristic changed something."""
    log = FireLog()
    token = _LOG.set(log)
    try:
        yield log
    finally:
        _LOG.reset(token)


@contextmanager
def in_document(doc_id: str) -> Iterator[None]:
    """Fires recorded inside the block concern the document ``doc_id``."""
    token = _DOCUMENT.set(doc_id)
    try:
        yield
    finally:
        _DOCUMENT.reset(token)


def rules_off() -> frozenset[str]:
    """The ids switched off where this is asked."""
    return _OFF.get()


@contextmanager
def switched_off(ids: Iterable[str]) -> Iterator[None]:
    """Run the block with the heuristics ``ids`` off (on again after it); inside another such
    block, the outer block's heuristics stay off too."""
    token = _OFF.set(_OFF.get() | frozenset(ids))
    try:
        yield
    finally:
        _OFF.reset(token)


def expand_switches(spec: Iterable[str]) -> frozenset[str]:
    """The ids a list of switches turns off: an id or a pattern (``resolve.corpus.*``), each
    with an optional leading "-"; a leading "+" turns back on what an earlier pattern turned
    off. An unknown id or a pattern that matches nothing is an error.

    >>> expand_switches(["-doc.nothing"])
    Traceback (most recent call last):
    ...
    ValueError: no heuristic is called 'doc.nothing' (kg rules lists them)
    """
    off: set[str] = set()
    known = [h.id for h in all_heuristics()]
    for raw in spec:
        item = raw.strip()
        if not item:
            continue
        on, pattern = item.startswith("+"), item.lstrip("+-")
        matched = fnmatch.filter(known, pattern)
        if not matched:
            raise ValueError(f"no heuristic is called {pattern!r} (kg rules lists them)")
        off = off - set(matched) if on else off | set(matched)
    return frozenset(off)
