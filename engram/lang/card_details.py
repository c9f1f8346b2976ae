"""A payment card's expiry date and security code written beside its number ("4111 ... exp 09/28, CVV 123"):
with the number redacted and them kept, a memory still held what a payment asks for besides it. Only near a
card number: an expiry alone ("my passport expires 09/28") is no card's."""

from __future__ import annotations

import re

NEAR = 60  # characters between a card number and its expiry or code, as one line of a note writes them

_DETAIL = re.compile(
    r"(?i:\b(?:exp(?:iry|ires|iration)?|valid\s+(?:thru|through|until|to)|good\s+thru)\.?(?:\s+date)?\s*[:=]?\s*)"
    r"(?P<expiry>(?:0?[1-9]|1[0-2])\s?[/-]\s?(?:\d{4}|\d{2}))(?!\d)"
    r"|(?i:\b(?:cvv2?|cvc2?|cv2|cid|csc|security\s+code)\s*[:=#]?\s*)(?P<code>\d{3,4})(?!\d)"
)


def details(text: str, cards: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of the expiry dates and security codes within NEAR characters of one of `cards` (spans of
    card numbers in `text`): the values, not the words naming them."""
    if not cards:
        return []
    found = []
    for m in _DETAIL.finditer(text):
        value = "expiry" if m.group("expiry") is not None else "code"
        start, end = m.start(value), m.end(value)
        if any(start - NEAR <= card_end and card_start <= end + NEAR for card_start, card_end in cards):
            found.append((start, end))
    return found
