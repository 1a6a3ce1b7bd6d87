"""The whole build: files → documents → extractions → entities → graph files.

    corpus.py    build_corpus: the stages in order, the report
    cache.py     one verified extraction per document, so rebuilds skip spaCy
    manifest.py  what the last build read and wrote, so an unchanged rebuild is free
    parallel.py  extraction in worker processes or on a Dask cluster
"""

from kg.build.corpus import DEFAULT_FORMATS, build_corpus

__all__ = ["DEFAULT_FORMATS", "build_corpus"]
