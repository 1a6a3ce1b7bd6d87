"""The examples in the resolution modules' docstrings are true (they are documentation)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["kg.lexicon.countries", "kg.resolve.names", "kg.resolve.geo", "kg.resolve.registry",
           "kg.resolve.resolver", "kg.resolve.evaluate", "kg.resolve.cues", "kg.resolve.groups",
           "kg.resolve.document", "kg.resolve.kinds", "kg.resolve.corpus",
           "kg.resolve.clusters", "kg.resolve.types", "kg.resolve.clubs", "kg.resolve.sheets",
           "kg.collector", "kg.resolve.things", "kg.extract.recovery",
           "kg.extract.entities"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
