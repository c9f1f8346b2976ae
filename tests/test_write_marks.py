"""A bulk write reads the marks of form the kinds weigh (engram.classify.forms) for all its texts at once, while
the model embeds them, and reads each mark asking only what it needs: the same marks as every reader's full
answer gives, text by text."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engram.classify import forms
from engram.lang import analysis, pii

ROOT = Path(__file__).resolve().parent.parent
SAID = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)

EDGES = [
    "Good article on Postgres index types: https://example.com/blog/pg",
    "see www.example.org for the schedule",
    "Anna's email is anna@example.org.",
    "mail me at first.last+tag@mail.example.co.uk or call",
    "The landlord can be reached on +49 170 5550192.",
    "Call (415) 555-0100 after six",
    "Ruf mich an: "
    + "0170 555 0192".translate({ord(d): ord(d) + 0xFEE0 for d in "0123456789"}),  # full-width
    "my number is ٠١٧٠٥٥٥٠١٩٢",  # Arabic-Indic digits
    "Her SSN is 078-05-1120, not a phone",
    "Card 4111 1111 1111 1111 expires soon",
    "IBAN DE89 3704 0044 0532 0130 00 for the rent",
    "The server is at 192.168.1.20 and 10.0.0.1",
    "Version 1.2.3.4 shipped on 3 March",
    "token sk-abcdefghijklmnop1234567890 leaked",
    "We met 3 times in 2024, about 15 people",
    "1-800-FLOWERS delivers on Sundays",
    "No digits here, no address either.",
    "",
]


def _texts() -> list[str]:
    texts = list(EDGES)
    for name in (
        "kinds_labelled.jsonl",
        "extraction_labelled.jsonl",
        "extraction_chat_fresh.jsonl",
        "extraction_chat_second.jsonl",
    ):
        for line in (ROOT / "bench" / "data" / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                texts.append(json.loads(line)["text"])
    return texts


def _address_as_every_reader_finds_it(text: str) -> bool:
    return any(e.kind in {"url", "email"} for e in analysis.entities(text)) or any(
        f.kind is pii.PiiKind.PHONE for f in pii.detect(text)
    )


def test_the_address_mark_is_what_the_entities_and_the_pii_readers_find() -> None:
    texts = _texts()
    got = [forms._address(t) for t in texts]
    assert got == [_address_as_every_reader_finds_it(t) for t in texts]
    assert 5 < sum(got) < len(texts)  # both answers are met


@pytest.mark.parametrize("said", [SAID, None])
def test_reading_texts_at_once_reads_each_as_alone(said: datetime | None) -> None:
    texts = _texts()[:300]
    found = forms.read_all(texts, said)
    assert found == [forms.read(t, said) for t in texts]
    assert {m for marks in found for m in marks} == set(forms.FORMS)


def test_the_store_says_at_once_which_texts_it_holds_in_either_form(tmp_path: Path) -> None:
    """A bulk write looks up one by one only the texts some stored row has (`known_hashes`): a row's hash kept as
    its 32 bytes or, written by an older version, as its hex text, a chunk's too, in any scope."""
    from engram import FakeEmbedder, Memory
    from engram.model.vectors import content_hash
    from engram.store.sqlite.store import SQLiteStore

    long_text = " ".join(f"Sentence number {n} about the garden and its roses." for n in range(60))
    with Memory(tmp_path / "m.db", embedder=FakeEmbedder()) as mem:
        kept = mem.remember_many(
            [
                {"content": "as bytes"},
                {"content": "as text", "scope": "project", "scope_id": "p"},
                {"content": long_text},
            ]
        )
        store = mem.store
        assert isinstance(store, SQLiteStore)
        old = content_hash("as text")
        with store.atomic():
            store._writer.execute("UPDATE memories SET content_hash = ? WHERE id = ?", (old, kept[1].id))
        chunk = store.children(kept[2].id)[0]
        asked = [content_hash("as bytes"), old, chunk.content_hash, content_hash("never written"), "not-hex"]
        assert store.known_hashes(asked) == {content_hash("as bytes"), old, chunk.content_hash}


