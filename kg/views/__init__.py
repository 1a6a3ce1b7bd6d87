"""Views of a built graph: the entity projection, statistics, pages, exports and validation.

    projection.py  the entity projection: entities and the labelled links between them
    analytics.py   what networkx says about it (centrality, components, counts)
    viz.py         one self-contained HTML page, no network needed
    export.py      GraphML, GEXF or CSV for Gephi, Cytoscape and friends
    validate.py    SHACL validation against the shapes
"""

from kg.views.validate import validate_graph
from kg.views.viz import view

__all__ = ["validate_graph", "view"]
