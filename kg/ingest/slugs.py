"""Slugs: the IRI-safe ``[a-z0-9-]`` names kg gives articles and entities.

>>> slugify("Zürich, Switzerland")
'zurich-switzerland'
"""

from __future__ import annotations

import hashlib
import re
import unicodedata


def slugify(text: str, max_len: int = 60) -> str:
    """An IRI-safe slug of ``[a-z0-9-]``, never empty, at most ``max_len`` characters.

    Accents are folded (NFKD). When the slug loses more than case and punctuation (it is
    empty, truncated, or a non-ASCII character left no trace) it ends in ``-`` and 8 hex
    digits of the SHA-256 of ``text``, so different texts keep different slugs.

    >>> slugify("Zürich, Switzerland"), slugify("北京")
    ('zurich-switzerland', '68c77e15')
    """
    if max_len < 9:
        raise ValueError("max_len must leave room for the 8-digit hash")
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower().encode("ascii", "ignore").decode()).strip("-")
    lossy = not slug or len(slug) > max_len or not folded.isascii()
    if not lossy:
        return slug
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    slug = slug[: max_len - 9].rstrip("-")
    return f"{slug}-{digest}" if slug else digest
