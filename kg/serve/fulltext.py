"""Full-text search over sentences, claims and article titles: SQLite FTS5 (standard library).

The index is made from the served graph once, on the server's first start over that graph,
into ``<graph's folder>/.kg/search/<sha256 of the graph file>-v<version>.sqlite`` (written to
a temporary file and renamed into place, so a reader never sees half of one); a later start
over the same file opens it at once, and a rebuilt graph (another hash) gets its own. A folder
that cannot be written gets the index in memory. ``kg build`` is untouched: the graph file
stays the one thing a build publishes, and the index is derived from it like the store cache.

    store ─▶ articles, sentences, mentions, facts, claims (five whole-graph SELECTs)
          ─▶ unit (one row per sentence, claim or title) + text (FTS5, porter stemming)
             + facet (kind of fact, entity class, speaker, source, month) + claim (who said
             what, with the speaker as written and the sentence it was resolved through)

Ranking is FTS5's BM25 over the words, titles weighted above claims above sentences; every
word must match (a query finding nothing with all of them falls back to any of them).

>>> index = TextIndex.build(open_store("output/graph.trig"))  # doctest: +SKIP
>>> [hit.kind for hit in index.search("surrender").hits][:1]  # doctest: +SKIP
['claim']
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import sqlite3
import threading
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.rdf.namespaces import PREFIXES
from kg.serve.links import char_range
from kg.store.sparql import run_query

INDEX_VERSION = 1
INDEX_DIR = Path(".kg") / "search"
TOKENIZER = "porter unicode61 remove_diacritics 2"
#: BM25 weights of the text column by kind of unit (FTS5 ranks lower = better).
KIND_BOOST = {"title": 2.0, "claim": 1.4, "sentence": 1.0}
FACETS = ("kind", "fact", "class", "speaker", "source", "month")
FACET_TITLES = {"kind": "Found in", "fact": "Kind of fact", "class": "Names a",
                "speaker": "Speaker", "source": "Source", "month": "Published"}
PAGE_SIZE = 25
FACET_VALUES = 12
MAX_QUERY_WORDS = 12
HIGHLIGHT = ("\x02", "\x03")  # FTS5 highlight markers, split and escaped by the template
_WORD = re.compile(r"\w+(?:['’]\w+)*", re.UNICODE)
_log = logging.getLogger(__name__)

FACT_CLASSES = {f"{PREFIXES['org']}Membership": "role", f"{PREFIXES['schema']}Claim": "claim",
                f"{PREFIXES['sem']}Event": "event", f"{PREFIXES['schema']}Observation": "figure",
                f"{PREFIXES['rdf']}Statement": "relation"}
ENTITY_CLASSES = ("Person", "Organization", "Place", "Event", "CreativeWork", "Award",
                  "Product", "Vehicle", "Weapon")

ARTICLES = """SELECT ?article ?text (MIN(?t) AS ?title) (MIN(?d) AS ?date)
       (MIN(?s) AS ?source) WHERE {
  ?article a schema:NewsArticle .
  OPTIONAL { ?article nif:isString ?text }
  OPTIONAL { ?article schema:headline ?t }
  OPTIONAL { ?article schema:datePublished ?d }
  OPTIONAL { ?article schema:publisher ?p . ?p rdfs:label ?s }
} GROUP BY ?article ?text"""
SENTENCES = """SELECT ?sentence ?article WHERE {
  ?sentence a nif:Sentence ; nif:referenceContext ?article }"""
MENTION_CLASSES = """SELECT DISTINCT ?sentence ?class WHERE {
  ?m nif:sentence ?sentence ; itsrdf:taClassRef ?class }"""
SENTENCE_FACTS = """SELECT DISTINCT ?sentence ?class WHERE {
  ?fact prov:wasDerivedFrom ?sentence ; a ?class .
  FILTER(?class IN (org:Membership, schema:Claim, sem:Event, schema:Observation,
                    rdf:Statement)) }"""
CLAIMS = """SELECT ?claim ?article ?words ?author ?speakerText ?cue ?kind ?resolution
       ?speakerWords ?antecedent ?confidence ?rule WHERE {
  ?claim a schema:Claim ; dcterms:source ?article ; gaf:denotedBy ?words .
  OPTIONAL { ?claim schema:author ?author }
  OPTIONAL { ?claim kg:speakerText ?speakerText }
  OPTIONAL { ?claim kg:cueVerb ?cue }
  OPTIONAL { ?claim kg:claimKind ?kind }
  OPTIONAL { ?claim kg:speakerResolution ?resolution }
  OPTIONAL { ?claim kg:speakerWords ?speakerWords }
  OPTIONAL { ?claim kg:speakerAntecedent ?antecedent }
  OPTIONAL { ?claim kg:confidence ?confidence }
  OPTIONAL { ?claim kg:extractedBy ?rule }
}"""
CLAIM_MENTIONS = """SELECT DISTINCT ?claim ?entity WHERE {
  ?claim a schema:Claim ; schema:mentions ?entity }"""
LABELS = """SELECT ?s (MIN(?l) AS ?label) WHERE { ?s rdfs:label ?l } GROUP BY ?s"""

SCHEMA = """
CREATE TABLE unit (id INTEGER PRIMARY KEY, kind TEXT, article TEXT, title TEXT, date TEXT,
                   source TEXT, begin INTEGER, end INTEGER, claim INTEGER);
