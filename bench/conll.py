"""CoNLL-2003's documents as text (Reuters newswire of 1996, ``../shared/data/conll2003``).

One place for the benches that read them (``bench/ledger_eval.py``, ``bench/precision.py
--corpus conll``): a document is its sentences' tokens joined by spaces, the sentences by
newlines, no dates given (its own dateline line "LONDON 1996-08-22" is its text); its id is
``conll-<file>-<N>``, N its place in the file, and its half ``half("conll-<file>:N")``
(``bench/halves.py``, ``unit``). The text is Reuters': evaluate with it, never commit it
(``../shared/data/README.md``).
"""

from __future__ import annotations

from pathlib import Path

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
