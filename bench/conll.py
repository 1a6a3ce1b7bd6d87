"""CoNLL-2003's documents as text (Reuters newswire of 1996, ``../shared/data/conll2003``).

One place for the benches that read them (``bench/ledger_eval.py``, ``bench/precision.py
--corpus conll``): a document is its sentences' tokens joined by spaces, the sentences by
newlines, no dates given (its own dateline line "LONDON 1996-08-22" is its text); its id is
``conll-<file>-<N>``, N its place in the file, and its half ``half("conll-<file>:N")``
(``bench/halves.py``, ``unit``). The text is Reuters': evaluate with it, never commit it
(``../shared/data/README.md``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[1]
CONLL = PROJECT_ROOT.parent / "shared" / "data" / "conll2003"
CONLL_FILES = ("train", "dev")


def conll_texts(path: Path) -> list[str]:
    """The documents of a CoNLL-2003 file (``-DOCSTART-`` separates them), each its
    sentences' tokens joined by spaces, the sentences by newlines.

    >>> import tempfile
    >>> lines = ["-DOCSTART- -X- O O", "", "EU NNP B-NP B-ORG", "rejects VBZ B-VP O", "",
    ...          "BRUSSELS NNP B-NP B-LOC", "", "-DOCSTART- -X- O O", "", "Hi UH O O"]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "train.txt"
    ...     _ = path.write_text("\\n".join(lines), encoding="utf-8")
    ...     conll_texts(path)
    ['EU rejects\\nBRUSSELS', 'Hi']
    """
    documents: list[list[str]] = []
    tokens: list[str] = []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        columns = line.split()
        if columns and columns[0] == "-DOCSTART-":
            documents.append([])
        elif columns:
            tokens.append(columns[0])
        elif tokens:
            if not documents:
                documents.append([])
            documents[-1].append(" ".join(tokens))
            tokens = []
    return ["\n".join(sentences) for sentences in documents if sentences]


def conll_id(name: str, number: int) -> str:
    """The article id of document ``number`` of CoNLL file ``name``.

    >>> conll_id("train", 17)
    'conll-train-17'
    """
    return f"conll-{name}-{number}"


def _segments(text: str) -> Iterator[str]:
    """Every stretch of a CoNLL document a sentence of kg's may be: up to four whole lines,
    and any run of a line's own sentences (split after " . ", " ? ", " ! "), each also with the
    line's newline after it."""
    lines = text.split("\n")
    for i in range(len(lines)):
        for j in range(i + 1, min(i + 4, len(lines)) + 1):
            yield "\n".join(lines[i:j])
    for line in lines:
        parts = re.split(r"(?<= [.?!]) ", line)
        for i in range(len(parts)):
            for j in range(i + 1, len(parts) + 1):
                yield " ".join(parts[i:j])


def sentence_of(row: Mapping[str, Any], digest: Callable[[str], str],
                texts: Sequence[str]) -> str | None:
    """The sentence a judged row of a CoNLL document was judged on: judged rows of Reuters'
    text keep no sentence (``bench/precision.py``, ``redacted``), only its digest in their
    key, so it is found again in the document (``texts``, ``conll_texts``' of its file) by
    that digest; ``None`` when no stretch of the document matches.

    >>> from bench.precision import _digest
    >>> row = {"article": "conll-train-0", "key": f"events|conll-train-0|{_digest('B .')}|x"}
    >>> sentence_of(row, _digest, ["A .\\nB .\\nC ."]), sentence_of(row, _digest, ["A ."])
    ('B .', None)
    """
    found = re.fullmatch(r"conll-(?:train|dev)-(\d+)", row["article"])
    if not found or int(found[1]) >= len(texts):
        return None
    wanted = row["key"].split("|")[2]
    for segment in _segments(texts[int(found[1])]):
        for candidate in (segment, segment + "\n"):
            if digest(candidate) == wanted:
                return candidate
    return None
