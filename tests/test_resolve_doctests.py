"""The examples in the resolution modules' docstrings are true (they are documentation)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["kg.countries", "kg.names", "kg.geo", "kg.registry", "kg.resolve", "kg.evaluate",
           "kg.resolution.context", "kg.resolution.groups", "kg.resolution.document",
           "kg.resolution.corpus"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
