"""National identifiers in text, as spans: a US social security number (valid ranges), a UK National Insurance number
(the prefixes HMRC allocates) and a UK NHS number where named: personal data of the kind `ssn`."""

from __future__ import annotations

import re

from stdnum.us import ssn

from engram.lang.phones import SSN_SHAPE

# A UK National Insurance number, the country's social security number, as HMRC allocates them: two prefix letters
# (not D, F, I, Q, U or V; the second not O; never BG, GB, KN, NK, NT, TN or ZZ), six digits and A to D, spaced or
# not. The letters rule out most codes of that shape; "QQ 12 34 56 C" is HMRC's own example.
_NINO = re.compile(
    r"\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b"
)


# The same named as one, in any case ("national insurance no. jt482917c"): unnamed, lower-case letters and digits of
# that shape are as often a code of something else.
_NINO_NAMED = re.compile(
    r"(?i:\b(?:national\s+insurance|NI|NINO)\s*(?:no\.?|number|num|#)?\s*(?:is\s+)?[:#]?\s*)"
    r"(?P<nino>[a-zA-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[a-dA-D])\b"
)


# A UK NHS number where named ("NHS no. 943 476 5919"): an identifier, not the phone it looks like. Its check digit
# is not asked: one mistyped or misread is still what its owner calls their NHS number, and was labelled a phone.
_NHS = re.compile(r"(?i:\bNHS\s*(?:no\.?|number|num|#)?\s*[:#]?\s*)(?P<nhs>\d{3}[ -]?\d{3}[ -]?\d{4})(?!\d)")


def spans(text: str) -> list[tuple[int, int]]:
    """Where `text` holds a national identifier: (start, end) of each, any found twice listed twice."""
    found = [(m.start(), m.end()) for m in SSN_SHAPE.finditer(text) if ssn.is_valid(m.group())]
    found += [(m.start("nhs"), m.end("nhs")) for m in _NHS.finditer(text)]
    found += [
        (m.start("nino"), m.end("nino"))
        for m in _NINO_NAMED.finditer(text)
        if _NINO.fullmatch(m["nino"].upper())
    ]
    return found + [(m.start(), m.end()) for m in _NINO.finditer(text)]
