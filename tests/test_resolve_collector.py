"""The cycle collector paused during resolution is always given back as it was."""

import gc

import pytest

from kg.collector import cycles_uncollected
from kg.resolve import resolve_entities, with_corpus_names


def test_collector_on_again_after_an_error() -> None:
    assert gc.isenabled()
    with pytest.raises(ValueError), cycles_uncollected():
        assert not gc.isenabled()
        raise ValueError("boom")
    assert gc.isenabled()


def test_collector_left_off_when_it_was_off() -> None:
    gc.disable()
    try:
        with cycles_uncollected():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_resolution_gives_the_collector_back() -> None:
    assert resolve_entities(with_corpus_names([])).entities == ()
    assert gc.isenabled()
