"""Characters a graph cannot carry safely, and their 1:1 replacement with U+FFFD.

RDF syntaxes escape every character, but a graph goes further: SPARQL XML results, RDF/XML
and HTML views are XML-like, and XML 1.0 has no way at all to write C0 control characters
(other than tab, line feed and carriage return), lone surrogates, U+FFFE or U+FFFF. Oxigraph
cannot even take a lone surrogate. Such characters carry no meaning in news text, so kg
replaces each with one U+FFFD REPLACEMENT CHARACTER: the text keeps its length, so every
offset computed on it stays a valid ``str`` index. DEL (U+007F), C1 controls, U+2028 and
U+2029 are legal XML characters and are kept.

>>> replace_unrepresentable("Kyiv\\x00Lviv\\x1b")
('Kyiv\\ufffdLviv\\ufffd', 2)
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
UNREPRESENTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def replace_unrepresentable(text: str) -> tuple[str, int]:
    """``text`` with each unrepresentable character replaced by U+FFFD, and how many were.

    >>> replace_unrepresentable("tab\\tand newline\\n stay")
    ('tab\\tand newline\\n stay', 0)
    """
    return UNREPRESENTABLE.subn(REPLACEMENT, text)
