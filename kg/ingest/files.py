"""Files -> ``Document``: find articles, decode them, attach metadata, skip what cannot be used.

Text and offsets
    ``Document.text`` is the article as decoded text with line ends normalised: CRLF and a
    lone CR become ``\\n``, a leading byte-order mark is dropped, each character a graph cannot
    carry (C0 controls but tab and newline, lone surrogates, U+FFFE, U+FFFF; see
    ``kg.ingest.characters``) becomes one U+FFFD with a warning, and nothing else changes (no NFC,
    zero-width characters and combining marks stay). Every offset kg produces is a Python
    ``str`` index into ``Document.text``. ``Document.sha256`` is the SHA-256 of that text,
    UTF-8 encoded.

Decoding
    UTF-8 (with or without BOM); UTF-16/32 with a BOM; otherwise cp1252 or latin-1, and as a
    last resort the encoding charset-normalizer guesses. Anything but UTF-8 emits a warning
    naming the encoding. A file with NUL bytes or many control bytes is binary and skipped.

Formats (by suffix; see docs/formats.md)
    ``.txt``, ``.md``: one article each. ``.html``, ``.htm``: the article text and metadata of
    the page (trafilatura, ``kg.ingest.html``); a ``.txt`` that is really an HTML page is read
    the same way, with a warning. ``.rss``, ``.atom``, ``.xml``: one article per feed entry
    (``kg.ingest.feeds``). ``.jsonl``, ``.ndjson``, ``.csv``: one article per record
    (``kg.ingest.records``). ``.warc``, ``.warc.gz``: one article per HTML response
    (``kg.ingest.warc``). ``http://`` and ``https://`` sources are fetched (``kg.ingest.fetch``).
    An article inside a container is named ``file:line`` or ``file#entry N`` / ``#record N``
    in messages and in ``Document.path``; a bad one is skipped, the rest of the file builds.

Metadata
    Keys ``date`` (``YYYY-MM-DD``), ``title``, ``source``, ``url`` and ``id``, from either

    * a front-matter header at the very top of the article, ``---`` lines around
      ``key: value`` lines; the text after the closing ``---`` line is the document text; or
    * a sidecar ``<stem>.meta.json`` next to the article (``000_x.txt`` -> ``000_x.meta.json``)
      holding a JSON object.

    Both may be present: the sidecar wins key by key, because it can be edited without touching
    the article. A bad key or value (unknown key, bad date, invalid JSON) is dropped with a
    warning; the article is still built (``kg.ingest.metadata``).

Folders
    Read recursively in sorted order, however deep; only files with the suffixes above are
    read (the suffix in any case), hidden entries (``.name``) are ignored, and a folder reached
    twice (a symlink loop) is skipped. A folder's documentation files (``README``,
    ``LICENSE``, ``CHANGELOG`` … in any case and with any suffix, see ``NOT_ARTICLE_NAMES``)
    are not articles: they are left out with a warning. A file named explicitly is read
    whatever its name and extension; ``-`` reads standard input.
    ``Document.path`` is the path read, with characters a graph cannot carry replaced as in
    the text (a file name that is not UTF-8, with a warning).

Ids
    ``Document.doc_id`` is the slug of the ``id`` metadata key when there is one, else the slug
    of the file's path relative to the folder it was found under, without its suffix
    (``corpus/2022/story.txt`` read as ``corpus`` -> ``2022-story``; a file named explicitly
    -> its stem). An id thus depends only on the file itself, never on which other files are
    present. Two articles with one id are an error: the later one (in reading order) is
    skipped, naming the earlier, and the earlier keeps the id.

Skips (reported through ``on_skip``, the run goes on): empty or blank text, binary,
undecodable, unreadable, not a regular file, broken symlink, symlink loop, larger than
``max_bytes``, text identical to an earlier document ("duplicate of <path>"), and an id an
earlier document has. Only a path that does not exist at all raises ``InputError``, before
anything is read.
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import logging
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from kg.errors import InputError
from kg.ingest.characters import replace_unrepresentable
from kg.ingest.feeds import FEED_SUFFIXES, feed_articles
from kg.ingest.fetch import Fetcher
from kg.ingest.found import Found, Item, Unusable
from kg.ingest.html import NoArticle, declared_charset, looks_like_html, page_text, read_page
from kg.ingest.metadata import (  # noqa: F401 (META_KEYS, SIDECAR_SUFFIX: part of kg.ingest.files's API)
    MAX_SIDECAR_BYTES,
    META_KEYS,
    SIDECAR_SUFFIX,
    front_matter,
    headline,
    merge_meta,
    meta_fields,
    read_sidecar,
)
from kg.ingest.records import RECORD_SUFFIXES, record_articles
from kg.ingest.slugs import slugify  # noqa: F401 (part of kg.ingest.files's API)
from kg.ingest.warc import is_warc, warc_articles
from kg.limits import ReadRefused, TooLarge, read_file, read_stream, size_text
from kg.model import ArticleMeta, Document

ARTICLE_SUFFIXES = frozenset({".txt", ".md"})
PAGE_SUFFIXES = frozenset({".html", ".htm"})
#: Every suffix a folder is searched for (``.warc.gz`` is matched on the whole name).
READ_SUFFIXES = ARTICLE_SUFFIXES | PAGE_SUFFIXES | FEED_SUFFIXES | RECORD_SUFFIXES | {".warc"}
#: File names (before the first dot, any case) that name a folder's documentation, not news.
NOT_ARTICLE_NAMES = frozenset({"readme", "license", "licence", "copying", "notice", "authors",
                               "changelog", "changes", "contributing", "install", "manifest"})
MAX_ARTICLE_BYTES = 50 * 1024 * 1024
#: Feeds and exports hold many articles: they may be this large (WARC files are streamed).
MAX_CONTAINER_BYTES = 2 * 1024**3
_KIND_NAMES = {"page": "an HTML page", "feed": "a feed", "xml": "a feed",
               "records": "JSON Lines or CSV"}

_log = logging.getLogger(__name__)
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))
# Control bytes that never occur in text files (tab, line ends, form feed and ESC excluded).
_CONTROL_BYTES = bytes([*range(0x01, 0x09), 0x0E, *range(0x0F, 0x1B), *range(0x1C, 0x20)])

SkipHandler = Callable[["Skipped"], None]
WarningHandler = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class Skipped:
    """An input that was not built, and why.

    >>> str(Skipped("a.txt", "empty file"))
    'a.txt: empty file'
    """

    path: str
    reason: str
    option: str | None = None  # the setting that would let it through (``max_article_bytes``)
    copy_of: str | None = None  # an exact copy of this earlier input: counted once, not lost

    @property
    def is_copy(self) -> bool:
        """An exact copy of an earlier input (its text is built once, from the earlier)."""
        return self.copy_of is not None

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class _Rejected(Exception):
    """Internal: this input cannot become a document (the message is the reason)."""

    def __init__(self, reason: str, option: str | None = None) -> None:
        super().__init__(reason)
        self.option = option


def document_from_text(text: str, *, path: str = "<string>", meta: ArticleMeta | None = None,
                       doc_id: str | None = None,
                       on_warning: WarningHandler | None = None) -> Document:
    """A ``Document`` from text in memory; front matter is read, ``meta`` wins over it.

    Without ``doc_id`` or an ``id`` in the metadata, the id is the slug of the file stem of
    ``path``, or ``text-`` and 12 hex digits of the text's hash when there is no path.
    Raises ``InputError`` for blank text.

    >>> document_from_text("---\\ntitle: Siege\\n---\\nMariupol fell.", doc_id="d1").text
    'Mariupol fell.'
    """
    report = on_warning or _log_warning
    try:
        body, fields_ = _prepare_text(text, lambda message: report(path, message))
    except _Rejected as rejected:
        raise InputError(f"{path}: {rejected}") from None
    merged = merge_meta(fields_, meta)
    sha = _sha256(body)
    name = path if path == "<string>" else Path(path).name
    return Document(doc_id or _base_id(name, merged, sha), path, body, merged, sha)


def read_documents(paths: Sequence[str | Path], *, on_skip: SkipHandler | None = None,
                   on_warning: WarningHandler | None = None, stdin: TextIO | None = None,
                   max_bytes: int = MAX_ARTICLE_BYTES, fields: Mapping[str, str] | None = None,
                   fetcher: Fetcher | None = None, follow_links: bool = False,
                   previous_ids: Mapping[str, str] | None = None) -> Iterator[Document]:
    """Documents from files, folders (recursive, sorted) and ``-`` (standard input), one by one.

    Paths that do not exist raise ``InputError`` at once; every other problem skips the input
    through ``on_skip`` and goes on. Warnings go to ``on_warning(path, message)``. Without
    handlers both are logged to the ``kg.ingest.files`` logger. ``fields`` names the record
    fields of JSON Lines and CSV exports (``kg.ingest.records``); ``fetcher`` fetches the
    ``http(s)://`` sources (a ``kg.ingest.fetch.Fetcher`` without a cache when not given).
    A symlink inside a folder that points out of it is skipped unless ``follow_links``.
    ``previous_ids`` (id -> path, from the last build) keeps each id with the article that
    had it: a newcomer claiming it is skipped even when it is read first.

    >>> [d.doc_id for d in read_documents(["seeds/000_b23f1cc3a877bd22.txt"])]
    ['000-b23f1cc3a877bd22']
    """
    if isinstance(paths, str | Path):
        paths = [paths]
    sources = [_existing(str(p)) for p in paths]
    reader = _Reader(on_skip or _log_skip, on_warning or _log_warning, stdin, max_bytes)
    reader.fields = dict(fields or {})
    reader.fetcher = fetcher
    reader.follow_links = follow_links
    reader.previous = dict(previous_ids or {})
    return reader.documents(sources)


class _Reader:
    """The state of one ``read_documents`` call: ids, hashes and folders already seen."""

    def __init__(self, on_skip: SkipHandler, on_warning: WarningHandler,
                 stdin: TextIO | None, max_bytes: int) -> None:
        self._skip, self._warn = on_skip, on_warning
        self._stdin, self._max_bytes = stdin, max_bytes
        self._texts: dict[str, str] = {}  # sha256 -> first path with that text
        self._ids: dict[str, str] = {}  # doc id -> the path that has it
        self._folders: dict[str, str] = {}  # real path -> first path it was read as
        self._pending: dict[str, Document] = {}  # id -> a newcomer waiting for its last holder
        self._inside: str | None = None  # the real path of the folder being walked

    fields: dict[str, str]
    fetcher: Fetcher | None = None
    follow_links: bool = False
    previous: dict[str, str]

    def documents(self, sources: list[str]) -> Iterator[Document]:
        sources = [self._without_credentials(source) for source in sources]
        urls = [source for source in sources if is_url(source)]
        if urls:
            self._fetcher().prefetch(urls)
        for source in sources:
            if is_url(source):
                yield from self._admitted(self._from_items(
                    self._fetcher().articles(source, self._warn)))
                continue
            yield from self._admitted(self._from_source(source))
        yield from self._pending.values()  # their id's last holder is gone: they may have it

    def _without_credentials(self, source: str) -> str:
        """A URL's ``user:password@`` goes to the fetcher, for its host only; the URL kept
        (``schema:url``, ``kg:sourcePath``, ids, the fetch cache) is without it."""
        if not is_url(source) or "@" not in urlsplit(source).netloc:
            return source
        clean = self._fetcher().add_credentials(source)
        self._warn(clean, "user and password taken out of the URL: sent to this host only, "
                          "written nowhere")
        return clean

    def _from_source(self, source: str) -> Iterator[Document]:
        for path, root in self._articles(source):
            if input_kind(path) == "text":
                document = self._build(path, root)
                if document is not None:
                    yield document
            else:
                yield from self._from_items(self._contained(path), root)

    def _admitted(self, documents: Iterator[Document]) -> Iterator[Document]:
        """Documents whose id is theirs: the first to claim an id has it, except that the
        article that had it in the last build keeps it, even when another is read first."""
        for document in documents:
            doc_id, where = document.doc_id, document.path
            holder = self.previous.get(doc_id)
            if doc_id in self._ids:
                self._skip(Skipped(where, f"id {doc_id!r} is already the id of "
                                          f"{self._ids[doc_id]}; give one of them another id "
                                          "(metadata key 'id')"))
            elif holder is not None and holder != where and doc_id in self._pending:
                self._skip(Skipped(where, f"id {doc_id!r} is already claimed by "
                                          f"{self._pending[doc_id].path}; give one of them "
                                          "another id (metadata key 'id')"))
            elif holder is not None and holder != where:
                self._pending[doc_id] = document  # wait for the last build's holder
            else:
                self._ids[doc_id] = where
                yield document
                waiting = self._pending.pop(doc_id, None)
                if waiting is not None:
                    self._skip(Skipped(waiting.path, f"id {doc_id!r} has been the id of "
                                                     f"{where} since the last build; give "
                                                     "this article another id (metadata "
                                                     "key 'id')"))

    def _fetcher(self) -> Fetcher:
        if self.fetcher is None:
            self.fetcher = Fetcher(on_warning=self._warn, max_page_bytes=self._max_bytes)
        return self.fetcher

    def _contained(self, path: str) -> Iterator[Item]:
        """The articles inside a page, feed, export or archive file."""
        kind = input_kind(path) or "text"
        if kind == "warc":
            yield from warc_articles(path, self._max_bytes)
            return
        try:
            limit = self._max_bytes if kind == "page" else max(self._max_bytes,
                                                               MAX_CONTAINER_BYTES)
            data = _read_bytes(path, limit)
        except _Rejected as rejected:
            yield Unusable(path, str(rejected), rejected.option)
            return
        if _is_binary(data):
            yield Unusable(path, f"binary file, not {_KIND_NAMES[kind]}")
        elif kind == "page":
            yield self._page_file(path, data)
        elif kind in ("feed", "xml"):
            yield from feed_articles(data, path)
        else:
            yield from record_articles(data, path, self.fields, self._max_bytes)

    def _page_file(self, path: str, data: bytes) -> Item:
        try:
            text = decode_page(data, lambda message: self._warn(path, message))
            page = read_page(text)
        except (_Rejected, NoArticle) as e:
            return Unusable(path, f"HTML page without article text ({e})"
                            if isinstance(e, NoArticle) else str(e))
        fields_ = page.fields()
        fields_.update(read_sidecar(path, lambda message: self._warn(path, message),
                                    inside=self._inside))
        return Found(path, page.text, fields_, None)

    def _from_items(self, items: Iterator[Item], root: str | None = None) -> Iterator[Document]:
        for item in items:
            if isinstance(item, Unusable):
                self._skip(Skipped(item.where, item.reason, item.option))
                continue
            document = self._found(item, root)
            if document is not None:
                yield document

    def _found(self, found: Found, root: str | None = None) -> Document | None:
        """A ``Document`` from an article found inside a container (same checks as files)."""
        def warn(message: str) -> None:
            self._warn(found.where, message)

        for message in found.warnings:
            warn(message)
        body = found.text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        if not body.strip():
            self._skip(Skipped(found.where, "no text"))
            return None
        if len(body) > self._max_bytes or len(body.encode("utf-8", "surrogatepass")) > \
                self._max_bytes:
            self._skip(Skipped(found.where, "article " + _too_large(self._max_bytes),
                               "max_article_bytes"))
            return None
        body = _representable(body, warn)
        sha = _sha256(body)
        if sha in self._texts:
            self._skip(_copy(found.where, self._texts[sha]))
            return None
        fields_: dict[str, Any] = {k: _representable(v, warn) if isinstance(v, str) else v
                                   for k, v in found.fields.items()}
        fields_.setdefault("identifier", found.default_id)
        meta = ArticleMeta(**fields_)
        shown = _recorded_path(found.where, warn)
        # like a file's, a contained article's default id is relative to the folder given
        where = found.where if root is None else _relative_name(found.where, root)
        doc_id = _base_id(where, meta, sha)
        self._texts[sha] = found.where
        return Document(doc_id, shown, body, meta, sha)

    def _articles(self, source: str) -> Iterator[tuple[str, str]]:
        """(article path, the folder its id is relative to) for each article of ``source``."""
        if source != "-" and os.path.isdir(source):
            self._inside = None if self.follow_links else os.path.realpath(source)
            try:
                yield from ((path, source) for path in self._walk(source))
            finally:
                self._inside = None
        else:
            yield source, os.path.dirname(source)

    def _walk(self, top: str) -> Iterator[str]:
        """Article paths under ``top`` in sorted order, depth first, with an explicit stack
        (a recursive walk fails on folders nested a thousand deep)."""
        stack = [iter(self._entries(top))]
        while stack:
            path = next(stack[-1], None)
            if path is None:
                stack.pop()
            elif path.endswith(os.sep):
                stack.append(iter(self._entries(path[:-1])))
            else:
                yield path

    def _entries(self, folder: str) -> list[str]:
        """The sorted entries of ``folder`` worth reading: articles, and folders (ending in
        ``os.sep``); a folder that cannot be read, or is reached twice, is skipped."""
        real = os.path.realpath(folder)
        if real in self._folders:
            first = self._folders[real]
            self._skip(Skipped(folder, f"symlink loop: folder already read as {first}"))
            return []
        self._folders[real] = folder
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError as e:
            self._skip(Skipped(folder, f"unreadable folder: {e.strerror}"))
            return []
        paths = []
        for entry in entries:
            path = os.path.join(folder, entry.name)
            if entry.name.startswith("."):
                continue
            outside = self._outside(path, entry)
            if outside is not None:
                if _is_dir(entry) or input_kind(entry.name, in_folder=True) is not None:
                    self._skip(Skipped(path, f"symlink to {outside}, outside the folder "
                                             "being read: not followed", "follow_links"))
                continue
            if _is_dir(entry):
                paths.append(path + os.sep)
            elif input_kind(entry.name, in_folder=True) is None:
                continue
            elif entry.name.split(".")[0].lower() in NOT_ARTICLE_NAMES:
                self._warn(path, "not read: a folder's documentation file, not an article "
                                 "(name the file itself to build it)")
            else:
                paths.append(path)
        return paths

    def _outside(self, path: str, entry: os.DirEntry[str]) -> str | None:
        """Where a symlink leads when that is outside the folder being read (else ``None``):
        following it would publish a file the user did not give kg."""
        if self._inside is None or not entry.is_symlink():
            return None
        target = os.path.realpath(path)
        return None if _within(target, self._inside) else target

    def _build(self, path: str, root: str) -> Document | None:
        def warn(message: str) -> None:
            self._warn(path, message)

        try:
            text = self._read_text(path, warn)
            body, fields_ = _prepare_text(text, warn)
        except _Rejected as rejected:
            self._skip(Skipped(path, str(rejected), rejected.option))
            return None
        sha = _sha256(body)
        if sha in self._texts:
            self._skip(_copy(path, self._texts[sha]))
            return None
        if path != "-":
            fields_.update(read_sidecar(path, warn, inside=self._inside))
        meta = ArticleMeta(**fields_)
        doc_id = _base_id(_relative_name(path, root), meta, sha)
        self._texts[sha] = path
        shown = _recorded_path(path, warn)
        return Document(doc_id, shown, body, meta, sha)

    def _read_text(self, path: str, warn: Callable[[str], None]) -> str:
        if path != "-":
            return _decode(_read_bytes(path, self._max_bytes), warn)
        stream = self._stdin or sys.stdin
        try:
            data = read_stream(stream, self._max_bytes)
        except ReadRefused:
            raise _Rejected(_too_large(self._max_bytes), "max_article_bytes") from None
        return data if isinstance(data, str) else _decode(data, warn)



def _copy(path: str, first: str) -> Skipped:
    return Skipped(path, f"exact copy of {first}, counted once", copy_of=first)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _relative_name(path: str, root: str) -> str:
    """``path`` relative to the folder it was found under (what its default id is made of)."""
    if path == "-":
        return path
    return os.path.relpath(path, root or os.curdir)


def _recorded_path(path: str, warn: Callable[[str], None]) -> str:
    """``path`` as documents record it: a file name that is not UTF-8 (its bytes arrive as lone
    surrogates) or holds control characters would break the graph, so those become U+FFFD."""
    shown, replaced = replace_unrepresentable(path)
    if replaced:
        warn(f"file name is not UTF-8 or holds control characters; recorded as {shown!r}")
    return shown


def input_kind(path: str, in_folder: bool = False) -> str | None:
    """How a file is read, by its suffix: ``text``, ``page``, ``feed``, ``records``, ``warc``;
    in a folder, ``None`` for files that are not read at all.

    >>> input_kind("a/crawl.warc.gz"), input_kind("notes.pdf", in_folder=True)
    ('warc', None)
    """
    name = path.lower()
    suffix = Path(name).suffix
    if is_warc(name):
        return "warc"
    if suffix in PAGE_SUFFIXES:
        return "page"
    if suffix in FEED_SUFFIXES:
        return "feed" if suffix != ".xml" else "xml"
    if suffix in RECORD_SUFFIXES:
        return "records"
    return "text" if suffix in ARTICLE_SUFFIXES or not in_folder else None


def is_url(source: str) -> bool:
    """Whether a source named on the command line is a web address to fetch.

    >>> is_url("https://example.org/a"), is_url("a.txt")
    (True, False)
    """
    return source.lower().startswith(("http://", "https://"))


def decode_page(data: bytes, warn: Callable[[str], None]) -> str:
    """An HTML page's text: in the charset it declares when its bytes bear that out
    (``kg.ingest.html.page_text``), else as files are decoded (UTF-8, then cp1252 or latin-1
    with a warning)."""
    text = page_text(data, [declared_charset(data)], warn)
    return text if text is not None else _decode(data, warn)


def _existing(path: str) -> str:
    if is_url(path):
        return path
    if path != "-" and not os.path.lexists(path):
        raise InputError(f"{path}: no such file or folder")
    return path


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # e.g. a symlink loop; reading the path will say what is wrong
        return False


def _base_id(path: str, meta: ArticleMeta, sha: str) -> str:
    if meta.identifier:
        return slugify(meta.identifier)
    if path in ("-", "<string>"):
        return f"text-{sha[:12]}"
    return slugify(str(Path(path).with_suffix("")))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# --- bytes ---------------------------------------------------------------------------------


def _read_bytes(path: str, max_bytes: int) -> bytes:
    """The file's bytes (``kg.limits``: a regular file, at most ``max_bytes``); ``_Rejected``
    with a reason when it cannot or should not be read."""
    try:
        return read_file(path, max_bytes, what=path, regular_only=True)
    except ReadRefused as e:
        if isinstance(e, TooLarge):
            raise _Rejected(_too_large(max_bytes), "max_article_bytes") from None
        raise _Rejected(str(e).removeprefix(f"{path}: ")) from None
    except OSError as e:
        raise _Rejected(_os_reason(path, e)) from e


def _too_large(max_bytes: int) -> str:
    return f"larger than the limit of {size_text(max_bytes)} (the max_article_bytes setting)"


def _os_reason(path: str, error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "symlink loop"
    if error.errno == errno.ENOENT and os.path.islink(path):
        return f"broken symlink (target {os.readlink(path)} does not exist)"
    return f"unreadable: {error.strerror or error}"


def _decode(data: bytes, warn: Callable[[str], None]) -> str:
    """Text from bytes (see the module docstring for the order of encodings tried)."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            if encoding != "utf-8-sig":
                warn(f"decoded as {encoding} (byte-order mark)")
            return _decode_as(data, encoding)
    if _is_binary(data):
        raise _Rejected("binary file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    encoding = _guess_encoding(data)
    warn(f"not valid UTF-8; decoded as {encoding}")
    return _decode_as(data, encoding)


def _decode_as(data: bytes, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        raise _Rejected(f"undecodable: invalid {encoding} at byte {e.start}") from e


def _is_binary(data: bytes) -> bool:
    if b"\0" in data:
        return True
    sample = data[:65536]
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return controls * 50 > len(sample)  # more than 2 %


def _guess_encoding(data: bytes) -> str:
    """cp1252 or latin-1 when they read plausibly, else charset-normalizer's best guess."""
    import charset_normalizer  # imported here: only non-UTF-8 files need it

    for candidates in (["cp1252", "latin_1"], None):
        for match in charset_normalizer.from_bytes(data, cp_isolation=candidates):
            try:
                data.decode(match.encoding)
            except UnicodeDecodeError:
                continue
            return str(match.encoding)
    raise _Rejected("undecodable: not UTF-8 and no other encoding fits")


# --- text ----------------------------------------------------------------------------------


def _prepare_text(text: str, warn: Callable[[str], None]) -> tuple[str, dict[str, Any]]:
    """Normalised body text and the ``ArticleMeta`` fields of its front matter."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise _Rejected("empty file" if not text else "blank file (white space only)")
    fields_: dict[str, Any] = {}
    header = front_matter(text)
    if header is not None:
        fields_ = meta_fields(header[0], "front matter", warn)
        text = text[header[1]:]
        if not text.strip():
            raise _Rejected("no text after the front matter")
    body = _representable(_plain_text(text, warn), warn)
    if not fields_.get("title") and (found := headline(body)) is not None:
        fields_["title"] = body[found[0]:found[1]]  # a text file's first line: its headline
    return body, fields_


def _plain_text(text: str, warn: Callable[[str], None]) -> str:
    if not looks_like_html(text):
        return text
    try:
        text = read_page(text).text
    except NoArticle as e:
        raise _Rejected(f"HTML page without article text ({e})") from e
    warn("looks like HTML; read its article text (offsets refer to that text)")
    return text


def _representable(text: str, warn: Callable[[str], None]) -> str:
    """``text`` without characters a graph cannot carry, each replaced 1:1
    (``kg.ingest.characters``)."""
    text, replaced = replace_unrepresentable(text)
    if replaced:
        warn(f"{replaced} control character(s) or lone surrogate(s) replaced with U+FFFD")
    return text


def _log_skip(skipped: Skipped) -> None:
    _log.warning("skipped %s", skipped)


def _log_warning(path: str, message: str) -> None:
    _log.warning("%s: %s", path, message)
