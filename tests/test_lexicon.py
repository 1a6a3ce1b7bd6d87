"""The lexicon: every word list once, as data files, loaded by one module (docs/contributing.md)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

import kg.build.cache as cache
from kg.lexicon import data_files, table, word_list, word_sequence
from kg.lexicon.words import HONORIFICS, PLACE_NOUNS, SPELLINGS
from kg.resolve import cues, document, names

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "kg" / "lexicon" / "data"

#: Strings that are not English words but labels of spaCy, dateparser and kg itself.
NOT_WORDS = frozenset(
    "nsubj nsubjpass dobj pobj prep pcomp acl relcl advcl xcomp ccomp conj advmod acomp amod "
    "compound npadvmod poss appos attr agent neg aux nummod quantmod parataxis nmod tmod "
    "csubj csubjpass oprd cc auxpass expl case iobj dative det prt mark "
    "VERB NOUN PROPN AUX NUM ADJ PRON DATE TIME ORDINAL CARDINAL QUANTITY MONEY PERCENT "
    "PERSON ORG GPE LOC FAC EVENT day month year comparative".split()
) | {"at most", "at least", "more than", "less than"}
#: kg's own identifiers: kinds of name key and fields of the JSON files it writes.
IDENTIFIERS = frozenset("person surname name org generic entity left right rule score merged "
                        "kind label names order bias weights threshold ctx art evidence "
                        # the trigger-sense model's fields and argument slots
                        "dims centroids patient setting "
                        # how two names of one thing relate, how a town's name reads
                        "alias party plural abbreviation town club body".split())


def test_every_data_file_says_what_it_is_for() -> None:
    files = sorted(DATA.iterdir())
    assert len(files) >= 30
    for path in files:
        assert path.suffix in {".txt", ".toml"}, path.name
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# ") and len(first) > 20, f"{path.name}: no comment first"
        if path.suffix == ".toml":
            tomllib.loads(path.read_text(encoding="utf-8"))
        else:
            entries = word_sequence(path.stem)
            assert entries and len(entries) == len(set(entries)), f"{path.name}: duplicates"


def test_the_loader_reads_packaged_files() -> None:
    assert {f.name for f in data_files()} == {p.name for p in DATA.iterdir()}
    assert "minister" in word_list("titles") and "gen" in table("ranks")
    with pytest.raises(LookupError, match="no-such-list"):
        word_list("no-such-list")


def test_the_contradictions_are_resolved() -> None:
    # one list of honorifics, for the extractor and the resolver alike
    assert document.HONORIFICS == HONORIFICS and {"mrs", "prof", "dame"} <= HONORIFICS
    # one spelling direction: American -> British, no word folded both ways
    assert SPELLINGS["defense"] == "defence" and not set(SPELLINGS) & set(SPELLINGS.values())
    assert names.SPELLING is SPELLINGS
    # one list of place nouns, the resolver's cues and its apposition pattern included
    assert cues.PLACE_HEADS == PLACE_NOUNS == cues.PLACE_OF
    assert cues.mention_cues("fighting in Rubizhne, a Donbas suburb", 12, 20).apposition


def _word_collections(path: Path) -> list[tuple[int, list[str]]]:
    """Set, tuple, list and dict literals of three or more English words in a module."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    slots = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in n.targets)}
    for node in ast.walk(tree):
        if id(node) in slots:
            continue
        if isinstance(node, ast.Dict):
            elements = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.Set | ast.Tuple | ast.List):
            elements = list(node.elts)
        else:
            continue
        words = [e.value for e in elements if isinstance(e, ast.Constant)
                 and isinstance(e.value, str) and e.value.replace(" ", "").isalpha()
                 and e.value.islower()]
        if len(words) >= 3 and not set(words) <= NOT_WORDS | IDENTIFIERS:
            found.append((node.lineno, words))
    return found


@pytest.mark.parametrize("package", ["extract", "resolve"])
def test_no_word_lists_left_in_code(package: str) -> None:
    modules = [p for p in (ROOT / "kg" / package).rglob("*.py") if "ner" not in p.parts]
    left = {f"{p.relative_to(ROOT)}:{line}": words for p in modules
            for line, words in _word_collections(p)}
    assert not left, f"word lists belong in kg/lexicon/data/: {left}"


def test_the_cache_fingerprint_covers_the_word_lists(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    word_file = tmp_path / "titles.txt"
    word_file.write_text("# Posts.\nminister\n")
    monkeypatch.setattr(cache, "data_files", lambda: [word_file])
    fingerprint = cache.extractor_fingerprint.__wrapped__  # not the cached value
    before = fingerprint()
    word_file.write_text("# Posts.\nminister\nenvoy\n")
    assert fingerprint() != before
    monkeypatch.undo()
    assert fingerprint() != before  # the real lists count too


@pytest.mark.parametrize(
    "name", ["kg.lexicon", "kg.lexicon.words", "kg.lexicon.fact_words", "kg.extract.values",
             "kg.extract.rules.registry"]
)
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