def test_the_kept_word_readings_answer_as_the_table_and_none_can_change_them() -> None:
    """The due reader keeps each word's readings (a bulk write meets the same sentence openings again and
    again): kept answers are the table's, read-only, and instruction and past-tense reads stay as uncached."""
    from engram.lang import due
    from engram.lang.lemmas import getAllLemmas
    from engram.lang.tense import readings

    texts = _texts()
    readings.cache_clear()
    cold = [(due.instruction(t), due.told_as_past(t)) for t in texts]
    assert readings.cache_info().currsize > 0
    warm = [(due.instruction(t), due.told_as_past(t)) for t in texts]
    assert warm == cold and any(i for i, _ in cold) and any(p for _, p in cold)
    for word in ("prepare", "book", "met", "scheduled", "running", "zzzq"):
        kept = readings(word)
        assert kept == getAllLemmas(word)
        with pytest.raises(TypeError):
            kept["VERB"] = ("changed",)  # type: ignore[index]
        assert readings(word) == getAllLemmas(word)


def _every_text() -> list[str]:
    """Every text of the data sets and every string the tests write: the forms of day the readers are tested on."""
    import ast

    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in sorted((ROOT / "bench" / "data").rglob("*.json*")):
        lines = (
            path.read_text(encoding="utf-8").splitlines() if path.suffix == ".jsonl" else [path.read_text()]
        )
        for line in lines:
            if line.strip():
                walk(json.loads(line))
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append(node.value)
    return list(dict.fromkeys(t for t in found if t.strip()))


@pytest.mark.parametrize("said", [SAID, datetime(2027, 2, 26, 23, 0, tzinfo=UTC)])
def test_a_text_without_a_day_word_names_no_due_day(said: datetime) -> None:
    """Most statements name no day, and the due readers skip them on a screen of the words every day they read
    holds: every text the screen refuses, read by the readers themselves, names none."""
    from engram.lang import due
    from engram.lang.weekday_dates import may_name_day

    texts = _every_text()
    refused = [t for t in texts if not may_name_day(t)]
    assert len(texts) / 3 < len(refused) < len(texts)

    def read(text: str) -> tuple[tuple[datetime, str], ...] | None:
        try:
            return due._read_due(text, said) or None
        except (ValueError, OverflowError):
            return None

    assert [t for t in refused if read(t) is not None] == []
    named = [t for t in texts if may_name_day(t) and read(t) is not None]
    assert len(named) > 100  # the readers did read days, from texts the screen let through
    for text in named[:200]:
        assert due.due_day(text, said) is not None


def test_weekdays_are_written_out_only_where_a_short_weekday_or_a_digit_is() -> None:
    """`spelled` skips the forms a text cannot hold (each needs a short weekday or a digit): every text comes out
    as all five substitutions make it, and the ASCII screen answers as the case-blind one."""
    from engram.lang import weekday_dates as wd

    def every_form(text: str) -> str:
        text = wd._TOMORROW.sub("tomorrow", text)
        text = wd._SHORT_DAY.sub(lambda m: f"{m.group(1)} {wd._FULL_DAY[m.group(2)[:3].lower()]}", text)
        text = wd.BARE_SHORT_DAY.sub(lambda m: wd._FULL_DAY[m.group(1)[:3].lower()], text)
        text = wd._DAY_OF_MONTH.sub(r"\1 \2", text)
        return wd._DAY_SPAN.sub(lambda m: f"{m[1]}{m[2] or ''} {m[3].split()[-1]} to {m[3]}", text)

    texts = [
        *_every_text(),
        "call the vet tmrw",
        "by FRI.",
        "Sat 12th",
        "from 14 to 16 January",
        "the 8th of December",
        "MONDAY",
    ]
    written = [wd.spelled(t) for t in texts]
    assert written == [every_form(t) for t in texts]
    assert sum(w != t for w, t in zip(written, texts, strict=True)) > 20
    assert [wd.may_name_day(t) for t in texts] == [wd._DAY_WORD.search(t) is not None for t in texts]
