"""The speaker's own word for themself in Chinese (我) is the mark `speaker`, as I and ich are; 我们 ("we") is
not."""

from __future__ import annotations

import pytest

from engram.classify import forms


@pytest.mark.parametrize(
    ("text", "carried"),
    [
        ("我不吃香菜。", True),
        ("我每天早上六点起床。", True),
        ("我们每周一开会。", False),
        ("妈妈的电话是 138 0013 8000。", False),
    ],
)
def test_chinese_speaker(text: str, carried: bool) -> None:
    assert ("speaker" in forms.read(text)) is carried
