"""The rules behind ``kg.resolve``: mention cues, groups within an article, merges across.

    context.py   what the words around a mention say (country qualifier, "steel works", "in")
    groups.py    Group (mentions believed to be one thing), union-find, decisions
    document.py  within one article: classes corrected, short forms attached
    corpus.py    across articles: blocked candidate keys, merge rules
"""
