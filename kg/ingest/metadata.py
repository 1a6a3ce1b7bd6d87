"""Article metadata: front-matter headers, ``.meta.json`` sidecars and their checked values.

Keys are ``date`` (``YYYY-MM-DD``), ``title``, ``source``, ``url`` (http or https) and ``id``
(see ``kg.ingest.files`` for where they may be written and which source wins). A bad key or value
is dropped with a warning through the ``warn`` callback; it never stops an article.

>>> front_matter("---\\ntitle: Siege\\n---\\nMariupol fell.")
({'title': 'Siege'}, 21)
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import fields
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from kg.dates import BadDate, checked_date
from kg.ingest.characters import replace_unrepresentable
from kg.limits import ReadRefused, load_json, read_file
from kg.model import ArticleMeta

SIDECAR_SUFFIX = ".meta.json"
MAX_SIDECAR_BYTES = 1024 * 1024

#: Metadata keys as users write them -> ``ArticleMeta`` field names.
META_KEYS = {"date": "date_published", "title": "title", "source": "source", "url": "url",
             "id": "identifier"}

Warn = Callable[[str], None]

#: Characters an IRI cannot hold (RFC 3987): a URL with one cannot become schema:url.
_NOT_IN_IRI = re.compile(r'[\x00-\x20<>"{}|\\^`\x7f]')
_FRONT_MATTER = re.compile(r"---[ \t]*\n(.*?)^---[ \t]*(?:\n|\Z)", re.S | re.M)
#: Words a headline line has at most.
HEADLINE_WORDS = 20
_FIELD = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)")


def front_matter(text: str) -> tuple[dict[str, str], int] | None:
    """The ``key: value`` pairs of a front-matter header and where the body starts.

    Not a header (``None``) unless every line between the ``---`` lines is ``key: value``,
    blank or a ``#`` comment, so a Markdown rule at the top of an article stays text.

    >>> front_matter("---\\nA rule, not a header.\\n---\\nText.") is None
    True
    """
    match = _FRONT_MATTER.match(text, 0, 65536)
    if match is None:
        return None
    raw: dict[str, str] = {}
    for line in match.group(1).split("\n"):
        line = line.strip()
        field = _FIELD.fullmatch(line)
        if field is None and line and not line.startswith("#"):
            return None
        if field is not None:
            raw[field.group(1)] = field.group(2)
    return raw, match.end()


def read_sidecar(path: str, warn: Warn, *, inside: str | None = None) -> dict[str, Any]:
    """``ArticleMeta`` fields from the ``<stem>.meta.json`` next to ``path`` ({} if none).

    The sidecar is read through ``kg.limits`` (a regular file of at most
    ``MAX_SIDECAR_BYTES``, JSON not nested too deeply); with ``inside`` (the real path of the
    folder being read) a sidecar that is a symlink to a file outside it is not read.

    >>> read_sidecar("/nonexistent/a.txt", print)
    {}
    """
    sidecar = Path(path).with_name(Path(path).stem + SIDECAR_SUFFIX)
    if not os.path.lexists(sidecar):
        return {}
    target = os.path.realpath(sidecar)
    if inside is not None and not (target + os.sep).startswith(inside.rstrip(os.sep) + os.sep):
        warn(f"metadata file {sidecar} ignored: a symlink to {target}, outside the folder "
             "being read (kg build --follow-links follows it)")
        return {}
    try:
        raw = load_json(read_file(sidecar, MAX_SIDECAR_BYTES, what=str(sidecar)))
    except ReadRefused as e:
        warn(f"metadata file {sidecar} ignored: {str(e).removeprefix(f'{sidecar}: ')}")
        return {}
    except (OSError, ValueError) as e:
        warn(f"metadata file {sidecar} ignored: {getattr(e, 'strerror', None) or e}")
        return {}
    if not isinstance(raw, dict):
        warn(f"metadata file {sidecar} ignored: not a JSON object")
        return {}
    return meta_fields(raw, f"metadata file {sidecar}", warn)


def meta_fields(raw: Mapping[str, object], where: str, warn: Warn) -> dict[str, Any]:
    """``ArticleMeta`` keyword arguments from user keys; bad entries are warned about, dropped.

    >>> meta_fields({"date": "2022-05-18", "author": "X"}, "front matter", print)
    front matter: 'author' ignored: unknown key (known: date, id, source, title, url)
    {'date_published': datetime.date(2022, 5, 18)}
    """
    fields_: dict[str, Any] = {}
    for key, value in raw.items():
        try:
            if key not in META_KEYS:
                raise ValueError(f"unknown key (known: {', '.join(sorted(META_KEYS))})")
            parsed = _meta_value(key, value)
        except ValueError as e:
            warn(f"{where}: {key!r} ignored: {e}")
            continue
        if isinstance(parsed, str):
            parsed, replaced = replace_unrepresentable(parsed)
            if replaced:
                warn(f"{where}: {key!r}: {replaced} control character(s) replaced with U+FFFD")
        if parsed is not None:
            fields_[META_KEYS[key]] = parsed
    return fields_


def merge_meta(fields_: dict[str, Any], meta: ArticleMeta | None) -> ArticleMeta:
    """``ArticleMeta`` from parsed fields, the set fields of ``meta`` winning.

    >>> merge_meta({"title": "Old", "source": "AP"}, ArticleMeta(title="New")).source
    'AP'
    """
    if meta is not None:
        given = {f.name: getattr(meta, f.name) for f in fields(ArticleMeta)}
        fields_ = {**fields_, **{k: v for k, v in given.items() if v is not None}}
    return ArticleMeta(**fields_)


def _meta_value(key: str, value: object) -> str | date | None:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {type(value).__name__}")
    value = _unquote(value.strip())
    if not value:
        return None
    if key == "date":
        try:
            return checked_date(value, iso_only=True)  # kg.dates: the one date check
        except BadDate as e:
            raise ValueError(str(e)) from None
    if key == "url":
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc or " " in value:
            raise ValueError(f"{value!r} is not an http(s) URL")
        if (bad := _NOT_IN_IRI.search(value)) is not None:
            raise ValueError(f"{value!r} holds {bad.group()!r}, which a URL cannot contain "
                             "unescaped (write it percent-encoded)")
    return value


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def headline(text: str) -> tuple[int, int] | None:
    """Where the article's headline is, when its first paragraph is one: a single short line
    with no full stop, question or exclamation mark at its end, before a blank line and more
    text (a text file's first line, as the BBC's and most wire exports write it).

    The one notion of a headline: ingest makes it the title of an article that has none, and
    extraction takes no facts from it (``kg.extract.collect``).

    >>> text = "Carmaker 'to cut jobs'\\n\\nThe company said it would cut 2,000 jobs."
    >>> span = headline(text); text[span[0]:span[1]]
    "Carmaker 'to cut jobs'"
    >>> headline("The company said it would cut jobs.\\n\\nMore text.") is None
    True
    """
    first = text.lstrip()
    head, blank, rest = first.partition("\n\n")
    head = head.strip()
    if (not head or not blank or not rest.strip() or "\n" in head
            or len(head.split()) > HEADLINE_WORDS
            or head.rstrip("'\"’”)").endswith((".", "!", "?", ":", ";"))):
        return None
    begin = len(text) - len(first)
    return begin, begin + len(head)
