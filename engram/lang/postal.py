"""Postal addresses in memory text: where a street with its house number, or a postcode, is written.

Precision first: a street needs a house number, a capitalised name and a street word ("14 Elm Road",
"Hauptstraße 5", "12 rue de la Paix"); a postcode needs its full national form (UK "M20 6RT", US
"Springfield, IL 62704" or a ZIP+4 after a state or the word zip, a German PLZ only after a street). A number
alone before a street word ("the 5 Way test", "version 14 Street Fighter") is no address. Only spans are returned:
the caller (engram.lang.pii) decides what a finding is.
"""

from __future__ import annotations

import re

_STREET_WORD = (
    r"(?:Road|Rd|Street|St|Lane|Ln|Avenue|Ave|Close|Drive|Dr|Way|Boulevard|Blvd|Court|Ct|Place|Pl|Terrace|"
    r"Crescent|Grove|Gardens|Square|Mews|Parade|Parkway|Pkwy|Highway|Hwy)"
)
_NAME = r"(?:St\.?|[A-Z][a-z'\u2019]+(?:-[A-Z][a-z'\u2019]+)?)"
# A word right before the number that makes it a count or a label, not a house number ("Room 12 Park Lane").
_LABEL = re.compile(
    r"\b(?:version|v|chapter|room|page|no|number|order|episode|season|level|vol|volume|part|step|item|track|"
    r"game|platform|gate|flight|bus|route|at\s+least|about|over|under|only|just|top|best|the|my|our|your|"
    r"these|those|all)\s*[.#:]?\s*$",
    re.IGNORECASE,
)
# A year after a word of time ("in 2019 Oxford Street was closed") is no house number.
_YEAR = re.compile(r"\b(?:in|since|by|from|until|of|year|before|after)\s+(?:18|19|20)\d\d\b", re.IGNORECASE)
_YEARLIKE = re.compile(r"(?:18|19|20)\d\d\s")
_NAMED_ON = re.compile(r"\s+[A-Z][a-z]")
_ENGLISH = re.compile(
    rf"(?<![\w.,:$£€#/+-])\d{{1,5}}[A-Za-z]?(?:[-/]\d{{1,5}}[A-Za-z]?)?,?\s+(?:{_NAME}\s+){{1,3}}{_STREET_WORD}\b(?:\s+(?:N|S|E|W|NE|NW|SE|SW)\b)?"
    r"(?!\s+[A-Z][a-z]*\s+[A-Z])"  # "14 Market Street Fighter Championship": a title, not a street
)
_GERMAN = re.compile(
    r"(?<![\w-])(?:[A-ZÄÖÜ][\wäöüß.-]*\s+)?[A-ZÄÖÜ][\wäöüß-]*(?:straße|strasse|str\.|gasse|allee|platz)"
    r"\s+\d{1,4}\s?[a-z]?(?![\w.,:]?\d)"
    r"|(?<![\w-])[A-ZÄÖÜ][\wäöüß-]+(?:e[rn])?\s+(?:Straße|Strasse|Str\.|Weg|Allee|Gasse|Platz)\s+\d{1,4}\s?[a-z]?"
    r"(?![\w.,:]?\d)"
)
_FRENCH = re.compile(
    r"(?<![\w.,:$£€#/+-])\d{1,4}(?:\s?(?:bis|ter))?,?\s+(?i:rue|avenue|boulevard|bd|place|allée|impasse|chemin|quai)"
    r"\s+(?:(?:de|du|des|la|le|l'|d')\s*)*[A-ZÉÈ][\w'-]+"
)
# After a street: the postcode and town of Germany or France ("Hauptstraße 5, 10115 Berlin").
_PLZ_TOWN = re.compile(r",?\s+\d{5}\s+[A-ZÄÖÜÉ][\wäöüßé-]+")
_UK_POSTCODE = re.compile(
    r"(?<![\w-])(?:GIR 0AA|[A-PR-UWYZ](?:\d[A-HJKPSTUW\d]?|[A-HK-Y]\d[ABEHMNPRVWXY\d]?) \d[ABD-HJLNP-UW-Z]{2})"
    r"(?![\w-])"
)
_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|"
    "OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY"
)
_US_TOWN_ZIP = re.compile(
    rf"(?<![\w-])[A-Z][a-z]+(?:\s+[A-Z][a-z]+){{0,2}},\s*(?:{_STATES})\s+\d{{5}}(?:-\d{{4}})?(?![\w-])"
)
_ZIP4 = re.compile(r"(?<![\w-])\d{5}-\d{4}(?![\w-])")
# What a ZIP+4 follows: a state ("CA 94105-1234") or the word zip; alone it may be an order number.
_ZIP4_SAID = re.compile(rf"(?:\b(?:{_STATES})|(?i:\bzip(?:\s*code)?\s*(?:is|:)?))\s*$")
_GERMAN_WORDS = ("straße", "strasse", "str.", "gasse", "allee", "platz", " weg ")
_DIGIT = re.compile(r"\d")
# Canada after the province ("Toronto ON M6J 2P4"); Australia's state and four digits only after a street
# ("8 Rankins Ln, Melbourne VIC 3000"; alone, "WA 3000" may be a score).
_PROVINCE_CODE = re.compile(
    r"\b(?:AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)\s+[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] \d[ABCEGHJ-NPRSTV-Z]\d"
    r"(?![\w-])"
)
_STATE_CODE = re.compile(r"\b(?:NSW|VIC|QLD|SA|WA|TAS|ACT|NT)\s+\d{4}(?![\w-])")
_TOWN = r"[A-Z][a-z'\u2019]+(?:[\s-][A-Z][a-z'\u2019]+){0,2}"
_UNIT = r"(?:Flat|Apt\.?|Apartment|Unit|Suite)\s+\w{1,5}"
# Between a street and a postcode: a flat and up to two towns ("14 Elm Road, Flat 3, Didsbury, Manchester M20 6RT").
_BETWEEN = re.compile(rf"(?:,?\s*(?:{_TOWN}|{_UNIT})){{0,3}},?\s*")
# A town after a street, taken only where the sentence ends with it ("We live at 14 Elm Road, Didsbury.").
_LAST_TOWN = re.compile(rf",\s*{_TOWN}(?=\s*(?:[.;!?)]|$))")


