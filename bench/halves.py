"""Every dev or judged set, split once into a *tune* half and a *check* half.

Rules are written and tuned looking only at the tune half; the check half is read by the
measuring scripts alone (``bench/ablate.py``, ``bench/precision.py --half check``), never while
a rule is written. A unit's half is decided by a salted SHA-256 of its key, so it never moves
when a set grows, a file is reordered or a rule changes:

* BBC articles and the judged rows of ``tests/eval/precision``: by article id
  (``bbc-business-001``) — a rule tuned on one sentence of an article sees the rest of it;
* CoNLL-2003 dev and train, wikigold: by document (``conll-dev:17``, its place in the file) —
  label consistency is per document; a CoNLL document built as an article has the id
  ``conll-dev-17`` and ``unit`` gives its key;
* BTC section g: by tweet (``btc-g:405``);
* ECB+ dev: by topic (``ecb:5``) — coreference is scored within a topic;
* the facts set (``tests/eval/facts``): already split, ``cases.jsonl`` tune and
  ``heldout.jsonl`` check.

>>> half("bbc-business-001") in ("tune", "check")
True
>>> half("ecb:1") == half("ecb:1")
True
>>> sorted({half(f"bbc-tech-{i:03d}") for i in range(20)})
['check', 'tune']
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from typing import Literal, TypeVar

__all__ = ["SALT", "Half", "half", "in_half", "split", "unit"]

#: Changing the salt would re-deal every unit and void every check figure: never change it.
SALT = "kg-halves-2026-12"

Half = Literal["tune", "check"]
T = TypeVar("T")


def half(key: str) -> Half:
    """The half ``key`` (an article id, ``conll-dev:17``, ``ecb:5`` …) belongs to."""
    digest = hashlib.sha256(f"{SALT}:{key}".encode()).digest()
    return "check" if digest[0] & 1 else "tune"


def unit(article: str) -> str:
    """The key an article id is halved by: a CoNLL document's place in its file (the id
    ``conll-train-17`` is keyed ``conll-train:17``, as ``bench/ledger_eval.py`` halves CoNLL),
    an ECB+ document its topic (``1_10ecb`` is keyed ``ecb:1``), any other article its id.

    >>> unit("conll-train-17"), unit("conll-dev-3"), unit("bbc-tech-007")
    ('conll-train:17', 'conll-dev:3', 'bbc-tech-007')
    >>> unit("1_10ecb"), unit("16_3ecbplus")
    ('ecb:1', 'ecb:16')
    """
    found = re.fullmatch(r"(conll-(?:train|dev))-(\d+)", article)
    if found:
        return f"{found[1]}:{found[2]}"
    topic = re.fullmatch(r"(\d+)_\d+ecb(?:plus)?", article)
    return f"ecb:{topic[1]}" if topic else article


def in_half(items: Iterable[T], key: Callable[[T], str], which: Half) -> list[T]:
    """The items of one half, in their order.

    >>> in_half(["ecb:1", "ecb:3", "ecb:4"], str, "tune") + in_half(
    ...     ["ecb:1", "ecb:3", "ecb:4"], str, "check") != []
    True
    """
    return [item for item in items if half(key(item)) == which]


def split(items: Iterable[T], key: Callable[[T], str]) -> dict[Half, list[T]]:
    """Both halves of ``items``, each in its order."""
    halves: dict[Half, list[T]] = {"tune": [], "check": []}
    for item in items:
        halves[half(key(item))].append(item)
    return halves
