from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from engram.lang.chunk import chunk


def spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\S+", text)]


def test_short_text_is_one_chunk() -> None:
    assert [c.text for c in chunk("a b c", spans("a b c"), 220, 40)] == ["a b c"]


def test_windows_of_220_with_40_overlap() -> None:
    text = " ".join(str(i) for i in range(500))
    chunks = chunk(text, spans(text), 220, 40)
    firsts = [int(c.text.split()[0]) for c in chunks]
    assert firsts == [0, 180, 360]
    assert [c.token_count for c in chunks] == [220, 220, 140]
    assert chunks[-1].text.split()[-1] == "499"
    assert all(len(c.text.split()) == c.token_count for c in chunks)


def test_a_window_ends_at_the_last_line_end_in_its_second_half() -> None:
    lines = [" ".join(f"l{n}w{i}" for i in range(30)) for n in range(20)]  # 30 tokens a line
    text = "\n".join(lines)
    chunks = chunk(text, spans(text), 100, 20)
    # 100 tokens hold three whole lines and a third of the fourth: the cut is at the third line's end.
    assert chunks[0].text == "\n".join(lines[:3]) and chunks[0].token_count == 90
    # The next window starts at the only line start among the last 20 tokens: none, so 20 tokens back.
    assert chunks[1].text.split()[0] == "l2w10"
    assert all(c.token_count <= 100 for c in chunks)


def test_a_window_starts_again_at_a_line_start_within_the_overlap() -> None:
    lines = [" ".join(f"l{n}w{i}" for i in range(15)) for n in range(20)]  # 15 tokens a line
    text = "\n".join(lines)
    chunks = chunk(text, spans(text), 100, 40)
    assert chunks[0].text == "\n".join(lines[:6])  # 90 tokens, six whole lines
    # Among the last 40 tokens, lines 4 and 5 start: the earlier one, the largest overlap within 40.
    assert chunks[1].text.startswith(lines[4] + "\n")
    assert all(c.text.split("\n")[0] in lines for c in chunks)


def test_sentence_ends_beat_word_gaps_and_lines_beat_sentences() -> None:
    sentence = " ".join(f"s{i}" for i in range(9)) + "."  # ten tokens: nine words and the full stop
    prose = " ".join([sentence] * 20)
    tokens = [m.span() for m in re.finditer(r"\w+|\.", prose)]
    chunks = chunk(prose, tokens, 75, 10)
    assert chunks[0].text.endswith(".") and chunks[0].token_count == 70
    assert chunks[1].text.startswith("s0 ")  # the sentence start within the last ten tokens
    cut = tokens[55][0]  # a line ends in the sixth sentence, after 55 tokens
    mixed = prose[:cut] + "\n" + prose[cut:]
    first = chunk(mixed, [m.span() for m in re.finditer(r"\w+|\.", mixed)], 75, 10)[0]
    assert first.text == prose[:cut].strip()  # the line end, though a sentence ends later in the window


def test_without_breaks_windows_are_fixed() -> None:
    text = "x" * 500  # one token a character, no gap anywhere (as in unspaced scripts)
    chunks = chunk(text, [(i, i + 1) for i in range(500)], 220, 40)
    assert [c.token_count for c in chunks] == [220, 220, 140]
    assert [len(c.text) for c in chunks] == [220, 220, 140]


@given(
    st.lists(st.sampled_from(["word", "x.", "end!", "\n", "\n\n", "ab", "cd?"]), min_size=1, max_size=400),
    st.integers(min_value=9, max_value=60),
    st.integers(min_value=0, max_value=30),
)
def test_chunks_cover_the_text_within_size_and_overlap(parts: list[str], size: int, overlap: int) -> None:
    overlap = min(overlap, size - 1)
    text = " ".join(parts)
    offsets = spans(text)
    if not offsets:
        return
    chunks = chunk(text, offsets, size, overlap)
    assert all(1 <= c.token_count <= size for c in chunks)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    words = [text[a:b] for a, b in offsets]
    seen = 0  # every token is in some chunk, in order, each chunk overlapping the last by at most `overlap`
    for c in chunks:
        got = c.text.split()
        assert len(got) == c.token_count
        back = next(k for k in range(overlap + 1) if words[seen - k : seen - k + len(got)] == got)
        seen += len(got) - back
    assert seen == len(words)


def test_an_address_at_the_window_edge_stays_whole() -> None:
    words = [f"w{i}" for i in range(100)]
    text = " ".join(words[:95]) + " ana.lima@example.org " + " ".join(words[95:])
    # punctuation and word pieces are tokens of their own, as the model's tokenizer makes them
    tokens = [m.span() for m in re.finditer(r"\w+|[^\w\s]", text)]
    chunks = chunk(text, tokens, 100, 10)  # a fixed window's 100th token is inside the address
    assert all("@" not in c.text or "ana.lima@example.org" in c.text for c in chunks)
    assert chunks[0].text.endswith("w94")


def test_unspaced_chinese_is_cut_at_its_full_stops() -> None:
    sentence = "我们明天上午九点在北京开会请大家准时到达。"  # 21 characters, one token each, no spaces
    text = sentence * 12
    chunks = chunk(text, [(i, i + 1) for i in range(len(text))], 100, 30)
    assert all(c.text.endswith("。") for c in chunks)
    assert all(c.text.startswith("我们") for c in chunks)  # the sentence start within the last 30 tokens
    assert [c.token_count for c in chunks[:-1]] == [84] * (len(chunks) - 1)


def test_without_a_full_stop_chinese_is_cut_between_characters_not_inside_a_latin_word() -> None:
    text = "北" * 60 + "x" * 60  # a run of characters, then one long Latin word, one token a character
    first = chunk(text, [(i, i + 1) for i in range(120)], 100, 0)[0]
    assert first.text == "北" * 60  # where the characters end: nowhere later is outside a word


def test_a_sentence_ends_after_a_closing_quote() -> None:
    sentence = "he said " + " ".join(f"w{i}" for i in range(6)) + ' "stop."'
    text = " ".join([sentence] * 10)
    tokens = [m.span() for m in re.finditer(r"\w+|[^\w\s]", text)]
    chunks = chunk(text, tokens, 40, 14)  # twelve tokens a sentence
    assert all(c.text.endswith('"stop."') for c in chunks)
    assert all(c.text.startswith("he said") for c in chunks)


def test_tokens_of_one_character_stay_together() -> None:
    # The model's tokenizer gives a Hangul syllable as its letters, each token spanning the whole syllable.
    text = "가" * 150
    offsets = [span for i in range(150) for span in [(i, i + 1)] * 3]
    chunks = chunk(text, offsets, 100, 20)
    assert len(chunks) > 1
    assert all(c.token_count == 3 * len(c.text) for c in chunks)  # each character with all its tokens
