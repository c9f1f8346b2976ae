"""Personal data in memory text: detect, redact, and score the risk.

Kinds: email, phone (libphonenumber, international and national formats), payment card (Luhn-checked, with its
expiry and code beside it), IBAN (checksum), US SSN (valid ranges; a UK NI or named NHS number), IP address (v4 / v6, parsed), postal address (engram.lang.postal), and
secrets (cloud and API tokens of common formats, JWTs, `password=...` style assignments, private key blocks). Validation is the libraries' job
(phonenumbers, python-stdnum, ipaddress); the patterns only find candidates.

Risk: 0 no PII; 1 only redaction markers (already redacted); 2 raw PII present. A finding never shows its value
(repr, logs): only its kind and span.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from stdnum import iban, luhn

from engram.lang import card_details, identifiers, phones, postal
from engram.model.answers import PiiSummary


class PiiKind(StrEnum):
    EMAIL = "email"
    PHONE = "phone"
    CARD = "card"
    IBAN = "iban"
    SSN = "ssn"
    IP = "ip"
    SECRET = "secret"
    ADDRESS = "address"
    ACCOUNT = "account"


@dataclass(frozen=True, slots=True)
class Finding:
    kind: PiiKind
    start: int
    end: int

    def __repr__(self) -> str:  # never the value itself
        return f"Finding({self.kind.value}, {self.start}:{self.end})"


@dataclass(frozen=True, slots=True)
class PiiReport:
    risk: int
    kinds: tuple[PiiKind, ...]
    redacted: str

    @property
    def names(self) -> list[str]:
        return [k.value for k in self.kinds]

    def summary(self, redaction_on: bool) -> PiiSummary:
        """What a write reports of the text it stored, as a risk level: 0 none, 1 only redaction markers,
        2 raw personal data stored (redaction off)."""
        redacted = self.risk == 2 and redaction_on
        return {"risk": 1 if redacted else self.risk, "kinds": self.names, "redacted": redacted}


MARKERS = {kind: f"[REDACTED_{kind.value.upper()}]" for kind in PiiKind}
MARKER = re.compile(r"\[REDACTED_(?:" + "|".join(k.value.upper() for k in PiiKind) + r")\]")
# Most specific first: an overlap goes to the earlier kind.
_ORDER = (
    PiiKind.SECRET,
    PiiKind.EMAIL,
    PiiKind.IBAN,
    PiiKind.ACCOUNT,
    PiiKind.CARD,
    PiiKind.SSN,
    PiiKind.IP,
    PiiKind.PHONE,
    PiiKind.ADDRESS,
)

_SECRETS = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----"
    r"|\bAKIA[0-9A-Z]{16}\b"
    r"|\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{22,}\b"
    r"|\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}\b"
    r"|\bxox[abpr]-[A-Za-z0-9-]{10,}\b"
    r"|\bAIza[0-9A-Za-z_-]{35}\b"
    r"|\b[sr]k_(?:live|test)_[0-9A-Za-z]{16,}\b|\bpk_live_[0-9A-Za-z]{16,}\b"
    r"|(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b"
    # An assignment to a name that says password, secret, key or token, alone or inside a longer name
    # (DB_PASSWORD=..., aws_secret_access_key = ...): the value. A password may be short; a key or token value
    # has a digit or a symbol in it ("The secret: practice" is prose). At most six parts on each side of the
    # word: unbounded, a run of "password-password-..." was read again from each of its words (the cube of its
    # length). A token starts where its run does, not inside another one.
    r"|(?i:\b(?:[a-z0-9]+[_.-]){0,6}(?:password|passwd|pwd|passphrase)(?:[_.-][a-z0-9]+){0,6}\s*[:=]\s*)"
    r"[\"']?(?P<password>[^\s\"',;]{4,})"
    r"|(?i:\b(?:[a-z0-9]+[_.-]){0,6}(?:secret|api[_-]?key|access[_-]?key|access[_-]?token|auth[_-]?token|token|"
    r"private[_-]?key)(?:[_.-][a-z0-9]+){0,6}\s*[:=]\s*)[\"']?(?P<assigned>(?=[^\s\"',;]*[^\s\"',;A-Za-z])[^\s\"',;]{8,})"
    # "the password is hunter2", "the Wi-Fi password at the cabin is ...", "the PIN for the alarm is ...", and as
    # it changes, "... password is now ...", "changed the password to ...": a value with a digit or a symbol in it
    # (not "the password is correct").
    r"|(?i:\b(?:password|passwd|passphrase|passcode|pin|pw)(?:\s+(?:for|at|of|to|on)\s+(?:the\s+|my\s+|our\s+)?"
    r"[\w'-]+(?:\s+[\w'-]+)?)?(?:\s+(?:(?:is|was)(?:\s+now)?|to)\s+|\s*[:=]\s*))[\"']?"
    r"(?P<said>(?=[^\s\"',;]*[^\s\"',;A-Za-z])[^\s\"',;.]{4,})"
    # Said bare after its name, as a note does ("Xero login: ..., password Sparky!2026", "pin 3391"): a value with
    # a digit or a symbol in it ("password manager", "pin badge" are words).
    r"|(?i:\b(?:password|passwd|passcode|pin|pw)\s+)"
    r"(?P<bare>(?=[^\s\"',;]*[^\s\"',;A-Za-z])(?=[^\s\"',;]*[A-Za-z0-9])[^\s\"',;.]{4,})"
    # A code that opens a door, a gate, an alarm or a key safe ("Beechwood door code 4590#", "Key safe by the back
    # door, code 4471"), or a safe's combination ("27-14-03"): the digits.
    r"|(?i:\b(?:(?:door|gate|alarm|safe|lockbox|entry|access|building|padlock|garage)\s+(?:code|combination|pin)"
    r"|key\s?safe\b[^.;\n]{0,40}?\bcode|combination)(?:\s+(?:is|was))?\s*[:=]?\s*)"
    r"(?P<code>\d[\d*#-]{2,}(?:[ -]\d{1,3}){0,3}#?)"
    # A key or secret named for what it opens ("integration key for the payouts service: ..."): a value of letters
    # and digits together after the colon.
    r"|(?i:\b(?:secret|token|key)\s+for\s+(?:the\s+|my\s+|our\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}\s*[:=]\s*)"
    r"(?P<named>(?=[^\s\"',;]*\d)(?=[^\s\"',;]*[A-Za-z])[^\s\"',;]{12,})"
    # A login given as user / password ("Staging basic auth: ops / Wint3r-Kettle!"): the password.
    r"|(?i:\b(?:auth|login|credentials|creds)\s*[:=]?\s*[\w.@-]{1,40}\s*/\s*)"
    r"(?P<pair>(?=\S*[^\sA-Za-z])(?=\S*[A-Za-z])[^\s\"',;]{6,})"
    # A long run of letters and digits right after the word secret, token or key: a credential's value.
    r"|(?i:\b(?:secret|token|key)\s+)"
    r"(?P<after>(?=[A-Za-z0-9/+_=-]*\d)(?=[A-Za-z0-9/+_=-]*[A-Za-z])[A-Za-z0-9/+_=-]{20,})"
)
# Where a pattern names the value, only the value is personal: the word before it says what was there.
_VALUE = ("password", "assigned", "said", "bare", "code", "named", "pair", "after")
# A local part holds at most 64 characters and a domain 255: unbounded, each word of a long run of "a-a-a-..."
# was read to the run's end again looking for an "@".
# Letters of any script: an address with one Cyrillic letter in it was not read at all (no word boundary before it).
_EMAIL = re.compile(r"\b[\w.%+-]{1,64}@[\w.-]{1,255}\.[^\W\d_]{2,63}\b")
# An address spelt out to pass a filter: "ada [at] example [dot] com", "ada (at) example.org", and with bare words
# only before a common top-level domain and after no article ("ada at example dot com"; not "look at this dot
# product", "investors at the dot com peak").
_AT = r"(?:\s*[\[({<]\s*at\s*[\])}>]\s*)"
_DOT = r"(?:\s*[\[({<]\s*dot\s*[\])}>]\s*)"
_ARTICLE = r"(?:the|a|an|this|that|these|those|my|our|your|his|her|their|its)"  # "at the dot com peak"
_TLD = r"(?:com|org|net|edu|gov|io|co|uk|de|fr|es|it|nl|ch|at|eu|in|cn|jp|us|ca|au|info|biz|me|ai|app|dev)"
_SPELT_EMAIL = re.compile(
    rf"(?i:\b[\w.%+-]{{1,64}}{_AT}[\w-]{{1,63}}(?:(?:{_DOT}|\.)[\w-]{{1,63}}){{0,4}}(?:{_DOT}|\.)[^\W\d_]{{2,63}}\b"
    rf"|\b[\w.%+-]{{1,64}}\s+at\s+(?!{_ARTICLE}\s)[\w-]{{1,63}}(?:\s+dot\s+[\w-]{{1,63}}){{0,3}}\s+dot\s+{_TLD}\b)"
)
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b")
# Digits apart by a space, a dash, a dot or a slash, or a few spaces ("4111.1111.1111.1111" was not read).
_CARD = re.compile(r"\b\d(?:(?:[./-]|\s{1,3})?\d){12,18}\b")
_IPV4 = re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")
_IPV6 = re.compile(
    r"(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){2,7}[0-9A-Fa-f]{0,4}(?:::?[0-9A-Fa-f]{1,4})*(?![\w:])|::1\b"
)
_VERSION = re.compile(r"(?:\bv|version\s*|release\s*)$", re.IGNORECASE)


def _secrets(text: str) -> list[Finding]:
    out = []
    for m in _SECRETS.finditer(text):
        value = next((name for name in _VALUE if m.group(name) is not None), 0)
        out.append(Finding(PiiKind.SECRET, m.start(value), m.end(value)))
    return out


def _emails(text: str) -> list[Finding]:
    found = [*_EMAIL.finditer(text), *_SPELT_EMAIL.finditer(text)]
    return [Finding(PiiKind.EMAIL, m.start(), m.end()) for m in sorted(found, key=lambda m: m.start())]


def _ibans(text: str) -> list[Finding]:
    return [
        Finding(PiiKind.IBAN, m.start(), m.end()) for m in _IBAN.finditer(text) if iban.is_valid(m.group())
    ]


def _cards(text: str) -> list[Finding]:
    out = []
    for m in _CARD.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 13 <= len(digits) <= 19 and luhn.is_valid(digits) and len(set(digits)) > 1:
            out.append(Finding(PiiKind.CARD, m.start(), m.end()))
    extra = card_details.details(text, [(f.start, f.end) for f in out])
    return out + [Finding(PiiKind.CARD, start, end) for start, end in extra]


def _ssns(text: str) -> list[Finding]:
    return [Finding(PiiKind.SSN, a, b) for a, b in identifiers.spans(text)]


# A bank account by its sort code and number as a UK bank writes them, each named ("sort code 40-12-76", "s/c
# 82-11-07", "acc no 31926819", "account number: 31926819"): the values.
_ACCOUNT = re.compile(
    r"(?i:(?:\bsort\s*code|(?<![\w/])s/c)\s*[:#]?\s*)(?P<sort>\d{2}[-\s]?\d{2}[-\s]?\d{2})(?!\d)"
    r"|(?i:\b(?:account|acc|acct|a/c)\.?(?:\s*(?:no|number|num|#))?\.?\s*[:#]?\s*)(?P<number>\d{8})(?!\d)"
)


def _accounts(text: str) -> list[Finding]:
    found = []
    for m in _ACCOUNT.finditer(text):
        value = "sort" if m.group("sort") is not None else "number"
        found.append(Finding(PiiKind.ACCOUNT, m.start(value), m.end(value)))
    return found


def _ips(text: str) -> list[Finding]:
    out = []
    for m in [*_IPV4.finditer(text), *_IPV6.finditer(text)]:
        if _VERSION.search(text[max(0, m.start() - 9) : m.start()]):
            continue  # "version 1.2.3.4" is a version, not an address
        try:
            ipaddress.ip_address(m.group())
        except ValueError:
            continue
        out.append(Finding(PiiKind.IP, m.start(), m.end()))
    return out


# What a reader does not see, or sees as a plain character: invisible format characters (zero-width spaces and
# joiners, direction marks, soft hyphens) inside a number or an address, digits of other scripts, and the
# full-width forms (U+FF14 for "4", U+FF20 for "@"). Each one kept a card, an address or a key from being read.
_HIDDEN = re.compile(
    r"[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\ufe6b\uff01-\uff5e]|(?![0-9])\d"
)


def _as_read(text: str) -> tuple[str, list[int] | None]:
    """`text` as a reader sees it (see _HIDDEN), and where each of its characters is in `text` (None: the same)."""
    if text.isascii() or not _HIDDEN.search(text):
        return text, None
    chars: list[str] = []
    where: list[int] = []
    for i, c in enumerate(text):
        kind = unicodedata.category(c)
        if kind == "Cf":
            continue
        if kind == "Nd":
            c = str(unicodedata.digit(c))
        elif not c.isascii() and len(plain := unicodedata.normalize("NFKC", c)) == 1 and plain.isascii():
            c = plain
        chars.append(c)
        where.append(i)
    return "".join(chars), where


def detect(text: str, regions: Sequence[str] = ("US", "GB", "DE", "FR", "IN", "CN")) -> list[Finding]:
    """Non-overlapping findings sorted by position; on overlap the more specific kind wins. Read as a reader
    sees the text (_as_read); a finding covers the characters of `text` it was read from, hidden ones included."""
    return list(_detected(text, tuple(regions)))


# One write reads a text's personal data several times (the scan, the form marks, the tags): a long text of digits
# cost its phone search each time. Findings are immutable; the few texts kept are the ones being written.
@lru_cache(maxsize=8)
def _detected(text: str, regions: tuple[str, ...]) -> tuple[Finding, ...]:
    seen, where = _as_read(text)
    kept = _detect(seen, regions)
    if where is None:
        return tuple(kept)
    return tuple(Finding(f.kind, where[f.start], where[f.end - 1] + 1) for f in kept)


def _detect(text: str, regions: Sequence[str]) -> list[Finding]:
    found = {
        PiiKind.SECRET: _secrets(text),
        PiiKind.EMAIL: _emails(text),
        PiiKind.IBAN: _ibans(text),
        PiiKind.ACCOUNT: _accounts(text),
        PiiKind.CARD: _cards(text),
        PiiKind.SSN: _ssns(text),
        PiiKind.IP: _ips(text),
        PiiKind.PHONE: [Finding(PiiKind.PHONE, start, end) for start, end in phones.spans(text, regions)],
        PiiKind.ADDRESS: [Finding(PiiKind.ADDRESS, start, end) for start, end in postal.addresses(text)],
    }
    # Kept findings never overlap, so sorted by start their ends are sorted too: the one starting last before a
    # finding ends is the only one that can overlap it (comparing with every kept one grew with the square).
    kept: list[Finding] = []
    for kind in _ORDER:
        for f in found[kind]:
            if f.start >= f.end:
                continue
            at = bisect.bisect_left(kept, f.end, key=lambda k: k.start)
            if at == 0 or kept[at - 1].end <= f.start:
                kept.insert(at, f)
    return kept


def redact(text: str, findings: Sequence[Finding] | None = None) -> str:
    out, last = [], 0
    for f in sorted(detect(text) if findings is None else findings, key=lambda f: f.start):
        out += [text[last : f.start], MARKERS[f.kind]]
        last = f.end
    return "".join(out) + text[last:]


def scan(text: str) -> PiiReport:
    findings = detect(text)
    risk = 2 if findings else 1 if MARKER.search(text) else 0
    kinds = tuple(dict.fromkeys(f.kind for f in findings))
    return PiiReport(risk, kinds, redact(text, findings) if findings else text)


def risk(text: str) -> int:
    return scan(text).risk


def redaction(
    content: str, metadata: Mapping[str, Any], tags: Sequence[str] = (), emotion: str | None = None
) -> dict[str, Any] | None:
    """What a write stores instead of raw personal data, or None when it holds none: the content, the metadata's
    strings and the emotion with [REDACTED_*] markers, the tags without those that hold some (a tag is a name, a
    marker is no tag), and the metadata naming the kinds found (never their values). Ids (scope, user,
    episode) are the caller's keys and are left as they are."""
    found: list[PiiKind] = []

    def clean(value: Any) -> Any:
        if isinstance(value, str):
            report = scan(value)
            if report.risk == 2:
                found.extend(report.kinds)
                return report.redacted
            return value
        if isinstance(value, Mapping):  # its keys too: {"ada@example.com": "landlord"} kept the address
            out: dict[Any, Any] = {}
            for k, v in value.items():
                key = clean(k)
                while key in out:  # two keys redacted alike both stay
                    key += "'"
                out[key] = clean(v)
            return out
        if isinstance(value, list | tuple):
            return [clean(v) for v in value]
        return value

    update = {"content": clean(content), "metadata": clean(metadata), "emotion": clean(emotion)}
    kept = tuple(t for t in tags if clean(t) == t)
    if not found:
        return None
    # The kinds redacted before stay named beside the new ones: their markers are still in the text.
    earlier = metadata.get("pii_redacted")
    names = list(dict.fromkeys([*(earlier if isinstance(earlier, list) else []), *(k.value for k in found)]))
    return update | {"tags": kept, "metadata": {**update["metadata"], "pii_redacted": names}}


