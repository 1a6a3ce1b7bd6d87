"""``kg serve``: explore a built graph in a browser (local, read-only, offline).

    app.py       routes, templates, parameters, the SPARQL Protocol (Starlette + Jinja2)
    guard.py     the Host allow-list and the security headers
    pages.py     what each page shows, read from the store; queries.py its SPARQL
    support.py   an entity's facts ordered by support; how a claim's speaker was found
    fulltext.py  sentences, claims and titles in SQLite FTS5: search, facets, who said what
    places.py    which places the map draws
    search.py    names and aliases in memory, ranked, forgiving of typos
    readonly.py  which free SPARQL runs: parsed; no update, no SERVICE
    text.py      article text cut into linked mentions and highlighted evidence
    timeline.py  the two-lane timeline's geometry
    links.py     page URLs for graph IRIs
    worker.py    free SPARQL in worker processes, with a deadline and a row limit
    protocol.py  SPARQL 1.1 Protocol result formats

>>> from kg.serve import create_app
>>> app = create_app("output/graph.trig")  # doctest: +SKIP
"""

from kg.serve.app import create_app
from kg.serve.run import graph_file, serve

__all__ = ["create_app", "graph_file", "serve"]
