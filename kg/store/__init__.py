"""The embedded store and SPARQL: graph files as ``pyoxigraph.Store``, named questions, results.

    embedded.py  graph files and rdflib graphs as Oxigraph stores (cached on disk when big)
    sparql.py    query text: named questions, prefixes, safe parameters, result writers
    results.py   results for people and notebooks: tables, rows, DataFrames
"""

from kg.store.embedded import open_store, store_of
from kg.store.sparql import named_queries, read_query, run_query

__all__ = ["named_queries", "open_store", "read_query", "run_query", "store_of"]
