"""Resolution: mentions → entities, within and across articles, with GeoNames links.

    resolver.py      resolve_entities: the two passes, class vote, linking, keys → Resolution
    names.py         normal forms, tokens, acronyms and near-spellings of names
    cues.py          what the words around a mention say (country qualifier, "steel works", "in")
    groups.py        Group (mentions believed to be one thing), union-find, decisions
    kinds.py         within one article: a name group's class, by vote and class cues
    document.py      within one article: short forms attached
    corpus_names.py  names other articles found, recovered; common words dropped
    corpus.py        across articles: blocked candidate keys, merge rules
    clusters.py      the groups found to be one thing, and the name they go by
    geo.py           offline GeoNames: which places a name can denote
    types.py         finer classes from the articles' words (government body, company, weapon …)
    variants.py      after the class vote: one thing under its variant names (party, plural, alias)
    registry.py      stable entity keys kept between builds
    evaluate.py      pairwise and B-cubed scores against hand-made clusters

>>> resolve_entities([]).entities
()
"""

from kg.resolve.corpus_names import with_corpus_names
from kg.resolve.names import normalise_name
from kg.resolve.registry import Registry, load_registry, save_registry
from kg.resolve.resolver import resolve_entities

__all__ = ["Registry", "load_registry", "normalise_name", "resolve_entities", "save_registry",
           "with_corpus_names"]
