"""Phone numbers in a text for several regions, each candidate parsed once where the region cannot change it.

libphonenumber's matcher parses every candidate it meets, and each region is a pass of its own: a memory of
100,000 characters of phone-like text ("+1 415 " again and again) cost seconds of processor time per pass. A
candidate written with a "+" is one number whatever the region (its country code is in it), and the same
candidate text reads the same way wherever it stands; so each (candidate, leniency) is parsed once, and a
national one once per region. The matcher's own checks of the characters around a candidate still run at every
position.

A caller that keeps only some candidates (a number of possible length is kept only where it is written as a
phone number) may say which it will drop: those are passed over unparsed, inner pieces included, and the matcher
goes on after them as after a match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence

import phonenumbers
from phonenumbers import PhoneNumber, PhoneNumberMatch, phonenumbermatcher
from phonenumbers.phonenumberutil import NumberParseException

# The first character libphonenumber reads a number from (`_VALID_START_CHAR_PATTERN`): when it is a plus, the
# region is not used to read the number.
_STARTS_WITH_PLUS = re.compile(r"[^+\uff0b\d]*[+\uff0b]")

_Verdict = PhoneNumber | None

# Whether the caller drops a candidate (its text and offset) and every piece of it, whatever it parses to.
Dropped = Callable[[str, int], bool]

# The number of a candidate passed over unparsed; never given to a caller.
_UNREAD = PhoneNumber()


class _Matcher(phonenumbers.PhoneNumberMatcher):
    """The library's matcher with its parse-and-verify step remembered across regions and positions."""

    def __init__(
        self,
        text: str,
        region: str,
        leniency: int,
        verdicts: dict[tuple[str, int, str], _Verdict],
        dropped: Dropped | None,
    ):
        super().__init__(text, region, leniency=leniency)
        self._verdicts = verdicts
        self._dropped = dropped

    def _extract_match(self, candidate: str, offset: int) -> PhoneNumberMatch | None:
        # Answered as a match so the search goes on after the whole candidate, as after a number found there.
        if self._dropped is not None and self._dropped(candidate, offset):
            return PhoneNumberMatch(offset, candidate, _UNREAD)
        match: PhoneNumberMatch | None = super()._extract_match(candidate, offset)
        return match

    def _parse_and_verify(self, candidate: str, offset: int) -> PhoneNumberMatch | None:
        # The library's own steps (phonenumbermatcher.PhoneNumberMatcher._parse_and_verify), in its order.
        if not phonenumbermatcher._MATCHING_BRACKETS.fullmatch(
            candidate
        ) or phonenumbermatcher._PUB_PAGES.search(candidate):
            return None
        if self.leniency >= phonenumbers.Leniency.VALID and not self._between_fitting_neighbours(
            candidate, offset
        ):
            return None
        region = "" if _STARTS_WITH_PLUS.match(candidate) else (self.preferred_region or "")
        key = (candidate, self.leniency, region)
        if key not in self._verdicts:
            self._verdicts[key] = self._verdict(candidate)
        number = self._verdicts[key]
        return None if number is None else PhoneNumberMatch(offset, candidate, number)

    def _between_fitting_neighbours(self, candidate: str, offset: int) -> bool:
        """No Latin letter, percent or currency sign right before or after (as "abc8005001234" has)."""
        if offset > 0 and not phonenumbermatcher._LEAD_PATTERN.match(candidate):
            before = self.text[offset - 1]
            if self._is_invalid_punctuation_symbol(before) or self._is_latin_letter(before):
                return False
        end = offset + len(candidate)
        if end < len(self.text):
            after = self.text[end]
            if self._is_invalid_punctuation_symbol(after) or self._is_latin_letter(after):
                return False
        return True

    def _verdict(self, candidate: str) -> _Verdict:
        try:
            number = phonenumbers.parse(candidate, self.preferred_region, keep_raw_input=True)
        except NumberParseException:
            return None
        if not phonenumbermatcher._verify(self.leniency, number, candidate, self):
            return None
        number.country_code_source = phonenumbers.CountryCodeSource.UNSPECIFIED
        number.raw_input = None
        number.preferred_domestic_carrier_code = None
        return number


def matches(
    text: str,
    regions: Sequence[str],
    leniencies: Sequence[int],
    dropped: Mapping[int, Dropped] | None = None,
) -> Iterator[tuple[int, PhoneNumberMatch]]:
    """The matches of every leniency and region, in that order (as one matcher per pair gives them); a
    leniency's `dropped` candidates are not read."""
    verdicts: dict[tuple[str, int, str], _Verdict] = {}
    for leniency in leniencies:
        for region in regions:
            for match in _Matcher(text, region, leniency, verdicts, (dropped or {}).get(leniency)):
                if match.number is not _UNREAD:
                    yield leniency, match
