"""The lexicon: the word lists of English news that the rules and the resolver share.

    words.py       titles, institution and company words, honorifics, number qualifiers …
    fact_words.py  speech cues, event triggers, ranks, counted things
    countries.py   countries as news names them: short names, acronyms, demonyms → ISO code
"""
