"""Syndicated copies: near-duplicate articles found with MinHash and LSH (datasketch).

A wire story republished by many outlets arrives with small edits: another first paragraph,
an editor's note at the end, another site's boilerplate. Exact copies are skipped when files
are read (``kg.ingest.files``); near-copies are found here without comparing every pair:

1. each article becomes the set of its word 5-grams (lower case, punctuation dropped), read
   from its paragraphs of running text only (lines of at least ``CONTENT_WORDS`` words), so a
   site's short boilerplate lines ("Share this article", "Advertisement", a dateline) do not
   make two different stories look alike; each 5-gram is a stable 32-bit hash (CRC-32 of its
   words, combined), the same in every build;
2. a 128-permutation MinHash of that set goes into an LSH index tuned to a Jaccard
   similarity of ``CANDIDATE_JACCARD``, which proposes candidate pairs in about linear time;
3. a candidate pair is a copy when the two sets overlap enough: their Jaccard similarity
   reaches ``COPY_JACCARD``, or the smaller one is ``COPY_CONTAINMENT`` inside the larger
   (a shortened copy), both computed exactly on the shingles of that pair only.

Copies form groups (a copy of a copy is in the same group). In each group the original is
the article published first (undated ones after dated ones, then the order they were read
in); every other article of the group is marked ``ArticleMeta.copy_of`` = the original's id,
which the graph writes as ``kg:copyOf``. Each copy keeps its own text, named graph and
evidence; only counts of independent sources count a group once.

>>> from kg.ingest.files import document_from_text
>>> story = " ".join(f"Sentence {i} of the wire story about the port talks." for i in range(30))
>>> a = document_from_text("Intro by A. " + story, doc_id="a")
>>> b = document_from_text("Intro by B. " + story + " Editor's note.", doc_id="b")
>>> [d.meta.copy_of for d in mark_copies([a, b])]
[None, 'a']
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from kg.model import Document

SHINGLE_WORDS = 5
CONTENT_WORDS = 8
PERMUTATIONS = 128
CANDIDATE_JACCARD = 0.15
COPY_JACCARD = 0.5
COPY_CONTAINMENT = 0.6
MIN_SHINGLES = 30  # shorter texts (a headline, a one-line brief) are never called copies

_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class CopyPair:
    """Two articles found to be copies of one story, and how much their texts overlap."""

    first: str
    second: str
    jaccard: float
    containment: float


def shingles(text: str, size: int = SHINGLE_WORDS) -> frozenset[int]:
    """The hashes of the ``size``-word shingles of ``text``'s running text.

    >>> len(shingles("one two three four five six")), len(shingles("The port, the port!", 2))
    (2, 2)
    """
    import numpy as np  # a dependency of datasketch; vectorised, hashing stays fast

    words = _content_words(text)
    if not words:
        return frozenset()
    codes = np.array(list(map(_WORD_CODES.__getitem__, words)), dtype=np.uint64)
    count = max(1, len(codes) - size + 1)
    value = np.full(count, 1469598103934665603, dtype=np.uint64)  # FNV-1a over word codes
    for k in range(min(size, len(codes))):
        value = (value ^ codes[k:k + count]) * np.uint64(1099511628211)
    folded = (value ^ (value >> np.uint64(32))) & np.uint64(0xFFFFFFFF)
    return frozenset(folded.tolist())


def _content_words(text: str) -> list[str]:
    lines = [line for line in text.lower().split("\n") if line.strip()]
    content = [w for line in lines if len(words := _WORD.findall(line)) >= CONTENT_WORDS
               for w in words]
    return content if len(content) >= MIN_SHINGLES else _WORD.findall(text.lower())


class _WordCodes(dict[str, int]):
    """CRC-32 of each word, computed once (a stable code, unlike ``hash()``)."""

    def __missing__(self, word: str) -> int:
        if len(self) > 1 << 20:
            self.clear()
        code = self[word] = zlib.crc32(word.encode("utf-8", "surrogatepass"))
        return code


_WORD_CODES = _WordCodes()


def find_copy_pairs(texts: Sequence[str]) -> list[CopyPair]:
    """Pairs ``(i, j)`` (as strings of their indices, i < j) of texts that are near-copies.

    >>> story = " ".join(f"w{i}" for i in range(80))
    >>> other = " ".join(f"x{i}" for i in range(80))
    >>> [(p.first, p.second) for p in find_copy_pairs([story + " end", "Intro " + story, other])]
    [('0', '1')]
    """
    from datasketch import MinHash, MinHashLSH  # imported here: only builds need it

    sets = [shingles(text) for text in texts]
    lsh = MinHashLSH(threshold=CANDIDATE_JACCARD, num_perm=PERMUTATIONS)
    template = MinHash(num_perm=PERMUTATIONS)  # permutations drawn once, not once per text
    hashes: dict[int, Any] = {}
    for index, shingle_set in enumerate(sets):
        if len(shingle_set) < MIN_SHINGLES:
            continue
        minhash = MinHash(num_perm=PERMUTATIONS, hashfunc=_identity, scheme=template.scheme,
                          permutations=template.permutations)
        minhash.update_batch(list(shingle_set))
        hashes[index] = minhash
        lsh.insert(index, minhash, check_duplication=False)
    pairs: list[CopyPair] = []
    for index, minhash in hashes.items():
        for other in lsh.query(minhash):
            if other > index and _plausible(minhash, hashes[other], len(sets[index]),
                                            len(sets[other])):
                if (pair := _verified(index, other, sets)) is not None:
                    pairs.append(pair)
    return sorted(pairs, key=lambda p: (int(p.first), int(p.second)))


def _identity(value: int) -> int:
    return value


def _plausible(first: Any, second: Any, size_1: int, size_2: int) -> bool:
    """Whether the MinHash estimate leaves the pair a chance: LSH at a low threshold proposes
    many pairs, and comparing 128 hash values is cheaper than intersecting two sets. The
    margins are about four standard errors of the estimate, so no copy is lost here."""
    jaccard = float((first.hashvalues == second.hashvalues).mean())
    common = jaccard * (size_1 + size_2) / (1 + jaccard)
    containment = common / min(size_1, size_2)
    return jaccard >= COPY_JACCARD - 0.2 or containment >= COPY_CONTAINMENT - 0.3


def _verified(i: int, j: int, sets: Sequence[frozenset[int]]) -> CopyPair | None:
    common = len(sets[i] & sets[j])
    jaccard = common / len(sets[i] | sets[j])
    containment = common / min(len(sets[i]), len(sets[j]))
    if jaccard >= COPY_JACCARD or containment >= COPY_CONTAINMENT:
        return CopyPair(str(i), str(j), round(jaccard, 3), round(containment, 3))
    return None


def copy_groups(documents: Sequence[Document]) -> dict[str, str]:
    """Each copy's ``doc_id`` -> the ``doc_id`` of its group's original (the first published).

    >>> copy_groups([])
    {}
    """
    pairs = find_copy_pairs([d.text for d in documents])
    parent = list(range(len(documents)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for pair in pairs:
        a, b = root(int(pair.first)), root(int(pair.second))
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(len(documents)):
        groups.setdefault(root(i), []).append(i)
    originals: dict[str, str] = {}
    for members in groups.values():
        if len(members) < 2:
            continue
        first = min(members, key=lambda i: (_published(documents[i]), i))
        for i in members:
            if i != first:
                originals[documents[i].doc_id] = documents[first].doc_id
    return originals


def mark_copies(documents: Sequence[Document]) -> list[Document]:
    """``documents`` with ``meta.copy_of`` set on every near-copy (see the module docstring)."""
    originals = copy_groups(documents)
    return [replace(d, meta=replace(d.meta, copy_of=originals.get(d.doc_id)))
            if d.meta.copy_of != originals.get(d.doc_id) else d for d in documents]


def _published(document: Document) -> date:
    return document.meta.date_published or date.max
