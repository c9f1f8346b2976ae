"""The session context keeps what the user says about other people apart from the user's own preferences and
facts: "Lena from design prefers Figma comments" is Lena's liking, and an agent told it is the user's would
answer the user in Figma comments."""

from __future__ import annotations

from engram import Memory


def test_a_named_persons_liking_is_not_the_users_preference(mem: Memory) -> None:
    said = {
        "lena": "Lena from design prefers Figma comments over e-mail",
        "tom": "Tom likes his coffee black",
        "julia": "My wife Julia loves Italian food",
        "marco": "Marco's e-mail address changed last week",
        "mine": "I prefer dark mode in every editor",
        "both": "Lena and I prefer short stand-ups",
        "lang": "Python is my favourite language",
        "name": "My name is Sam and I work on the billing team",
    }
    ids = {key: mem.remember(text, kind="identity").id for key, text in said.items()}
    sections = mem.session_context()["sections"]
    own = set(sections.get("Preferences", [])) | set(sections.get("About the user", []))
    for key in ("lena", "tom", "julia", "marco"):
        assert ids[key] not in own, key
        assert ids[key] in sections["Other people"], key  # still told, as someone else's
    assert {ids["mine"], ids["both"], ids["lang"]} <= set(sections["Preferences"])
    assert ids["name"] in sections["About the user"]


def test_search_about_the_user_puts_their_own_liking_before_another_persons(real: Memory) -> None:
    for text in (
        "Tom likes his coffee black",
        "I like my coffee with oat milk",
        "Anna from finance prefers Excel over Google Sheets",
        "I don't like Excel",
    ):
        real.store_memory(text)

    def found(question: str) -> list[str]:
        return [r["content"] for r in real.search_memory(question)["results"]]

    coffee = found("how does the user take coffee")
    assert coffee.index("I like my coffee with oat milk") < coffee.index("Tom likes his coffee black")
    sheets = found("what spreadsheet tool does the user prefer")
    assert sheets.index("I don't like Excel") < sheets.index(
        "Anna from finance prefers Excel over Google Sheets"
    )
    # Asked about the other person, their statement is still the answer.
    assert found("what does Tom drink")[0] == "Tom likes his coffee black"


def test_a_decision_made_is_no_open_task(mem: Memory) -> None:
    made = mem.remember("We decided to use PostgreSQL for the billing service", kind="task").id
    todo = mem.remember("Make a decision on the hosting vendor by Friday", kind="task").id
    sections = mem.session_context()["sections"]
    assert made not in sections.get("Open tasks", [])
    assert made in sections["Recent decisions"]
    assert todo in sections["Open tasks"]


def test_a_question_naming_someone_keeps_their_statements_where_they_rank(real: Memory) -> None:
    # "how do I reach Ada's school" says "I", but asks about Ada: her school's memory is the answer.
    for text in (
        "Ada's school office: 0161 496 0000, ask for Mrs Patel",
        "I drop the kids at school at 8:15 on weekdays",
        "I cycle to school with Ada when it is dry",
        "Tom's flight lands at 6pm on Friday",
    ):
        real.store_memory(text)

    def first(question: str) -> str:
        return str(real.search_memory(question)["results"][0]["content"])

    assert first("how do I reach Ada's school").startswith("Ada's school office")
    assert first("how do I call Ada's school?").startswith("Ada's school office")
    assert first("when do I pick up Tom from his flight?") == "Tom's flight lands at 6pm on Friday"
