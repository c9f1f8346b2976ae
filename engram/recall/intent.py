"""What a question asks for, read from its words: things to do (`intent` "remind"), similar memories, a
timeline, a list, else a search; and whether it names no topic beside asking for things to do or for memories."""

from __future__ import annotations

import re
from collections.abc import Iterable

from engram.lang import analysis, timewords
from engram.lang.text import STOPWORDS


def names_no_topic(concepts: Iterable[str]) -> bool:
    """Whether a query's concepts only ask for things to do ("my reminders", "open tasks", "due soon"), about
    nothing in particular."""
    return _only(concepts, _ASKING_FOR_TASKS)


def _only(concepts: Iterable[str], asking: frozenset[str]) -> bool:
    """Whether every word of the concepts is one of `asking`, a stopword or a word that only says when."""
    words = [w for c in concepts for w in re.split(r"[\s-]+", c.lower()) if w]
    return all(
        w in asking or w in STOPWORDS or w in analysis.WHEN_ALONE or analysis.NO_TOPIC.fullmatch(w)
        for w in words
    )


# "Remind me what Sarah said", "a reminder of the trip": asking to recall something, not for things to do.
_RECALLING = re.compile(
    r"\bremind(?:s|ed)?\s+(?:me|him|her|them|us)\s+(?:of|what|which|who|whom|where|when|how|why|about|whether|if"
    r"|that)\b|\breminders?\s+of\b"
)
# Words a query asking for things to do is made of when it names no topic ("what do I need to do?").
_ASKING_FOR_TASKS = frozenset(
    """remind reminder reminders task tasks todo todos to-do to-dos due deadline deadlines need needs have has left
    open pending upcoming coming up soon list things thing anything everything any all my outstanding should must
    got get done plate happening sort sorting sorted meant supposed doing""".split()  # noqa: SIM905
)
# What a calendar holds, asked for as a whole ("appointments next week", "what's overdue").
_ASKING_FOR_TASKS |= {"overdue", "appointment", "appointments", "birthdays", "anniversaries", "events"}
_ASKING_FOR_TASKS |= {"occasions", "engagements"}
# The German words such a question is made of when it names no topic, beside its time ("diese Woche").
_GERMAN_ASKING = frozenset(
    """was steht stehen liegt an habe hab haben ich wir muss müssen sollte soll noch zu erledigen machen tun
    welche welcher welches aufgaben aufgabe termine termin fristen frist fällig überfällig vor gibt es für mich
    mir offen offene offenen alles heute morgen diese dieser diesen nächste nächster nächsten kommende kommenden
    woche wochenende monat""".split()  # noqa: SIM905
)
_ASKING_FOR_TASKS |= _GERMAN_ASKING


# The verbs and nouns of telling among those words: a question naming none asks about what happens, not what was told.
_TELLING = frozenset(
    """tell told say said mention mentioned share shared talk talked discuss discussed write wrote written store
    stored save saved add added note noted jot jotted log logged put record recorded memory memories notes""".split()  # noqa: SIM905
)
# A question in the present simple with "do" ("what do we do on Friday night?", "where does Alfie go on
# Thursday?"): what usually happens then, which the memories say, not what was told on that day.
_USUALLY = re.compile(
    r"\b(?:do|does)\s+(?:I|we|you|they|he|she|it|(?-i:[A-Z])\w+|(?:my|our|your|his|her|their|the)\s+\w+)\s+"
    r"(?:usually\s+|normally\s+)?[a-z]+",
    re.IGNORECASE,
)


def asks_what_usually(question: str) -> bool:
    """Whether `question` asks what usually happens ("what do we do on Friday night?"), telling of nothing."""
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", question)}
    return _USUALLY.search(question) is not None and not said & _TELLING


# Words a query asking for memories themselves is made of when it names no topic ("what did I tell you today?").
_ASKING_FOR_MEMORIES = _TELLING | frozenset(
    """everything anything something things thing stuff all list show recent recently latest new happened
    happen""".split()  # noqa: SIM905
)


def asks_for_memories(concepts: Iterable[str]) -> bool:
    """Whether a query's concepts (its time phrase taken out) ask for memories, about nothing in particular:
    "what did I tell you", "everything I saved", "recent memories"."""
    return _only(concepts, _ASKING_FOR_MEMORIES)


# Words a question naming only a time asks what is planned with ("where am I going on 12 December?", "am I free
# on Saturday?", "any plans this weekend?").
_ASKING_FOR_PLANS = _ASKING_FOR_MEMORIES | frozenset(
    """going go doing free busy around away plans plan planned happening happens arranged booked""".split()  # noqa: SIM905
)


def asks_for_plans(concepts: Iterable[str]) -> bool:
    """Whether a query's concepts (its time phrase taken out) ask what is planned, about nothing in particular."""
    return _only(concepts, _ASKING_FOR_PLANS)


# What a calendar holds, named as what a question asks for ("appointments next week", "upcoming birthdays").
_EVENTS = r"(?:appointments?|birthdays?|anniversar(?:y|ies)|events?|occasions?|engagements?)"


