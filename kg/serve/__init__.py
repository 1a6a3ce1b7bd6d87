"""``kg serve``: explore a built graph in a browser (local, read-only, offline).

    app.py       routes, templates, security headers (Starlette + Jinja2)
    pages.py     what each page shows, read from the store; queries.py its SPARQL
    search.py    names and aliases in memory, ranked, forgiving of typos
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
