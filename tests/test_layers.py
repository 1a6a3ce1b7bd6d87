"""The package reads as the pipeline: layers import only downwards, and no module cycles.

`make check` runs import-linter on the contract in pyproject.toml; these tests run it too and
add what a layers contract cannot see: cycles between modules of one package (counting
imports made only for type checking, since they tie the modules together just the same) and
function-level imports of kg modules, which would hide a cycle from a reader.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import networkx as nx

from .conftest import ROOT

KG = ROOT / "kg"


def test_import_linter_contract_is_kept() -> None:
    linter = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(linter)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "1 kept, 0 broken" in run.stdout


def test_no_module_imports_form_a_cycle() -> None:
    graph = grimp.build_graph("kg", exclude_type_checking_imports=False)
    edges = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            edges.add_edge(module, imported)
    # a package importing its own submodules (re-exports in __init__) is not a cycle of code
    for module in list(edges):
        for imported in list(edges.successors(module)):
            if imported.startswith(module + "."):
                edges.remove_edge(module, imported)
    cycles = sorted(sorted(c) for c in nx.simple_cycles(edges))
    assert cycles == []


def _late_kg_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kg"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.module}")
    return found


def _imports_spacy(module: str) -> bool:
    source = (ROOT / module.replace(".", "/")).with_suffix(".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.Import | ast.ImportFrom)
               and any((getattr(node, "module", None) or alias.name).startswith("spacy")
                       for alias in node.names)
               for node in tree.body)


def test_only_the_cli_imports_kg_modules_inside_functions() -> None:
    # The CLI imports each command's library module on use so that `kg --help` is instant;
    # a module that imports spaCy at its top is imported late like spaCy itself (no work at
    # import time). Anywhere else a function-level import of kg would only dodge a cycle.
    late = [hit for path in sorted(KG.rglob("*.py")) if path.name != "cli.py"
            for hit in _late_kg_imports(path) if not _imports_spacy(hit.split()[-1])]
    assert late == []


def _library_messages() -> list[str]:
    """String constants of kg's library modules that end up in errors or skip reasons."""
    found = []
    for path in sorted(KG.rglob("*.py")):
        if path.name == "cli.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) or (isinstance(node, ast.Return)):
                for part in ast.walk(node):
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        found.append(f"{path.relative_to(ROOT)}: {part.value}")
    return found


def test_library_messages_speak_library_words_not_cli_flags() -> None:
    # A notebook user must not be told about --format; the CLI adds flag hints itself
    # (kg.cli.FLAG_HINTS, from the error's `option`).
    import re

    flags = [m for m in _library_messages() if re.search(r"(?<![\w-])--[a-z][a-z-]+", m)]
    assert flags == []
