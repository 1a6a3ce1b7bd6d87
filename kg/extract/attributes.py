"""The small model's ``attribute_ruler``, matched through tables instead of spaCy's Matcher.

The ruler maps tags to parts of speech and morphology with 179 one-token patterns
(``{"TAG": "NNS"}``, ``{"LOWER": "'s", "TAG": "POS"}``): spaCy's Matcher tries every pattern
at every token, which cost about a sixth of the whole parse. Here a pattern of one token whose
values are plain strings, booleans or ``IN`` lists becomes a table entry (the token's values
→ the pattern's id); only the others (regular expressions, ``NOT_IN``, two-token patterns)
stay with a Matcher of their own. The matches, sorted as the ruler sorts them, are handed to
the ruler's own ``set_annotations``, so every token gets the same attributes as before.

>>> nlp = index_attribute_ruler(spacy.load(model_dir()))  # doctest: +SKIP
>>> [t.pos_ for t in nlp("She runs.")]  # doctest: +SKIP
['PRON', 'VERB', 'PUNCT']
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from spacy.attrs import DEP, IS_SPACE, LOWER, TAG
from spacy.language import Language
from spacy.matcher import Matcher
from spacy.pipeline import AttributeRuler
from spacy.tokens import Doc

#: Token attributes a table may key on, in the order of ``Doc.to_array``.
TABLE_ATTRS = ("TAG", "LOWER", "DEP", "IS_SPACE")
_ARRAY_ATTRS = [TAG, LOWER, DEP, IS_SPACE]

Match = tuple[int, int, int, int]  # (pattern id, match id, start, end), as the ruler sorts


class TableMatches:
    """``AttributeRuler.match`` for one ruler: the same matches, found through tables.

    A pattern token is a list of conditions on the token's ``TABLE_ATTRS`` values (string
    hashes, 0/1 for flags): a value among a set (a plain value, ``IN``), none of a set
    (``NOT_IN``), or a regular expression (``REGEX``, on the text the hash stands for). The
    value sets of a first token key a table; the rest of its conditions, and those of a second
    token, filter what the table gives. Patterns of another form stay with a Matcher.
    """

    def __init__(self, ruler: Any) -> None:
        self.strings = ruler.vocab.strings
        self.tables: dict[tuple[int, ...], dict[tuple[int, ...], list[Candidate]]] = {}
        self.scans: list[Candidate] = []  # first tokens with no value set to key a table on
        self.rest = Matcher(ruler.vocab)
        self._regex_hits: dict[tuple[str, int], bool] = {}
        for pattern_id, entry in enumerate(ruler.patterns):
            key = str(pattern_id)
            match_id = self.strings.add(key)
            for alternative in entry["patterns"]:
                tokens = [_conditions(t, self.strings) for t in alternative]
                if len(tokens) > 2 or any(t is None for t in tokens):
                    self.rest.add(key, [alternative])
                    continue
                first, *after = tokens
                keyed = [c for c in first if c[1] == "in"]  # type: ignore[union-attr]
                filters = [c for c in first if c[1] != "in"]  # type: ignore[union-attr]
                candidate = (pattern_id, match_id, filters, after[0] if after else None)
                if not keyed:
                    self.scans.append(candidate)
                    continue
                columns = tuple(c[0] for c in keyed)
                table = self.tables.setdefault(columns, {})
                for row in itertools.product(*(sorted(c[2]) for c in keyed)):
                    table.setdefault(row, []).append(candidate)

    def __call__(self, doc: Doc) -> list[Match]:
        found: set[Match] = set()
        if not len(doc):
            return []  # an empty text: nothing to match (and no columns to read)
        rows = doc.to_array(_ARRAY_ATTRS).tolist()
        columns_of = list(zip(*rows, strict=True))
        for columns, table in self.tables.items():
            keys = zip(*(columns_of[c] for c in columns), strict=True)
            for i, candidates in enumerate(map(table.get, keys)):
                if candidates is None:
                    continue
                for candidate in candidates:
                    if not candidate[2] and candidate[3] is None:  # the common, plain case
                        found.add((candidate[0], candidate[1], i, i + 1))
                    else:
                        self._add(found, candidate, rows, i)
        for candidate in self.scans:
            filters = candidate[2]
            if len(filters) == 1 and filters[0][1] == "regex":  # test each distinct value once
                column, _, pattern = filters[0]
                values = columns_of[column]
                hits = {v for v in set(values) if self._regex(pattern, v)}
                for i, value in enumerate(values):
                    if value in hits:
                        self._add(found, candidate, rows, i)
                continue
            for i in range(len(rows)):
                self._add(found, candidate, rows, i)
        if len(self.rest):
            for match_id, start, end in self.rest(doc, allow_missing=True, as_spans=False):
                found.add((int(self.strings[match_id]), match_id, start, end))
        return sorted(found)

    def _add(self, found: set[Match], candidate: Candidate, rows: list[list[int]],
             i: int) -> None:
        pattern_id, match_id, filters, second = candidate
        if not self._holds(filters, rows[i]):
            return
        if second is None:
            found.add((pattern_id, match_id, i, i + 1))
        elif i + 1 < len(rows) and self._holds(second, rows[i + 1]):
            found.add((pattern_id, match_id, i, i + 2))

    def _holds(self, conditions: list[Condition], row: list[int]) -> bool:
        for column, kind, payload in conditions:
            value = row[column]
            if kind == "in":
                if value not in payload:
                    return False
            elif kind == "not_in":
                if value in payload:
                    return False
            elif not self._regex(payload, value):
                return False
        return True

    def _regex(self, pattern: Any, value: int) -> bool:
        key = (pattern.pattern, value)
        hit = self._regex_hits.get(key)
        if hit is None:
            text = self.strings[value] if value in self.strings else ""
            hit = self._regex_hits[key] = bool(pattern.search(text))
        return hit


Condition = tuple[int, str, Any]  # (column, "in" | "not_in" | "regex", value set or pattern)
Candidate = tuple[int, int, list[Condition], list[Condition] | None]


def _conditions(token: Mapping[str, Any], strings: Any) -> list[Condition] | None:
    """A pattern token as conditions on ``TABLE_ATTRS`` columns; ``None`` for another form."""
    conditions: list[Condition] = []
    for name, value in token.items():
        if name not in TABLE_ATTRS:
            return None
        column = TABLE_ATTRS.index(name)

        def code(v: str | bool) -> int:
            return int(v) if isinstance(v, bool) else strings.add(v)

        if isinstance(value, str | bool):
            conditions.append((column, "in", frozenset({code(value)})))
        elif isinstance(value, dict) and len(value) == 1 and "IN" in value:
            conditions.append((column, "in", frozenset(code(v) for v in value["IN"])))
        elif isinstance(value, dict) and len(value) == 1 and "NOT_IN" in value:
            conditions.append((column, "not_in", frozenset(code(v) for v in value["NOT_IN"])))
        elif (isinstance(value, dict) and len(value) == 1 and "REGEX" in value
              and name == "LOWER"):
            conditions.append((column, "regex", re.compile(value["REGEX"])))
        else:
            return None
    return conditions


def index_attribute_ruler(nlp: Language) -> Language:
    """``nlp`` with its ``attribute_ruler`` (if any) matching through tables; returns it."""
    if "attribute_ruler" in nlp.pipe_names:
        ruler: Any = nlp.get_pipe("attribute_ruler")
        if isinstance(ruler, AttributeRuler) and not isinstance(ruler.match, TableMatches):
            # only the matching changes; the ruler sets the attributes as it always does
            ruler.match = TableMatches(ruler)  # type: ignore[method-assign]
    return nlp
