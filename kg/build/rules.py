"""Every heuristic of a build, registered and listed: extraction's, resolution's and writing's.

Importing ``kg.extract``, ``kg.resolve``, ``kg.rdf.facts`` and ``kg.rdf.ledger`` declares their
heuristics; the NER merge's are declared with its spaCy component, imported here when asked
(spaCy loads with it).

>>> ids = {h.id for h in registry()}
>>> {"ner.mention.trim", "role.title-before-name"} <= ids
True
>>> switches("-ner.mention.trim") == frozenset({"ner.mention.trim"})
True
"""

from __future__ import annotations

from collections.abc import Iterable

import kg.extract.rules  # noqa: F401  (declares the fact rules)
import kg.rdf.facts  # noqa: F401  (declares the filters of writing)
import kg.rdf.ledger  # noqa: F401  (declares the ledger's)
import kg.resolve  # noqa: F401  (declares resolution's heuristics)
from kg.errors import InputError
from kg.heuristics import Heuristic, all_heuristics, expand_switches

__all__ = ["ARTICLE_BREAK", "check_rules_off", "example_articles", "registry", "switches"]

#: The line between two articles of an example: a heuristic that reads the corpus (a join
#: across articles, a name other articles found) needs several.
ARTICLE_BREAK = "|||"


def registry() -> tuple[Heuristic, ...]:
    """Every declared heuristic, by stage in the order a build runs them."""
    from kg.extract.ner.component import NEWS_NER  # noqa: F401  (declares the NER merge's)
    from kg.extract.paragraphs import PARAGRAPHS  # noqa: F401  (declares the sentence starts)

    return all_heuristics()


def example_articles(example: str) -> list[str]:
    """The articles of a heuristic's example: its text, cut at each line that is only
    ``ARTICLE_BREAK``.

    >>> example_articles("Wladimir Klitschko won.\\n|||\\nKlitschko said so.")
    ['Wladimir Klitschko won.', 'Klitschko said so.']
    """
    articles: list[str] = []
    lines: list[str] = []
    for line in example.split("\n"):
        if line.strip() == ARTICLE_BREAK:
            articles.append("\n".join(lines))
            lines = []
        else:
            lines.append(line)
    return [*articles, "\n".join(lines)]


def switches(spec: str | Iterable[str]) -> frozenset[str]:
    """The ids a ``--rules`` value turns off ("-ID,-PATTERN,+ID"); ``InputError`` names an
    id or pattern no heuristic has."""
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    registry()
    try:
        return expand_switches(items)
    except ValueError as e:
        raise InputError(str(e), option="rules") from e


def check_rules_off(ids: Iterable[str]) -> None:
    """``InputError`` when an id switched off names no heuristic."""
    known = {h.id for h in registry()}
    unknown = sorted(set(ids) - known)
    if unknown:
        raise InputError(f"no heuristic is called {unknown[0]!r} (kg rules lists them)",
                         option="rules")
