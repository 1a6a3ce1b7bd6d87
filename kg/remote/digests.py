"""What kg last wrote into each graph of a store, so that a re-load need not read graphs back.

Each graph kg writes gets one triple in a small graph of the store's own,

    GRAPH <urn:kgnews:load:digests> { <graph> <urn:kgnews:load:digest> "400 9f86d0…" }

its triple count and the SHA-256 of its sorted N-Triples lines as kg wrote them. A re-load
trusts a record only when it is the graph's only one and the store still holds that many
triples; then the record says whether the graph is the source's (unchanged) or not (changed)
without fetching it. Anything else (no record, two, another count) means: compare as before.

Why a record never vouches for content it does not describe: it is written in the same
request, so the same transaction (or the same single ingest of Oxigraph's bulk loader), as
the graph it describes: new graphs in one N-Quads POST with their records; every other graph
by one SPARQL Update that replaces the graph and its record together. A PUT cannot carry a
record, so with records kg does not PUT. Two loads writing one graph at once leave two records
(neither is trusted) and, when both versions survive, a triple count no record matches. A
graph kg compared and found unchanged gets no record (adding one afterwards would not be
atomic); it gets one when it is next written. An edit made by hand that keeps a graph's
triple count is the one thing a record cannot see: ``kg load --compare`` reads every graph
back regardless. Stores without a SPARQL query and update URL, and Virtuoso (whose SPARQL
Update may change datatypes, so kg writes it only by PUT), keep no records.

>>> digest_of(b'<a:s> <a:p> "x" .\\n')
'1 8fecde9e76e53dfe372f6eafb5f022cc42df2664c0a5c46c943c696cb969bd1f'
"""

from __future__ import annotations

import hashlib

from kg.remote.store import COUNT_CHUNK, RemoteStore

__all__ = ["DIGEST_GRAPH", "DIGEST_PREDICATE", "digest_of", "digest_quads", "forget",
           "read_digests", "replace_record", "trusted"]

DIGEST_GRAPH = "urn:kgnews:load:digests"
DIGEST_PREDICATE = "urn:kgnews:load:digest"
#: Records per SPARQL Update request (Virtuoso refuses long INSERT DATA).
RECORD_CHUNK = 200
NEWLINE = b"\n"


def digest_of(ntriples: bytes) -> str:
    """``"<triples> <sha256>"`` of N-Triples lines, whatever their order."""
    lines = sorted(ntriples.splitlines())
    return f"{len(lines)} {hashlib.sha256(NEWLINE.join(lines)).hexdigest()}"


def digest_quads(records: dict[str, str]) -> bytes:
    """N-Quads lines recording ``graph → digest`` (for a POST with the graphs themselves)."""
    return "".join(f'<{name}> <{DIGEST_PREDICATE}> "{digest}" <{DIGEST_GRAPH}> .\n'
                   for name, digest in records.items()).encode()


def read_digests(remote: RemoteStore, names: list[str]) -> dict[str, list[str]]:
    """Each graph's records (usually one); ``{}`` when the store cannot say."""
    url = remote.endpoints.query
    if url is None or remote.endpoints.update is None:
        return {}
    found: dict[str, list[str]] = {}
    for start in range(0, len(names), COUNT_CHUNK):
        values = " ".join(f"<{n}>" for n in names[start:start + COUNT_CHUNK])
        query = (f"SELECT ?g ?d WHERE {{ VALUES ?g {{ {values} }} "
                 f"GRAPH <{DIGEST_GRAPH}> {{ ?g <{DIGEST_PREDICATE}> ?d }} }}")
        for row in remote.select(query, DIGEST_GRAPH):
            if "g" in row and "d" in row:
                found.setdefault(row["g"]["value"], []).append(row["d"]["value"])
    return found


def trusted(records: list[str] | None, count: int | None) -> str | None:
    """The one record of a graph whose triple count is still the recorded one, else None."""
    if not records or len(records) != 1 or count is None:
        return None
    size = records[0].split(" ", 1)[0]
    return records[0] if size.isdigit() and int(size) == count else None


def replace_record(name: str, digest: str) -> str:
    """SPARQL Update operations that leave ``digest`` as the only record of graph ``name``."""
    graph, subject = f"GRAPH <{DIGEST_GRAPH}>", f"<{name}> <{DIGEST_PREDICATE}>"
    return (f"DELETE WHERE {{ {graph} {{ {subject} ?d }} }} ;\n"
            f'INSERT DATA {{ {graph} {{ {subject} "{digest}" }} }}')


def forget(remote: RemoteStore, names: list[str]) -> None:
    """Remove the records of ``names`` (stale ones, of graphs no longer in the store)."""
    for start in range(0, len(names), RECORD_CHUNK):
        values = " ".join(f"<{n}>" for n in names[start:start + RECORD_CHUNK])
        pattern = f"GRAPH <{DIGEST_GRAPH}> {{ ?g <{DIGEST_PREDICATE}> ?d }}"
        remote.update(f"DELETE {{ {pattern} }} WHERE {{ VALUES ?g {{ {values} }} {pattern} }}",
                      DIGEST_GRAPH)
