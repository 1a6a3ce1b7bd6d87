"""An entity page's facts ordered by support: what many articles say comes first.

Roles are grouped by (side, person, post, organisation, former) with the number of articles
that state them and the best sentence (the most confident fact, then the shortest sentence:
the one that says it most plainly); claims by topic (the entity most of the speaker's claims
name); pronoun attributions carry the sentence they were resolved through, so a reader can
check "he" in one look.

>>> groups = role_groups([
...     {"side": "held", "person": "p", "role": "Prime Minister", "org": "uk", "former": None,
...      "article": "a1", "sentence": "Prime Minister Tony Blair said.", "confidence": "0.9"},
...     {"side": "held", "person": "p", "role": "Prime Minister", "org": "uk", "former": None,
...      "article": "a2", "sentence": "Mr Blair, the prime minister, said.", "confidence": "0.8"},
...     {"side": "held", "person": "p", "role": "Host", "org": None, "former": None,
...      "article": "a3", "sentence": "Host Tony Blair.", "confidence": "0.9"}])
>>> [(g["role"], g["articles"]) for g in groups]
[('Prime Minister', 2), ('Host', 1)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

Row = dict[str, Any]
#: Evidence rows kept per group besides the best one (the rest are counted).
MORE_EVIDENCE = 8
OTHER_TOPIC = ""


def role_groups(rows: Iterable[Row]) -> list[Row]:
    """Role facts grouped by side, person, post, organisation and former, most articles
    first (then most facts, then the post's name)."""
    groups: dict[tuple[Any, ...], Row] = {}
    for row in rows:
        key = (row["side"], row["person"], row["role"] or "", row["org"] or "",
               row["former"] == "true")
        group = groups.setdefault(key, {
            "side": row["side"], "person": row["person"], "personName": row.get("personName"),
            "role": row["role"], "org": row["org"], "orgName": row.get("orgName"),
            "former": row["former"] == "true", "facts": [], "article_set": set()})
        group["facts"].append(row)
        if row.get("article"):
            group["article_set"].add(row["article"])
    ordered = []
    for group in groups.values():
        facts = sorted(group["facts"], key=_strength)
        group.update(best=facts[0], more=facts[1:1 + MORE_EVIDENCE],
                     hidden=max(len(facts) - 1 - MORE_EVIDENCE, 0),
                     articles=len(group.pop("article_set")), count=len(facts))
        del group["facts"]
        ordered.append(group)
    ordered.sort(key=lambda g: (g["side"] or "", -g["articles"], -g["count"], g["role"] or ""))
    return ordered


def _strength(row: Row) -> tuple[float, int, str]:
    """Most confident first, then the shortest sentence, then the latest report."""
    try:
        confidence = float(row.get("confidence") or 0)
    except ValueError:
        confidence = 0.0
    sentence = row.get("sentence") or ""
    return (-confidence, len(sentence) if sentence else 10**6,
            _inverted(row.get("reported") or ""))


def _inverted(text: str) -> str:
    return "".join(chr(0x10FFFF - ord(c)) for c in text)


def claim_topics(claims: Sequence[Row], mentioned: dict[int, list[str]], speaker: str,
                 labels: dict[str, str]) -> list[Row]:
    """A speaker's claims grouped by topic: each claim under the entity it names that the
    speaker's claims name most often (not the speaker), biggest topic first; claims naming
    nobody last."""
    counts = Counter(e for claim in claims for e in set(mentioned.get(claim["id"], []))
                     if e != speaker)
    topics: dict[str, list[Row]] = {}
    for claim in claims:
        named = [e for e in mentioned.get(claim["id"], []) if e != speaker]
        topic = max(named, key=lambda e: (counts[e], labels.get(e, e)), default=OTHER_TOPIC)
        topics.setdefault(topic, []).append(claim)
    ordered = sorted(topics.items(), key=lambda item: (item[0] == OTHER_TOPIC, -len(item[1]),
                                                        labels.get(item[0], item[0])))
    return [{"topic": topic, "name": labels.get(topic) if topic else None, "claims": rows}
            for topic, rows in ordered]


def attribution(claim: Row) -> Row:
    """How a claim's speaker was found, for the page: the speaker as written, how it was
    resolved, and the sentence a pronoun or a bare surname was resolved through.

    >>> attribution({"resolution": "pronoun", "speaker_text": "he", "speaker_name": "Tony Blair",
    ...              "antecedent_words": "Blair", "antecedent_sentence": "Mr Blair spoke."})["note"]
    '“he” taken to be Tony Blair, named as “Blair” in:'
    """
    how = claim.get("resolution") or ""
    written, name = claim.get("speaker_text") or "", claim.get("speaker_name") or ""
    found = {"how": how or "name", "note": f"named: “{written}”" if written else "",
             "sentence": None, "indirect": False,
             "runs": marked_runs(claim.get("sentence") or "", claim.get("words") or "")}
    if how in ("pronoun", "earlier mention") and claim.get("antecedent_sentence"):
        antecedent = claim.get("antecedent_words") or name
        found.update(note=f"“{written}” taken to be {name}, named as “{antecedent}” in:",
                     sentence=marked_runs(claim["antecedent_sentence"], antecedent),
                     indirect=True)
    elif how == "group":
        found["note"] = f"a described group: “{written}”"
    elif how == "demonym":
        found["note"] = f"a people: “{written}” taken to be {name}"
    if claim.get("speaker_sentence"):  # a quotation continuing one whose speaker came before
        found["speaker_sentence"] = marked_runs(claim["speaker_sentence"], written)
    return found


def marked_runs(sentence: str, words: str) -> list[tuple[str, bool]]:
    """``sentence`` as runs of (text, marked), ``words`` marked where they first occur.

    >>> marked_runs("He said so.", "said")
    [('He ', False), ('said', True), (' so.', False)]
    """
    at = sentence.find(words) if words else -1
    if at < 0:
        return [(sentence, False)] if sentence else []
    runs = [(sentence[:at], False), (words, True), (sentence[at + len(words):], False)]
    return [run for run in runs if run[0]]
