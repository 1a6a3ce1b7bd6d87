"""The installed spaCy model is exactly the verified en_core_web_sm 3.8.0."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from kg.extract import model_dir, model_mismatches
from kg.extract.pipeline import HASH_LIST

SHARED = Path(__file__).resolve().parents[2] / "shared"
SHARED_LIST = SHARED / "models" / "en_core_web_sm-3.8.0.sha256"


def verified_files() -> list[tuple[str, str]]:
    return [tuple(line.split(maxsplit=1)) for line in HASH_LIST.read_text().splitlines()]  # type: ignore[misc]


@pytest.mark.parametrize(("expected", "name"), verified_files())
def test_each_model_file_matches_its_verified_hash(expected: str, name: str) -> None:
    path = model_dir() / name
    assert hashlib.sha256(path.read_bytes()).hexdigest() == expected


def test_hash_list_covers_the_weights() -> None:
    names = {name for _h, name in verified_files()}
    assert {"./ner/model", "./parser/model", "./tok2vec/model", "./config.cfg"} <= names


@pytest.mark.skipif(not SHARED_LIST.exists(), reason="../shared is not beside this checkout")
def test_project_copy_of_hash_list_equals_the_shared_one() -> None:
    assert HASH_LIST.read_bytes() == SHARED_LIST.read_bytes()


def test_a_changed_file_is_reported(tmp_path: Path) -> None:
    tampered = tmp_path / "list.sha256"
    first, rest = HASH_LIST.read_text().split("\n", 1)
    tampered.write_text("0" * 64 + " " + first.split(maxsplit=1)[1] + "\n" + rest)
    problems = model_mismatches(hash_list=tampered)
    assert len(problems) == 1 and "sha256 differs" in problems[0]
    assert model_mismatches() == []
