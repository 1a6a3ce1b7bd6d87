"""The shipped learned models (trigger sense, event factuality) are refused when their weights
do not match the hash recorded beside them (kg/extract/rules/learned.py loads both)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kg.errors import ModelError
from kg.extract.rules import event_factuality, trigger_sense

MODELS: list[tuple[ModuleType, Callable[[], Any]]] = [
    (trigger_sense, trigger_sense.load_sense_model),
    (event_factuality, event_factuality.load_factuality_model),
]
#: Each model and the name under which kg.build.cache keeps its hash file.
CACHED = [(trigger_sense, "SENSE_HASH"), (event_factuality, "FACTUALITY_HASH")]


@pytest.mark.parametrize(("module", "load"), MODELS, ids=["trigger-sense", "event-factuality"])
@pytest.mark.parametrize("change", ["weights", "hash"])
def test_a_model_that_does_not_match_its_hash_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: str, module: ModuleType,
        load: Any) -> None:
    data = module.MODEL_FILE.read_bytes()
    model_file, hash_file = tmp_path / "model.json", tmp_path / "model.sha256"
    model_file.write_bytes(data.replace(b'"bias": ', b'"bias": 1') if change == "weights"
                           else data)
    digest = hashlib.sha256(data).hexdigest()
    hash_file.write_text(("0" * 64 if change == "hash" else digest) + "  model.json\n")
    monkeypatch.setattr(module, "MODEL_FILE", model_file)
    monkeypatch.setattr(module, "HASH_FILE", hash_file)
    load.cache_clear()
    try:
        with pytest.raises(ModelError, match="do not match their recorded hash"):
            load()
    finally:
        load.cache_clear()


@pytest.mark.parametrize(("module", "cached_as"), CACHED,
                         ids=["trigger-sense", "event-factuality"])
def test_the_extraction_cache_fingerprint_covers_the_model(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: ModuleType,
        cached_as: str) -> None:
    """A model trained again invalidates the extraction cache."""
    from kg.build import cache

    recorded = tmp_path / "model.sha256"
    recorded.write_text(module.HASH_FILE.read_text())
    monkeypatch.setattr(cache, cached_as, recorded)
    fingerprint = cache.extractor_fingerprint.__wrapped__  # not the cached value
    before = fingerprint()
    recorded.write_text("0" * 64 + "  model.json\n")
    assert fingerprint() != before