__all__ = [
    "MARKER",
    "MARKERS",
    "Finding",
    "PiiKind",
    "PiiReport",
    "detect",
    "redact",
    "redaction",
    "risk",
    "scan",
]


# The words of a question asking how to reach someone, and the personal data that answers it.
_ASKING = {
    PiiKind.PHONE: (
        "phone",
        "telephone",
        "mobile",
        "cell",
        "number",
        "call",
        "ring",
        "text",
        "reach",
        "contact",
    ),
    PiiKind.EMAIL: ("email", "e-mail", "mail", "address", "reach", "contact", "write"),
    PiiKind.ADDRESS: ("address", "live", "lives", "lived", "postcode", "zip", "street"),
    PiiKind.SSN: ("ssn", "social security", "national insurance", "ni"),
    PiiKind.ACCOUNT: ("account number", "sort code", "bank details", "bank account"),
}
_ASKING_WORDS = {
    kind: re.compile(rf"\b(?:{'|'.join(words)})\b", re.IGNORECASE) for kind, words in _ASKING.items()
}


def asked_for(question: str) -> frozenset[str]:
    """The kinds of personal data a question asks for ("how can I reach the landlord": a phone number or an
    e-mail address), by name (`PiiKind.value`)."""
    return frozenset(kind.value for kind, pattern in _ASKING_WORDS.items() if pattern.search(question))
