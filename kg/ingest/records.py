"""JSON Lines and CSV exports (news APIs, scrapers) → one article per record.

Fields are found under their common names, case-insensitively (first match wins):

    text     text, content, body, article, maintext, article_text, full_text
    title    title, headline
    date     date, published, publishedAt, published_at, pubDate, date_publish, datePublished
    url      url, link
    source   source, publisher, site, sitename, source_name, source_domain
    author   author, authors, byline
    id       id

or named with ``fields`` (``kg build --field text=maintext --field date=date_publish``); a
name may reach into a JSON object with dots (``source.name``). A ``source`` that is an object
(NewsAPI's ``{"id": …, "name": "BBC News"}``) gives its ``name``; a list of authors is joined.

A bad record is skipped and named with its file and line (``export.jsonl:12: broken JSON …``,
``export.csv:7: field 'text' is empty``); the rest of the file builds. A CSV quote that is
never closed swallows the rest of the file, which is said as such.

>>> found = list(record_articles(b'{"headline": "Talks", "body": "Talks resumed."}\\n', "a.jsonl"))
>>> found[0].text, found[0].fields
('Talks resumed.', {'title': 'Talks'})
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from kg.dates import BadDate, checked_date
from kg.ingest.found import Found, Item, Items, Unusable
from kg.ingest.links import checked_url, id_from_url
from kg.limits import load_json, size_text

RECORD_SUFFIXES = frozenset({".jsonl", ".ndjson", ".csv"})

#: kg's field -> the names exports use for it, in order of preference.
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "text": ("text", "content", "body", "article", "maintext", "article_text", "full_text"),
    "title": ("title", "headline"),
    "date": ("date", "published", "publishedat", "published_at", "pubdate", "date_publish",
             "datepublished"),
    "url": ("url", "link"),
    "source": ("source", "publisher", "site", "sitename", "source_name", "source_domain"),
    "author": ("author", "authors", "byline"),
    "id": ("id",),
}


def parse_field_options(options: list[str]) -> dict[str, str]:
    """``["text=maintext", …]`` as a mapping; ``ValueError`` for an unknown field or no ``=``.

    >>> parse_field_options(["text=maintext", "date=date_publish"])
    {'text': 'maintext', 'date': 'date_publish'}
    """
    mapping: dict[str, str] = {}
    for option in options:
        name, sep, column = option.partition("=")
        name, column = name.strip().lower(), column.strip()
        if not sep or not column:
            raise ValueError(f"{option!r}: expected FIELD=NAME, e.g. text=maintext")
        if name not in FIELD_NAMES:
            raise ValueError(f"{option!r}: unknown field {name!r} "
                             f"(known: {', '.join(FIELD_NAMES)})")
        mapping[name] = column
    return mapping


def record_articles(data: bytes | str, path: str,
                    fields: Mapping[str, str] | None = None,
                    max_bytes: int | None = None) -> Items:
    """One ``Found`` or ``Unusable`` per record of the JSON Lines or CSV export in ``data``.

    Each line is UTF-8, or else cp1252 with a warning naming its record (exports glued from
    several sources mix them). A JSON line longer than ``max_bytes`` is skipped unread.
    """
    text, recoded = _decoded_lines(data)
    rows = _csv_rows(text, path) if path.lower().endswith(".csv") else \
        _json_rows(text, path, max_bytes)
    stem = Path(path).stem
    any_record = False
    for where, row, lines in rows:
        any_record = True
        if isinstance(row, Unusable):
            yield row
            continue
        found = _record(row, where, stem, fields or {})
        notes = [f"line {n} is not valid UTF-8; read as cp1252" for n in lines if n in recoded]
        if notes and isinstance(found, Found):
            found = replace(found, warnings=(*found.warnings, *notes))
        yield found
    if not any_record:
        yield Unusable(path, "no records")


def _decoded_lines(data: bytes | str) -> tuple[str, set[int]]:
    """The text of an export and the numbers of its lines that were not UTF-8 (cp1252)."""
    if isinstance(data, str):
        return data, set()
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8"), set()
    except UnicodeDecodeError:
        pass
    lines, recoded = [], set()
    for number, line in enumerate(data.split(b"\n"), 1):
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            lines.append(line.decode("cp1252", errors="replace"))
            recoded.add(number)
    return "\n".join(lines), recoded


def _json_rows(text: str, path: str,
               max_bytes: int | None) -> Iterator[tuple[str, Any, range]]:
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        where, lines = f"{path}:{number}", range(number, number + 1)
        if max_bytes is not None and len(line) > max_bytes:
            yield where, Unusable(where, f"record larger than the limit of "
                                  f"{size_text(max_bytes)} (the max_article_bytes setting)",
                                  "max_article_bytes"), lines
            continue
        try:
            row = load_json(line)  # kg.limits: refuses nesting too deep to parse
        except ValueError as e:
            yield where, Unusable(where, f"broken JSON ({e})"), lines
            continue
        if not isinstance(row, dict):
            yield where, Unusable(where, f"not a JSON object but {_type(row)}"), lines
            continue
        yield where, row, lines


def _csv_rows(text: str, path: str) -> Iterator[tuple[str, Any, range]]:
    csv.field_size_limit(64 * 1024 * 1024)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            return
        line = reader.line_num + 1
        for row in reader:
            where, lines = f"{path}:{line}", range(line, reader.line_num + 1)
            line = reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                yield where, Unusable(where, f"{len(row)} cells where the header has "
                                      f"{len(header)}"), lines
                continue
            yield where, dict(zip(header, row, strict=True)), lines
    except csv.Error as e:
        where = f"{path}:{line}"
        reason = str(e)
        if "unexpected end of data" in reason or "EOF" in reason:
            reason = "a quote opened here is never closed"
        yield where, Unusable(where, f"broken CSV: {reason}; the rest of the file is not read"), \
            range(0)


def _record(row: Mapping[str, Any], where: str, stem: str, names: Mapping[str, str]) -> Item:
    try:
        values = {key: _value(row, key, names.get(key)) for key in FIELD_NAMES}
        text = values["text"]
        if text is None:
            wanted = names.get("text") or "/".join(FIELD_NAMES["text"])
            raise ValueError(f"no text (no field {wanted})")
        if not text.strip():
            raise ValueError(f"field {_label(row, 'text', names.get('text'))!r} is empty")
    except ValueError as e:
        return Unusable(where, str(e))
    warnings: list[str] = []
    fields: dict[str, Any] = {"title": values["title"], "source": values["source"],
                              "author": values["author"], "identifier": values["id"]}
    if values["url"]:
        fields["url"] = checked_url(values["url"], warnings.append)
    if values["date"]:
        fields["date_published"] = _date(values["date"], warnings.append)
    line = where.rsplit(":", 1)[1]
    default_id = id_from_url(fields["url"]) if fields.get("url") else f"{stem}-{line}"
    return Found(where, text, {k: v for k, v in fields.items() if v}, default_id,
                 tuple(warnings))


def _value(row: Mapping[str, Any], key: str, name: str | None) -> str | None:
    """The record's value for kg's field ``key`` as a string, ``None`` when absent."""
    label: str | None = name
    if name is not None:
        found = _dotted(row, name)
    else:
        lowered = {str(k).lower(): k for k in row}
        label = next((lowered[n] for n in FIELD_NAMES[key] if n in lowered), None)
        found = row[label] if label is not None else None
    if found is None or (found == "" and key != "text"):
        return None
    if key == "source" and isinstance(found, dict):
        found = found.get("name") or found.get("id")
    if key == "author" and isinstance(found, list) and all(isinstance(a, str) for a in found):
        found = ", ".join(a.strip() for a in found if a.strip())
    if key == "id" and isinstance(found, int) and not isinstance(found, bool):
        found = str(found)
    if not isinstance(found, str):
        raise ValueError(f"field {label!r} is {_type(found)}, not a string")
    return found.strip() if key != "text" else found


def _label(row: Mapping[str, Any], key: str, name: str | None) -> str:
    if name is not None:
        return name
    lowered = {str(k).lower(): str(k) for k in row}
    return next((lowered[n] for n in FIELD_NAMES[key] if n in lowered), key)


def _dotted(row: Mapping[str, Any], name: str) -> Any:
    value: Any = row
    for part in name.split("."):
        if not isinstance(value, Mapping) or part not in value:
            return None
        value = value[part]
    return value


def _date(value: str, warn: Callable[[str], None]) -> date | None:
    """A publication date from ISO 8601 or RFC 2822 (``Wed, 18 May 2022 10:00:00 GMT``),
    checked by ``kg.dates`` (``0001-01-01`` is no date)."""
    try:
        return checked_date(value)
    except BadDate as e:
        warn(f"date {e}; date ignored")
        return None


def _type(value: Any) -> str:
    names = {dict: "an object", list: "a list", bool: "true/false", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)
