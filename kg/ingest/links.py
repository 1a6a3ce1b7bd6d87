"""URLs met inside inputs (feed links, record fields, WARC target URIs): checked, and turned
into stable article ids.

>>> id_from_url("https://www.example.org/news/world-123?utm_source=rss")
'example-org-news-world-123'
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote, urlsplit, urlunsplit

from kg.ingest.slugs import slugify


def checked_url(value: str, warn: Callable[[str], None]) -> str | None:
    """``value`` when it is an http(s) URL without spaces, else ``None`` with a warning.

    >>> checked_url("ftp://x.org/a", print)
    'ftp://x.org/a' is not an http(s) URL; url ignored
    """
    value = value.strip()
    parts = urlsplit(value)
    if parts.scheme in ("http", "https") and parts.netloc and not any(c.isspace() for c in value):
        return value
    warn(f"{value!r} is not an http(s) URL; url ignored")
    return None


def id_from_url(url: str) -> str:
    """An article id from its URL: host (without ``www.``) and path, query left out, slugged.

    >>> id_from_url("https://apnews.com/article/ukraine-mariupol-7f3a")
    'apnews-com-article-ukraine-mariupol-7f3a'
    """
    parts = urlsplit(url)
    host = parts.netloc.lower().removeprefix("www.")
    return slugify(f"{host}{parts.path}".rstrip("/"))


def without_credentials(url: str) -> tuple[str, tuple[str, str] | None]:
    """``url`` without its ``user:password@`` part, and that part (decoded), if any.

    >>> without_credentials("http://alice:p%40ss@example.org:8080/x")
    ('http://example.org:8080/x', ('alice', 'p@ss'))
    """
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None
    userinfo, _, host = parts.netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    return urlunsplit(parts._replace(netloc=host)), (unquote(user), unquote(password))