def addresses(text: str) -> list[tuple[int, int]]:
    """The spans of `text` that write a postal address, sorted and not overlapping."""
    if not _DIGIT.search(text):
        return []  # every form has a house number or a postcode
    spans: list[tuple[int, int]] = []
    for m in _ENGLISH.finditer(text):
        before = text[max(0, m.start() - 20) : m.start()]
        if _LABEL.search(before) or _YEAR.search(text[max(0, m.start() - 7) : m.start() + 4]):
            continue
        if _YEARLIKE.match(m.group()) and _NAMED_ON.match(text, m.end()):
            continue  # "1973 Madison Square Garden": a year before a place's name
        spans.append((m.start(), m.end()))
    lower = text.lower()
    german = _GERMAN.finditer(text) if any(w in lower for w in _GERMAN_WORDS) else iter(())
    for m in [*german, *_FRENCH.finditer(text)]:
        end = m.end()
        if town := _PLZ_TOWN.match(text, end):
            end = town.end()
        spans.append((m.start(), end))
    spans += [(m.start(), m.end()) for m in _UK_POSTCODE.finditer(text)]
    spans += [(m.start(), m.end()) for m in _US_TOWN_ZIP.finditer(text)]
    spans += [(m.start(), m.end()) for m in _PROVINCE_CODE.finditer(text)]
    spans += [
        (m.start(), m.end())
        for m in _ZIP4.finditer(text)
        if _ZIP4_SAID.search(text[max(0, m.start() - 16) : m.start()])
    ]
    tails = [(m.start(), m.end()) for m in _STATE_CODE.finditer(text)]
    return _joined(text, spans, tails)


def _joined(text: str, spans: list[tuple[int, int]], tails: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping spans as one, a street and the postcode after it as one address, with the towns between; a
    tail counts only joined to an address before it."""
    out: list[tuple[int, int]] = []
    for start, end, tail in sorted([(*s, False) for s in spans] + [(*t, True) for t in tails]):
        if out and (start < out[-1][1] or _BETWEEN.fullmatch(text, out[-1][1], start)):
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        elif not tail:
            out.append((start, end))
    return [(start, town.end() if (town := _LAST_TOWN.match(text, end)) else end) for start, end in out]
