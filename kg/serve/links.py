"""The explorer's URLs for graph IRIs: short paths for the graph's own IRIs, ``?iri=`` else.

>>> links = Links("https://w3id.org/kgnews/id/")
>>> links.entity("https://w3id.org/kgnews/id/person/vladimir-putin")
'/entity/person/vladimir-putin'
>>> links.article("https://w3id.org/kgnews/id/article/a1", fact="https://x.org/f")
'/article/a1?fact=https%3A%2F%2Fx.org%2Ff#evidence'
>>> links.web("javascript:alert(1)")
''
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote, urlencode


class Links:
    """URLs of entity, article, graph, timeline and query pages under one data base IRI."""

    def __init__(self, base: str) -> None:
        self.base = base

    def _local(self, iri: str, folder: str = "") -> str | None:
        prefix = self.base + folder
        if iri.startswith(prefix) and not any(c in iri for c in "?#%"):
            return quote(iri[len(prefix):], safe="/")
        return None

    def entity(self, iri: str | None, offset: int = 0) -> str:
        if not iri:
            return ""
        rest = self._local(iri)
        params = {} if rest else {"iri": iri}
        if offset:
            params["offset"] = str(offset)
        path = f"/entity/{rest}" if rest else "/entity"
        return path + (f"?{urlencode(params)}" if params else "") + ("#mentions" if offset else "")

    def article(self, iri: str | None, fact: str | None = None,
                mark: tuple[int, int] | None = None) -> str:
        if not iri:
            return ""
        rest = self._local(iri, "article/")
        params = {} if rest else {"iri": iri}
        if fact:
            params["fact"] = fact
        if mark:
            params["mark"] = f"{mark[0]}-{mark[1]}"
        path = f"/article/{rest}" if rest else "/article"
        return path + (f"?{urlencode(params)}" if params else "") + (
            "#evidence" if fact or mark else "")

    def resource(self, iri: str | None) -> str:
        """A page for any IRI of the graph's data: an article (or a sentence or mention in
        it), else an entity; ``""`` for vocabulary IRIs."""
        if not iri or not iri.startswith(self.base):
            return ""
        document, _, fragment = iri.partition("#")
        if document.startswith(self.base + "article/"):
            mark = char_range(fragment)
            return self.article(document, mark=mark)
        if iri.startswith((self.base + "fact/", self.base + "graph/")):
            return ""
        return self.entity(iri)

    @staticmethod
    @lru_cache(maxsize=1024)
    def query(sparql: str) -> str:
        """The query page running ``sparql`` (cached: every page links the queries it ran,
        and quoting a query's text was ~4% of a page's time)."""
        return "/query?" + urlencode({"q": sparql})

    @staticmethod
    def search(q: str, entity_type: str = "", filters: dict[str, str] | None = None, /,
               **changes: str | int) -> str:
        """The search page for ``q`` with ``filters``, some of them changed (an empty value
        drops a filter).

        >>> Links.search("tax", "", {"kind": "claim"}, speaker="Tony Blair", kind="")
        '/search?q=tax&speaker=Tony+Blair'
        """
        params: dict[str, str | int] = {"q": q, "type": entity_type, **(filters or {}),
                                        **changes}
        return "/search?" + urlencode({k: v for k, v in params.items() if v not in ("", 0)})

    @staticmethod
    def graph(iri: str, depth: int = 1) -> str:
        return "/graph?" + urlencode({"iri": iri, "depth": depth})

    @staticmethod
    def timeline(**filters: str | None) -> str:
        return "/timeline?" + urlencode({k: v for k, v in filters.items() if v})

    @staticmethod
    def web(url: object) -> str:
        """``url`` if it is an http(s) address, else ``""`` (never ``javascript:``)."""
        if isinstance(url, str) and url.lower().startswith(("https://", "http://")):
            return url
        return ""


def char_range(fragment: str) -> tuple[int, int] | None:
    """``(b, e)`` of a NIF fragment ``char=b,e`` or ``sentence=b,e`` (or an IRI ending so).

    >>> char_range("https://w3id.org/kgnews/id/article/a1#sentence=41,90"), char_range("x")
    ((41, 90), None)
    """
    fragment = fragment.rpartition("#")[2]
    _, _, numbers = fragment.partition("=")
    begin, _, end = numbers.partition(",")
    if not (_offset(begin) and _offset(end)):
        return None
    return int(begin), int(end)


def _offset(text: str) -> bool:
    """ASCII digits, at most 12 (``str.isdigit`` takes "²" and a 5,000-digit number)."""
    return 0 < len(text) <= 12 and text.isascii() and text.isdigit()
