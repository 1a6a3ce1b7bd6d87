"""External SPARQL 1.1 stores over HTTP: one client, remote questions and ``kg load``.

    client.py       the one HTTP client: credentials, TLS, deadlines, retries, redirects
    store.py        a store's endpoints (presets) and graph operations
    endpoint.py     questions sent to a remote endpoint, seeing every graph
    replacement.py  whole graphs replaced so none is ever left half-replaced
    load.py         load_dataset: a built dataset into a store
"""

from kg.remote.endpoint import run_remote
from kg.remote.load import load_dataset

__all__ = ["load_dataset", "run_remote"]
