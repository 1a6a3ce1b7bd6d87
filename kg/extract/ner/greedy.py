"""spaCy's greedy NER decoding, with the work that cannot change its result left out.

spaCy's ``ner`` (a ``TransitionBasedParser`` with ``beam_width`` 1) reads every token in a
loop: it scores the state, asks every one of its moves whether it is valid there (74 moves
for the small model's 18 labels), and takes the best valid move. Outside an entity the state
is the token alone (its features are the token, no entity start, no previous word), so the
scores of every token there are known at once from the token vectors; only the tokens inside
an entity need the loop. ``GreedyNer`` computes exactly spaCy's numbers (the same layers, the
same BLIS matrix product, the sums in spaCy's order) for the outside states of all tokens in
one product, and steps through the few entity tokens one by one: the same entities, without
the per-token, per-move checks that made the small model's ``ner`` the costliest part of a
build (see bench/RESULTS-ner.md; tests/test_ner_greedy.py compares it with spaCy's own run).

Only what the build needs is covered: a greedy ``ner`` with an upper layer (anything else is
refused, :func:`supports`) on a Doc without preset entities, as kg's pipeline runs both NERs;
a Doc that has entities already goes through spaCy's own decoding, which honours them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy
from blis.py import gemm
from spacy.attrs import IS_SPACE, SENT_START
from spacy.tokens import Doc, Span
from spacy.util import minibatch

#: The moves of spaCy's BILUO NER by their name's first letter.
BEGIN, IN, LAST, UNIT, OUT = "B", "I", "L", "U", "O"


def supports(ner: Any) -> bool:
    """Whether ``ner`` is a component this decoder reproduces: spaCy's greedy NER with three
    state features, an upper layer and every class seen in training.

    >>> supports(load_pipeline().get_pipe("ner"))  # doctest: +SKIP
    True
    """
    model = getattr(ner, "model", None)
    return (
        model is not None
        and ner.cfg.get("beam_width", 1) == 1
        and bool(model.attrs.get("has_upper"))
        and not model.attrs.get("unseen_classes")
        and model.get_ref("lower").get_dim("nF") == 3
        and all(_move(ner, i)[0] in (BEGIN, IN, LAST, UNIT, OUT)
                for i in range(ner.moves.n_moves))
    )


def _move(ner: Any, i: int) -> tuple[str, str]:
    name = ner.moves.get_class_name(i)
    return name[0], name[2:]


class GreedyNer:
    """Pipeline component: the entities of a spaCy greedy ``ner`` (the same weights, the same
    result) written to ``doc.ents``.

    >>> nlp = spacy.load(model_dir())  # doctest: +SKIP
    >>> fast = GreedyNer(nlp.get_pipe("ner"))  # doctest: +SKIP
    >>> [(e.text, e.label_) for e in fast(nlp.make_doc("Angela Merkel visited Paris.")).ents]
    ... # doctest: +SKIP
    [('Angela Merkel', 'PERSON'), ('Paris', 'GPE')]
    """

    def __init__(self, ner: Any) -> None:
        if not supports(ner):
            raise ValueError(f"{getattr(ner, 'name', ner)!r}: not a greedy spaCy NER this "
                             "decoder reproduces")
        model = ner.model
        self.ner = ner
        self.tok2vec = model.get_ref("tok2vec")
        self.lower = model.get_ref("lower")
        upper = model.get_ref("upper")
        self.weights = numpy.ascontiguousarray(upper.get_param("W"), dtype="f")
        self.bias = upper.get_param("b")
        moves = [_move(ner, i) for i in range(ner.moves.n_moves)]
        self.labels = [label for _kind, label in moves]
        kinds = numpy.array([kind for kind, _label in moves])
        real = numpy.array([bool(label) for label in self.labels])
        self.begin = (kinds == BEGIN) & real
        self.unit = (kinds == UNIT) & real
        self.out = int(numpy.flatnonzero(kinds == OUT)[0])
        self.inside = {label: i for i, (kind, label) in enumerate(moves) if kind == IN and label}
        self.last = {label: i for i, (kind, label) in enumerate(moves) if kind == LAST and label}

    def __call__(self, doc: Doc) -> Doc:
        return next(iter(self.pipe([doc])))

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        for batch in minibatch(docs, size=batch_size):
            preset = [doc for doc in batch if doc.has_annotation("ENT_IOB")]
            if preset:  # entities given beforehand: spaCy's own decoding honours them
                self.ner.set_annotations(preset, self.ner.predict(preset))
            fresh = [doc for doc in batch if not doc.has_annotation("ENT_IOB")]
            for doc, ents in zip(fresh, self.predict(fresh), strict=True):
                doc.set_ents([Span(doc, start, end, label=label) for start, end, label in ents],
                             default="outside")
            yield from batch

    def predict(self, docs: Sequence[Doc]) -> list[list[tuple[int, int, str]]]:
        """The (start, end, label) entities of each Doc (without preset entities), as
        spaCy's ``ner.predict`` and ``set_annotations`` give them."""
        if not any(len(doc) for doc in docs):
            return [[] for _doc in docs]
        tokvecs = self.tok2vec.predict(list(docs))
        cached = self.lower.predict(tokvecs)  # (1 + tokens, 3 features, hidden, pieces); 0: padding
        bias = self.lower.get_param("b")
        # a state outside an entity: the token's first feature, the padding for the other two,
        # summed as spaCy sums them (zero + f0, + f1, + f2, then the bias)
        outside = ((cached[1:, 0] + cached[0, 1]) + cached[0, 2]) + bias
        scores = self._scores(outside)
        found, offset = [], 0
        for doc in docs:
            n = len(doc)
            found.append(self._decode(doc, cached, bias, scores[offset : offset + n], offset))
            offset += n
        return found

    def _scores(self, unmaxed: numpy.ndarray) -> numpy.ndarray:
        hidden = numpy.ascontiguousarray(unmaxed.max(axis=-1), dtype="f")
        return gemm(hidden, self.weights, trans2=True) + self.bias

    def _decode(self, doc: Doc, cached: numpy.ndarray, bias: numpy.ndarray,
                scores: numpy.ndarray, offset: int) -> list[tuple[int, int, str]]:
        n = len(doc)
        if not n:
            return []
        flags = doc.to_array([IS_SPACE, SENT_START]).astype("int64")
        space = flags[:, 0].astype(bool)
        sent_start = flags[:, 1] == 1
        # Begin needs a next token that opens no sentence and a token that is not white space;
        # Unit a token that is not white space; Out is always valid outside an entity
        has_next = numpy.ones(n, dtype=bool)
        has_next[-1] = False
        next_opens = numpy.zeros(n, dtype=bool)
        next_opens[:-1] = sent_start[1:]
        can_begin = has_next & ~next_opens & ~space
        valid = numpy.zeros(scores.shape, dtype=bool)
        valid[:, self.out] = True
        valid |= self.begin[None, :] & can_begin[:, None]
        valid |= self.unit[None, :] & ~space[:, None]
        best = numpy.where(valid, scores, -numpy.inf).argmax(axis=1)
        ents: list[tuple[int, int, str]] = []
        i = 0
        for start in numpy.flatnonzero(best != self.out).tolist():
            if start < i:
                continue
            move = int(best[start])
            label = self.labels[move]
            if self.unit[move]:
                ents.append((start, start + 1, label))
                i = start + 1
                continue
            i = self._entity_end(cached, bias, offset, start, label, has_next, next_opens)
            ents.append((start, i, label))
        return ents

    def _entity_end(self, cached: numpy.ndarray, bias: numpy.ndarray, offset: int, start: int,
                    label: str, has_next: numpy.ndarray, next_opens: numpy.ndarray) -> int:
        """Where the entity begun at ``start`` ends: spaCy's state there is the token, the
        entity's first token and the token before; only In and Last of the label are valid
        (In not on the last token of the Doc or before a sentence start)."""
        inside, last = self.inside[label], self.last[label]
        first = cached[1 + offset + start, 1]
        j = start + 1
        while True:
            unmaxed = ((cached[1 + offset + j, 0] + first) + cached[offset + j, 2]) + bias
            row = self._scores(unmaxed[None])[0]
            can_continue = has_next[j] and not next_opens[j]
            # spaCy takes the first of equal best scores: the move with the lower index
            if can_continue and (row[inside] > row[last] or
                                 (row[inside] == row[last] and inside < last)):
                j += 1
            else:
                return j + 1