CREATE VIRTUAL TABLE text USING fts5(body, tokenize='{tokenizer}');
CREATE TABLE facet (unit INTEGER, name TEXT, value TEXT);
CREATE INDEX facet_value ON facet (name, value, unit);
CREATE INDEX facet_unit ON facet (unit);
CREATE TABLE claim (id INTEGER PRIMARY KEY, iri TEXT, article TEXT, title TEXT, date TEXT,
                    speaker TEXT, speaker_name TEXT, speaker_text TEXT, resolution TEXT,
                    cue TEXT, kind TEXT, words TEXT, begin INTEGER, end INTEGER,
                    sentence TEXT, speaker_sentence TEXT, antecedent_words TEXT,
                    antecedent_sentence TEXT, confidence REAL, rule TEXT);
CREATE TABLE claim_entity (claim INTEGER, entity TEXT);
CREATE INDEX claim_entity_entity ON claim_entity (entity, claim);
CREATE INDEX claim_speaker ON claim (speaker);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
""".replace("{tokenizer}", TOKENIZER)


@dataclass
class Hit:
    """One unit found: a sentence, a claim or a title, with its words marked."""

    kind: str
    article: str
    title: str | None
    date: str | None
    source: str | None
    begin: int
    end: int
    marked: list[tuple[str, bool]]
    claim: dict[str, Any] | None = None


@dataclass
class Results:
    """A page of hits, how many there are, and the facet counts over all of them."""

    query: str
    hits: list[Hit]
    total: int
    facets: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    any_word: bool = False  # no unit had every word: units with any of them


class TextIndex:
    """The full-text index of one graph, an SQLite database (a file, or in memory)."""

    def __init__(self, connect: Any, path: Path | None = None) -> None:
        self._connect = connect
        self.path = path
        self._local = threading.local()
        self._memory_lock = threading.Lock() if path is None else None

    # -- opening and building ------------------------------------------------------------

    @classmethod
    def for_graph(cls, store: ox.Store, graph: Path) -> TextIndex:
        """The index of the graph file ``graph`` (opened from ``store``): the one on disk when
        it matches the file's hash, else built now (and kept on disk when possible)."""
        name = f"{graph.name}-{_file_hash(graph)}-v{INDEX_VERSION}.sqlite"
        target = graph.parent / INDEX_DIR / name
        if target.is_file():
            return cls.open(target)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            temp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
            try:
                with sqlite3.connect(temp) as connection:
                    _fill(connection, store)
                connection.close()
                os.replace(temp, target)
            finally:
                temp.unlink(missing_ok=True)
            _forget_others(target, graph.name)
            return cls.open(target)
        except (OSError, sqlite3.Error) as e:  # a folder that cannot be written
            _log.warning("full-text index kept in memory (%s: %s)", target.parent,
                         getattr(e, "strerror", None) or e)
            return cls.build(store)

    @classmethod
    def open(cls, path: Path) -> TextIndex:
        uri = f"file:{path}?mode=ro"
        return cls(lambda: sqlite3.connect(uri, uri=True, check_same_thread=False), path)

    @classmethod
    def build(cls, store: ox.Store) -> TextIndex:
        """An index in memory (tests, and folders that cannot be written)."""
        connection = sqlite3.connect(":memory:", check_same_thread=False)
        _fill(connection, store)
        return cls(lambda: connection)

    def _db(self) -> sqlite3.Connection:
        found = getattr(self._local, "db", None)
        if found is None:
            found = self._local.db = self._connect()
        return found

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self._memory_lock is None:
            return self._db().execute(sql, args).fetchall()
        with self._memory_lock:
            return self._db().execute(sql, args).fetchall()

    # -- searching ----------------------------------------------------------------------

    def search(self, text: str, filters: dict[str, str] | None = None, offset: int = 0,
               limit: int = PAGE_SIZE) -> Results:
        """The units matching ``text``, best first, with facet counts; ``filters`` keep one
        value of some facets (``{"kind": "claim", "speaker": "Tony Blair"}``)."""
        filters = {k: v for k, v in (filters or {}).items() if k in FACETS and v}
        words = fts_words(text)
        if not words:
            return Results(text, [], 0)
        results = self._search(" ".join(words), text, filters, offset, limit)
        if results.total == 0 and len(words) > 1:
            results = self._search(" OR ".join(words), text, filters, offset, limit)
            results.any_word = results.total > 0
        return results

    def _search(self, match: str, text: str, filters: dict[str, str], offset: int,
                limit: int) -> Results:
        where, args = _filtered(match, filters)
        total = self._rows(f"SELECT COUNT(*) FROM text WHERE {where}", args)[0][0]
        rows = self._rows(
            "SELECT u.kind, u.article, u.title, u.date, u.source, u.begin, u.end, u.claim, "
            f"highlight(text, 0, '{HIGHLIGHT[0]}', '{HIGHLIGHT[1]}') "
            f"FROM text JOIN unit u ON u.id = text.rowid WHERE {where} "
            "ORDER BY bm25(text) * CASE u.kind WHEN 'title' THEN ? WHEN 'claim' THEN ? "
            "ELSE ? END LIMIT ? OFFSET ?",
            [*args, KIND_BOOST["title"], KIND_BOOST["claim"], KIND_BOOST["sentence"],
             limit, offset])
        claims = self._claims([r[7] for r in rows if r[7] is not None])
        hits = [Hit(kind, article, title, date, source, begin, end, _marked(body),
                    claims.get(claim) if claim is not None else None)
                for kind, article, title, date, source, begin, end, claim, body in rows]
        facets: dict[str, list[tuple[str, int]]] = {}
        for name, value, count in self._rows(
                f"SELECT f.name, f.value, COUNT(*) FROM facet f WHERE f.unit IN "
                f"(SELECT rowid FROM text WHERE {where}) GROUP BY f.name, f.value", args):
            facets.setdefault(name, []).append((value, count))
        for name in facets:
            facets[name].sort(key=lambda pair: (-pair[1], pair[0]))
            facets[name] = facets[name][:FACET_VALUES] if name not in filters else facets[name]
        return Results(text, hits, total, facets)

    def _claims(self, ids: Iterable[int]) -> dict[int, dict[str, Any]]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        rows = self._rows(f"SELECT * FROM claim WHERE id IN ({marks})", wanted)
        return {row[0]: _claim_row(row) for row in rows}

    def said_about(self, text: str, entities: Sequence[str] = (),
                   limit: int = 400) -> list[dict[str, Any]]:
        """Who said what about ``text``: claims whose words match it or that mention one of
        ``entities``, grouped by speaker (most claims first), each claim with its sentence."""
        found: dict[int, dict[str, Any]] = {}
        words = fts_words(text)
        if words:
            rows = self._rows("SELECT u.claim FROM text JOIN unit u ON u.id = text.rowid "
                              "WHERE text MATCH ? AND u.kind = 'claim' ORDER BY bm25(text) "
                              "LIMIT ?", [" ".join(words), limit])
            found.update(self._claims(r[0] for r in rows))
        if entities:
            marks = ",".join("?" * len(entities))
            rows = self._rows(f"SELECT DISTINCT claim FROM claim_entity WHERE entity IN "
                              f"({marks}) LIMIT ?", [*entities, limit])
            found.update(self._claims(r[0] for r in rows))
        return self.by_speaker(sorted(found.values(), key=lambda c: (c["article"], c["begin"])))

    def claims_of(self, speaker: str) -> list[dict[str, Any]]:
        """Every claim the entity ``speaker`` made, in article and text order."""
        rows = self._rows("SELECT * FROM claim WHERE speaker = ? ORDER BY article, begin",
                          [speaker])
        return [_claim_row(row) for row in rows]

    def claims_naming(self, entity: str) -> list[dict[str, Any]]:
        """Every claim that names the entity (``schema:mentions``), in article order."""
        rows = self._rows("SELECT c.* FROM claim_entity e JOIN claim c ON c.id = e.claim "
                          "WHERE e.entity = ? ORDER BY c.article, c.begin", [entity])
        return [_claim_row(row) for row in rows]

    @staticmethod
    def by_speaker(claims: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """Claims grouped by speaker, most claims first."""
        groups: dict[str, dict[str, Any]] = {}
        for claim in claims:
            key = claim["speaker"] or claim["speaker_name"] or ""
            group = groups.setdefault(key, {"speaker": claim["speaker"],
                                            "name": claim["speaker_name"], "claims": []})
            group["claims"].append(claim)
        return sorted(groups.values(), key=lambda g: (-len(g["claims"]), g["name"] or ""))

    def claim_entities(self, claims: Sequence[int]) -> dict[int, list[str]]:
        """The entities each claim mentions."""
        if not claims:
            return {}
        marks = ",".join("?" * len(claims))
        found: dict[int, list[str]] = defaultdict(list)
        for claim, entity in self._rows(f"SELECT claim, entity FROM claim_entity WHERE claim "
                                        f"IN ({marks})", list(claims)):
            found[claim].append(entity)
        return found

    def counts(self) -> dict[str, int]:
        return dict(self._rows("SELECT kind, COUNT(*) FROM unit GROUP BY kind"))


def fts_words(text: str) -> list[str]:
    """``text`` as FTS5 terms: each word quoted (no query syntax gets through).

    >>> fts_words('tax "rises" OR NEAR(x)')
    ['"tax"', '"rises"', '"or"', '"near"', '"x"']
    """
    return [f'"{w.casefold()}"' for w in _WORD.findall(text)][:MAX_QUERY_WORDS]


def _filtered(match: str, filters: dict[str, str]) -> tuple[str, list[Any]]:
    where, args = "text MATCH ?", [match]
    for name, value in sorted(filters.items()):
        where += " AND text.rowid IN (SELECT unit FROM facet WHERE name = ? AND value = ?)"
        args += [name, value]
    return where, args


def _marked(body: str) -> list[tuple[str, bool]]:
    """Highlighted text as runs of (text, marked)."""
    runs, marked = [], False
    for part in re.split(f"([{HIGHLIGHT[0]}{HIGHLIGHT[1]}])", body):
        if part == HIGHLIGHT[0]:
            marked = True
        elif part == HIGHLIGHT[1]:
            marked = False
        elif part:
            runs.append((part, marked))
    return runs


CLAIM_COLUMNS = ("id", "iri", "article", "title", "date", "speaker", "speaker_name",
                 "speaker_text", "resolution", "cue", "kind", "words", "begin", "end",
                 "sentence", "speaker_sentence", "antecedent_words", "antecedent_sentence",
                 "confidence", "rule")


def _claim_row(row: Sequence[Any]) -> dict[str, Any]:
    return dict(zip(CLAIM_COLUMNS, row, strict=True))


# -- building ---------------------------------------------------------------------------------


@dataclass
class _Article:
    text: str
    title: str | None
    date: str | None
    source: str | None
    sentences: list[tuple[int, int]] = field(default_factory=list)

    def sentence_at(self, offset: int) -> tuple[int, int] | None:
        starts = [b for b, _ in self.sentences]
        i = bisect_right(starts, offset) - 1
        if i >= 0 and offset < self.sentences[i][1]:
            return self.sentences[i]
        return None

    def sentences_over(self, begin: int, end: int) -> str:
        """The sentences a stretch of text lies in, in text order, joined."""
        found = [(b, e) for b, e in self.sentences if b < end and begin < e]
        if not found:
            return self.text[begin:end]
        return " ".join(self.text[b:e] for b, e in found)


def _select(store: ox.Store, sparql: str) -> Iterator[dict[str, str | None]]:
    result = run_query(store, sparql, source="full-text index")
    assert isinstance(result, ox.QuerySolutions)
    names = [v.value for v in result.variables]
    for row in result:
        yield {n: (t.value if t is not None else None) for n, t in zip(names, row, strict=True)}


def _fill(connection: sqlite3.Connection, store: ox.Store) -> None:
    """Read the graph and write every table of the index."""
    connection.executescript(SCHEMA)
    articles = {r["article"] or "": _Article(r["text"] or "", r["title"], r["date"], r["source"])
                for r in _select(store, ARTICLES)}
    sentence_facets: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for row in _select(store, SENTENCES):
        found = char_range(row["sentence"] or "")
        article = articles.get(row["article"] or "")
        if found and article is not None:
            article.sentences.append(found)
    for article in articles.values():
        article.sentences.sort()
    for row in _select(store, MENTION_CLASSES):
        name = _local(row["class"])
        if name in ENTITY_CLASSES:
            sentence_facets[row["sentence"] or ""].add(("class", name))
    for row in _select(store, SENTENCE_FACTS):
        sentence_facets[row["sentence"] or ""].add(("fact", FACT_CLASSES[row["class"] or ""]))
    labels = {r["s"] or "": r["label"] or "" for r in _select(store, LABELS)}
    claim_rows = _claim_rows(store, articles, labels)
    for claim in claim_rows:
        for sentence in claim.pop("_sentences"):
            sentence_facets[sentence].add(("speaker", claim["speaker_name"] or ""))
    writer = _Writer(connection)
    for iri, article in articles.items():
        if article.title:
            writer.unit("title", iri, article, 0, 0, article.title, None, set())
        for begin, end in article.sentences:
            sentence = f"{iri}#sentence={begin},{end}"
            writer.unit("sentence", iri, article, begin, end, article.text[begin:end], None,
                        sentence_facets.get(sentence, set()))
    for claim in claim_rows:
        article = articles[claim["article"]]
        facets = {("fact", "claim"), ("speaker", claim["speaker_name"] or "")}
        facets |= {f for s in claim.pop("_facet_sentences") for f in sentence_facets.get(s, ())
                   if f[0] == "class"}
        claim_id = writer.claim(claim)
        writer.unit("claim", claim["article"], article, claim["begin"], claim["end"],
                    f"{claim['speaker_text'] or ''} {claim['cue'] or ''}: {claim['words']}",
                    claim_id, facets)
    mentions = [(writer.claim_ids[r["claim"] or ""], r["entity"])
                for r in _select(store, CLAIM_MENTIONS) if (r["claim"] or "") in writer.claim_ids]
    connection.executemany("INSERT INTO claim_entity VALUES (?, ?)", mentions)
    connection.execute("INSERT INTO meta VALUES ('version', ?)", [str(INDEX_VERSION)])
    connection.commit()


def _claim_rows(store: ox.Store, articles: dict[str, _Article],
                labels: dict[str, str]) -> list[dict[str, Any]]:
    """Every claim with its words, sentence, speaker as written and antecedent, read from
    the articles' text by the offsets in the IRIs (the NIF data contract)."""
    rows: dict[str, dict[str, Any]] = {}
    for row in _select(store, CLAIMS):
        iri, article = row["claim"] or "", articles.get(row["article"] or "")
        words = char_range(row["words"] or "")
        if article is None or words is None or iri in rows:
            continue
        begin, end = words
        speaker_at = char_range(row["speakerWords"] or "")
        antecedent = char_range(row["antecedent"] or "")
        covering = [f"{row['article']}#sentence={b},{e}" for b, e in article.sentences
                    if b < end and begin < e]
        said = article.sentence_at(speaker_at[0]) if speaker_at else None
        rows[iri] = {
            "iri": iri, "article": row["article"], "title": article.title, "date": article.date,
            "speaker": row["author"], "speaker_name": labels.get(row["author"] or "")
            or row["speakerText"], "speaker_text": row["speakerText"],
            "resolution": row["resolution"], "cue": row["cue"], "kind": row["kind"],
            "words": article.text[begin:end], "begin": begin, "end": end,
            "sentence": article.sentences_over(begin, end),
            "speaker_sentence": (article.text[said[0]:said[1]]
                                 if said and not (said[0] <= begin < said[1]) else None),
            "antecedent_words": article.text[antecedent[0]:antecedent[1]] if antecedent else None,
            "antecedent_sentence": _sentence_text(article, antecedent),
            "confidence": float(row["confidence"]) if row["confidence"] else None,
            "rule": row["rule"], "_sentences": covering, "_facet_sentences": covering}
    return list(rows.values())


def _sentence_text(article: _Article, span: tuple[int, int] | None) -> str | None:
    if span is None:
        return None
    found = article.sentence_at(span[0])
    return article.text[found[0]:found[1]] if found else None


class _Writer:
    """Rows into the unit, text, facet and claim tables."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.next_unit = 1
        self.next_claim = 1
        self.claim_ids: dict[str, int] = {}

    def unit(self, kind: str, article_iri: str, article: _Article, begin: int, end: int,
             body: str, claim: int | None, facets: set[tuple[str, str]]) -> None:
        unit = self.next_unit
        self.next_unit += 1
        self.connection.execute("INSERT INTO unit VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                (unit, kind, article_iri, article.title, article.date,
                                 article.source, begin, end, claim))
        self.connection.execute("INSERT INTO text (rowid, body) VALUES (?, ?)", (unit, body))
        rows = {("kind", kind), *facets,
                ("month", (article.date or "")[:7] or "undated")}
        if article.source:
            rows.add(("source", article.source))
        self.connection.executemany("INSERT INTO facet VALUES (?, ?, ?)",
                                    [(unit, name, value) for name, value in rows if value])

    def claim(self, claim: dict[str, Any]) -> int:
        claim_id = self.next_claim
        self.next_claim += 1
        self.claim_ids[claim["iri"]] = claim_id
        values = [claim_id] + [claim[c] for c in CLAIM_COLUMNS[1:]]
        self.connection.execute(f"INSERT INTO claim VALUES ({','.join('?' * len(values))})",
                                values)
        return claim_id


def _local(iri: str | None) -> str:
    return (iri or "").rsplit("#", 1)[-1].rsplit("/", 1)[-1]


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()[:32]


def _forget_others(keep: Path, graph_name: str) -> None:
    """Remove the indexes of earlier versions of the graph file (another hash)."""
    for other in keep.parent.glob(f"{graph_name}-*.sqlite"):
        if other != keep:
            try:
                other.unlink()
            except OSError:
                pass