OCCASIONS = re.compile(r"\b(?:birthdays?|anniversar(?:y|ies)|occasions?)\b", re.IGNORECASE)
_MONTH = rf"(?:{timewords.MONTHS}|(?:{timewords.SHORT_MONTHS})\b)"
# After "have on": nothing, or a time ("what do I have on Friday?"), not a place or a thing ("on TikTok", "on file").
_WHEN_AFTER = (
    r"(?=\W*$|\s+(?:this|next|in|for|at|over|during|today|tomorrow|tonight"
    rf"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|{_MONTH}|the\s+\d|\d))"
)


# Asking for things to do in German ("was steht diese Woche an?", "was muss ich heute erledigen?", "welche Termine
# habe ich?") or Chinese ("这周有什么要做的", "今天要办什么", "下周有什么安排"): the English words above are not in them.
_FOREIGN_TASKS = re.compile(
    r"\bwas\s+steht\b.*\ban\b|\bwas\s+liegt\b.*\ban\b|\bwas\s+(?:habe|hab|haben)\s+(?:ich|wir)\b.*\bvor\b"
    r"|\b(?:muss|müssen|sollte|soll)\s+(?:ich|wir)\b.*\b(?:erledigen|machen|tun|abgeben|schicken)\b"
    r"|\bzu\s+erledigen\b|\b(?:aufgaben|termine|fristen|fällig|überfällig)\b"
    r"|要做|要办|该做|得做|待办|任务|安排|日程|到期|截止|逾期|有什么事"
)


def intent(query: str) -> str:
    """remind (to-dos, due dates), show_similar, timeline (when / history), list, else find."""
    q = query.lower()
    if re.search(
        r"\b(remind|reminders?|to-?dos?|tasks?|due|deadlines?|(?:need|have|got|ought) to (?:do|get done|sort(?: out)?)\b|"
        # "What's on my list this week": a list named by nothing else is of things to do (not "my shopping list").
        r"(?:should|must) (?:i |we )?(?:do|get done)|get done|on my (?:plate|list\b(?! of\b))|"
        # "What am I meant to be doing this week?", "what should I be doing today?": the diary's things to do.
        r"what (?:am i|are we) (?:meant|supposed) to (?:be )?do(?:ing)?\b|what (?:should|must) (?:i|we) be doing\b|"
        # What a diary holds: "what do I have on in December", "what's coming up next week".
        # "On" then a time or nothing: "how many followers do we have on TikTok" asks about TikTok.
        rf"(?:do|have) (?:i|we) (?:have|got) (?:on{_WHEN_AFTER}|coming up)|"
        r"(?:what'?s|what is|anything|something) coming up|coming up (?:this|next|in|soon|today|tomorrow)|"
        r"what'?s on (?:(?:this|next)(?! (?:mon|tues|wednes|thurs|fri|satur|sun)day)|in|for|today|tomorrow|tonight"
        r"|(?:the )?\d+(?:st|nd|rd|th)?"
        # Not a weekday: "what's on Friday?" asks what the diary holds then, each week's too (a search answers it
        # when nothing is due that day).
        r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d)|"
        r"(?:what'?s|what is|anything) happening (?:this|next|in|on|today|tomorrow|tonight|soon)|"
        rf"what do (?:i|we) have (?:this|next|on{_WHEN_AFTER}|today|tomorrow|tonight)|overdue|"
        # "Anything I've forgotten to do?", "did I forget anything?": what was missed.
        r"(?:forgotten|forgot|forget|missed) (?:to do|anything)|"
        r"(?:anything|something) (?:i|we)(?:'ve| have)? (?:forgotten|forgot|missed)|"
        # "Anything to do before Christmas?", "what's left to do", "what needs doing (sorting) this week".
        r"(?:anything|something|what'?s|what is|what else|stuff) (?:left |else |still |more )?(?:to do|to sort out)\b"
        r"(?! (?:in|at|near|around|with)\b)|needs? (?:doing|sorting)|(?:still )?to be (?:done|sorted)|"
        # A month alone, with nothing said to have happened then: "anything in December?", "what do I have in May".
        rf"^\W*(?:(?:is|are) there )?(?:anything|something|what do (?:i|we) have)(?: on)? (?:in|for) {_MONTH}|"
        # An event noun with a time to come: "appointments next week", "birthdays coming up", "upcoming events".
        rf"(?:upcoming|coming|next) {_EVENTS}|(?:^|\b(?:any|my|what|which|the)\s+){_EVENTS}\s+(?:(?:are|is)\s+)?"
        rf"(?:coming up|upcoming|due|soon|this|next|today|tomorrow|tonight|in (?:the )?(?:next|coming)|in {_MONTH}))\b",
        q,
    ) and not (_RECALLING.search(q)):
        return "remind"
    if _FOREIGN_TASKS.search(q):
        return "remind"
    if re.search(r"\b(similar to|like this|related to|more like)\b", q):
        return "show_similar"
    if re.search(r"\b(when did|when was|history of|timeline|what happened)\b", q):
        return "timeline"
    if re.search(r"^\s*(list|show( me)? all|all (my|the))\b", q):
        return "list"
    return "find"
