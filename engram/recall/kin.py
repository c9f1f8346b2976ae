"""Who a kin word is: "where does my husband work" is answered by "Tomás works at ..." once another memory says
who the husband is ("Tomás and I got married", "my husband Tomás"). The question's kin words are looked up in
the memories that state the relation, and the names those give become other words for the kin word (a memory
that names Tomás says "husband"), and the first stands for it in the text the model embeds. Only the asker's own
relations count: "my sister ... with her wife Priya" names no wife of the asker."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib.resources import files

from engram.lang.text import STOPWORDS, stem

# The kin words a question may name a person by, each with the words a memory may state that relation with.
_SPOUSE = ("husband", "wife", "spouse", "partner")
# A partner is also the person the asker is together with or engaged to ("Kofi and I have been together since
# 2019"), said of a partner by any word for one.
_COUPLE = frozenset({*_SPOUSE, "boyfriend", "girlfriend", "fiancé", "fiancée", "fiance", "fiancee"})
_DOG = (
    "dog", "puppy", "beagle", "spaniel", "labrador", "lab", "retriever", "terrier", "collie", "poodle",
    "dachshund", "whippet", "greyhound", "lurcher", "cockapoo", "labradoodle", "cavapoo", "pug", "husky",
    "schnauzer", "alsatian", "sheepdog", "bulldog", "chihuahua", "shih tzu", "jack russell", "staffie", "corgi",
)  # fmt: skip
_GRANDCHILDREN = ("grandchild", "grandson", "granddaughter", "grandchildren", "grandkids")
_CAT = ("cat", "kitten", "tabby", "siamese", "ragdoll", "maine coon")
# "Our pet" is not looked up: of several pets, the first name found would stand for whichever was meant.
_PETS = frozenset({*_DOG, *_CAT, "dogs", "cats"})
# The trades and services people hire, named as a role or as a title before the name ("Electrician Sinead Byrne
# quoted ...", "Kev the plumber"), then by name alone ("Sinead can start on 7 December").
_TRADES = (
    "electrician", "plumber", "builder", "roofer", "plasterer", "decorator", "painter", "joiner", "carpenter",
    "locksmith", "mechanic", "gardener", "tiler", "glazier", "architect", "surveyor", "solicitor", "physio",
    "physiotherapist", "optician", "hairdresser", "barber", "tutor", "vet", "chiropractor", "osteopath",
)  # fmt: skip
# Kin words of the languages people grow up in, said as a title ("Abuela Rosa", "Nonna Pina", "Mamá (Carmen)")
_GRANDMA_ABROAD = ("abuela", "nonna", "avó", "oma", "babcia", "mamie")
_GRANDPA_ABROAD = ("abuelo", "nonno", "avô", "opa", "dziadek", "papy")
_RELATIONS: dict[str, tuple[str, ...]] = {
    "husband": ("husband",),
    "wife": ("wife",),
    "spouse": _SPOUSE,
    "partner": ("partner", "boyfriend", "girlfriend", "fiancé", "fiancée", "fiance", "fiancee"),
    "boyfriend": ("boyfriend",),
    "girlfriend": ("girlfriend",),
    "fiancé": ("fiancé", "fiance"),
    "fiancée": ("fiancée", "fiancee"),
    "mother": ("mother", "mum", "mom", "mam", "mummy", "mommy", "mama", "mamá", "mamma", "mãe", "maman"),
    "father": ("father", "dad", "daddy", "papa", "papá", "papà"),
    "sister": ("sister",),
    "brother": ("brother",),
    "daughter": ("daughter",),
    "son": ("son",),
    "aunt": ("aunt", "auntie", "aunty"),
    "uncle": ("uncle",),
    "niece": ("niece",),
    "nephew": ("nephew",),
    "cousin": ("cousin",),
    "grandmother": ("grandmother", "grandma", "gran", "granny", "nan", "nana", *_GRANDMA_ABROAD),
    "grandfather": ("grandfather", "grandpa", "grandad", "granddad", *_GRANDPA_ABROAD),
    "stepmother": ("stepmother", "stepmum", "stepmom"),
    "stepfather": ("stepfather", "stepdad"),
    "stepson": ("stepson",),
    "stepdaughter": ("stepdaughter",),
    "grandson": ("grandson",),
    "granddaughter": ("granddaughter",),
    "grandchild": ("grandchild", "grandson", "granddaughter"),
    "grandchildren": _GRANDCHILDREN,
    "grandkids": _GRANDCHILDREN,
    "godson": ("godson",),
    "goddaughter": ("goddaughter",),
    "flatmate": ("flatmate", "roommate", "housemate"),
    # The people around the asker named by their role, stated as kin are ("my manager is Dana", "our
    # accountant is Gareth Price", "our neighbour Doreen"): "which book did my manager suggest" is answered by
    # "Dana recommended ...". Each other word for a role (boss, gp, nanny) is looked up as the role (below).
    "manager": ("manager", "boss", "line manager"),
    "accountant": ("accountant",),
    "neighbour": ("neighbour", "neighbor"),
    "landlord": ("landlord", "landlady"),
    "dentist": ("dentist",),
    "doctor": ("doctor", "gp"),
    "therapist": ("therapist",),
    "mentor": ("mentor",),
    "babysitter": ("babysitter", "nanny", "childminder"),
    "cleaner": ("cleaner",),
    **{trade: (trade,) for trade in _TRADES},
    # A dog or a cat is named as kin are ("our dog Rufus", "Pickle, our beagle", "Biscuit (the cat)"), often by
    # its breed.
    "dog": _DOG,
    "dogs": _DOG,
    "puppy": _DOG,
    "cat": _CAT,
    "cats": _CAT,
    "kitten": _CAT,
}
# A parent-in-law is a parent of the person the asker married: "my mother-in-law" is the spouse's mother ("Rob's
# mum Janet"), found through the spouse's name as the memories give it. Not a brother- or sister-in-law, who is
# as often a sibling's spouse: put in its place, the spouse's brother hid the sister's husband.
_IN_LAW: dict[str, tuple[str, ...]] = {
    "mother": ("mum", "mother", "mom"),
    "father": ("dad", "father"),
    "parents": ("parents", "mum", "dad"),
}
_IN_LAWS = "in-laws"  # "my in-laws", "the in-laws": the spouse's parents
# Kin through the asker's child, who the memories rarely call by the asker's word: a grandson is "Theo, Daniel and
# Mei's little boy", a daughter-in-law "our son Daniel ... with his wife Mei". Each with how the child is stated
# and how the memories say the child's own relation.
_CHILDREN_SAID = ("son", "daughter", "boy", "girl", "child", "children", "kids")
_THROUGH_CHILD: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "grandson": (("son", "daughter"), ("son", "boy", "lad")),
    "granddaughter": (("son", "daughter"), ("daughter", "girl")),
    "grandchild": (("son", "daughter"), ("son", "daughter", "boy", "girl", "child")),
    "grandchildren": (("son", "daughter"), _CHILDREN_SAID),
    "grandkids": (("son", "daughter"), _CHILDREN_SAID),
    "daughter-in-law": (("son",), ("wife", "partner", "fiancée", "fiancee")),
    "son-in-law": (("daughter",), ("husband", "partner", "fiancé", "fiance")),
}
# A child's child is said with these before the word ("Daniel's little boy").
_YOUNG = r"(?:(?:little|baby|eldest|oldest|youngest|new|twin|two|three)\s+)?"
_BEFORE_IN_LAWS = frozenset({"my", "our", "the", "your"})
for _kin, _said in list(_RELATIONS.items()):
    for _word in _said:
        _RELATIONS.setdefault(_word, _said)
# The kin words people put before a name as a title ("Uncle Chidi", "Dad (Emeka)"); a sentence opening with
# another ("Partner Portal launch", "Son Heung-min") names no relation of the asker.
_TITLES = frozenset(
    {"mum", "mom", "mam", "mummy", "mommy", "mama", "dad", "daddy", "papa", "aunt", "auntie", "aunty"}
    | {"uncle", "grandma", "grandpa", "gran", "granny", "nan", "nana", "grandad", "granddad", "cousin"}
    | {"mamá", "mamma", "mãe", "maman", "papá", "papà", *_GRANDMA_ABROAD, *_GRANDPA_ABROAD}
)


def _kinds() -> dict[str, tuple[str, ...]]:
    """The names of each kind of pet (engram/recall/kinds.txt, from WordNet), by the word a question says."""
    text = files("engram.recall").joinpath("kinds.txt").read_text(encoding="utf-8")
    lines = (line.split(":", 1) for line in text.splitlines() if ":" in line and not line.startswith("#"))
    return {word.strip(): tuple(n.strip() for n in names.split(",") if n.strip()) for word, names in lines}


# A pet is stated by any name of its kind ("Bramble (springer, 6)"); only the words above name a pet in a question:
# "boxer" or "toy" asked about is no dog.
_KINDS = _kinds()
for _kin, _names in _KINDS.items():
    for _word in (_kin, f"{_kin}s", *(_DOG if _kin == "dog" else _CAT)):
        if _word in _RELATIONS:
            _RELATIONS[_word] = tuple(dict.fromkeys((*_RELATIONS[_word], *_names)))
_PETS = frozenset({*_PETS, *(n for said in _KINDS.values() for n in said)})
# Said in lower case only: some are names too ("Tom", of a tomcat), and "Bank manager (Tom Ferris)" names no cat.
_LOWER_ONLY = frozenset(n for said in _KINDS.values() for n in said) - set(_DOG) - set(_CAT)
# A spouse is also the person the asker married.
_MARRIED = "married"
_MOST_NAMES = 3  # names kept for one kin word: more would be a family, not a person
LOOKED_UP = 20  # memories stating a relation read for each question

# A name: one or two capitalised words (any alphabet), the second optional.
_NAME = r"([^\W\d_][\w'\u2019-]*(?:\s+[^\W\d_][\w'\u2019-]*)?)"


# A partner or a spouse called otherwise: "what does my other half eat on Sundays?". Read as "half", the question
# was about whatever a memory halved.
_CALLED = {"other half": "partner", "better half": "partner", "hubby": "husband", "missus": "wife"}
_CALLED_SAID = re.compile(r"\b(" + "|".join(_CALLED) + r")\b", re.IGNORECASE)


def kin_words(text: str) -> dict[str, tuple[str, ...]]:
    """The kin words of a question (lower case), each with the words a memory states it with. An in-law is not
    the kin word it starts with ("brother-in-law" is no brother)."""
    out: dict[str, tuple[str, ...]] = {}
    text = _CALLED_SAID.sub(lambda m: _CALLED[m.group(1).lower()], text)
    lowered = text.lower()
    for match in _WORD.finditer(lowered):
        word = match.group(1)
        if len(word) > 1 and text[match.start(1) : match.end(1)].isupper():
            continue  # an acronym: "the CAT tool" (computer-assisted translation) is no pet
        if word in _RELATIONS and not match.group(2):
            theirs = _THEIRS.search(
                lowered, max(0, match.start() - 60), match.start()
            )  # the word before only
            # "the Hennessys' dog" is not the asker's; "what's" before "Dad's" is no one's
            if theirs is None or theirs.group(1).replace("\u2019", "'") in STOPWORDS:
                out[word] = _RELATIONS[word]
        elif match.group(2) and (word in _IN_LAW or word in _BEFORE_IN_LAWS):  # whose mother she is
            out[match.group(0) if word in _IN_LAW else _IN_LAWS] = _SPOUSE
        elif match.group(2) and f"{word}-in-law" in _THROUGH_CHILD:  # the child's spouse
            out[match.group(0)] = (f"{word}-in-law",)
    return out


def said_of(word: str, names: Sequence[str]) -> tuple[str, ...]:
    """How the memories say the relation a kin word names, given the names found for it: the names themselves,
    or for an in-law the spouse's relation ("mother-in-law", Rob: "Rob's mum", "Rob's mother")."""
    base = _WORD.fullmatch(word)
    if word == _IN_LAWS:
        relations = _IN_LAW["parents"]
    elif base is not None and base.group(2) and base.group(1) in _IN_LAW:
        relations = _IN_LAW[base.group(1)]
    else:
        return tuple(names)
    return tuple(f"{name}'s {relation}" for name in names for relation in relations)


# Someone else's, just before a kin word: "Sarah's husband", "the Hennessys' dog", "my sister's dog" are not the
# asker's.
_THEIRS = re.compile(r"([^\W\d_]{1,40}(?:['\u2019]s|s['\u2019]))\s+$")
_WORD = re.compile(r"([^\W\d_]+)(?:['\u2019]s\b)?([\s-]+in[\s-]+laws?\b)?")


def searched(kin: dict[str, tuple[str, ...]]) -> list[str]:
    """The words the memories that state these relations are searched by."""
    found = [w for said in kin.values() for w in said]
    for said in kin.values():
        if said[0] in _THROUGH_CHILD:
            child, theirs = _THROUGH_CHILD[said[0]]
            found += [*child, *theirs]
    if any(set(said) & set(_SPOUSE) for said in kin.values()):
        found.append(_MARRIED)
    if any("manager" in said for said in kin.values()):
        found.append("report")
    if any(set(said) & _COUPLE for said in kin.values()):
        found += ["together", "engaged"]
    return list(dict.fromkeys(found))


def _patterns(said: Sequence[str]) -> list[re.Pattern[str]]:
    relation = (
        "(?:" + "|".join(f"(?-i:{re.escape(w)})" if w in _LOWER_ONLY else re.escape(w) for w in said) + ")"
    )
    # The asker's own, or said as a note's subject ("Flatmate is Tom"); a pet is the household's ("The cat's ...")
    stated = rf"(?:\b(?:my|our{'|the' if set(said) & _PETS else ''})\s+|^|(?<=[.!?;:\n]\s))"
    # or as a title: "Dad (Emeka)", "Electrician Sinead"
    own = stated if set(said) & (_TITLES | _PETS) or set(said) & set(_TRADES) else r"(?:\b(?:my|our)\s+)"
    found = [
        rf"{own}{relation}\b,?\s+{_NAME}",  # my husband Tomás, Mum, Helen
        rf"{own}{relation}\s*\(\s*{_NAME}\s*\)",  # Dad (Emeka)
        # my manager is Dana; Flatmate is Tom Reyes (a note's subject is the asker's own); my cat's called Pesto
        rf"{stated}{relation}\s+(?:is|was)\s+(?:called\s+|named\s+)?{_NAME}",
        rf"{stated}{relation}['\u2019]s\s+(?:called|named)\s+{_NAME}",
        # Tomás, my husband; Ada is our daughter; Bruno - our staffie
        rf"\b{_NAME}(?:,|\s+[-\u2013:])?\s+(?:is\s+)?(?:my|our)\s+{relation}\b",
        rf"\b{_NAME}\s*\(\s*(?:my|our)\s+{relation}\s*\)",  # Claire (my partner)
    ]
    if "manager" in said:  # whom the asker reports to: "I report to Rachel Osei, the CTO"
        found.append(rf"\b(?:I|we)\s+(?:now\s+|still\s+)?report(?:ed)?\s+(?:directly\s+)?to\s+{_NAME}")
    if set(said) & set(_TRADES):  # Kev the plumber; Sinead (electrician)
        found += [rf"\b{_NAME},?\s+(?:the|our|my)\s+{relation}\b", rf"\b{_NAME}\s*\(\s*{relation}\s*\)"]
    if set(said) & _PETS:
        found += [
            rf"\b{_NAME}\s*\(\s*(?:(?:the|our|my|a|an)\s+)?(?:[^\W\d_]+\s+)?{relation}\b",  # Biscuit (the cat)
            rf"\b{_NAME},\s+(?:the|our|my)\s+{relation}\b",  # Bramble, the dog
        ]
    if set(said) & _COUPLE:
        found += [
            # Kofi and I have been together since 2019; Kofi and I got engaged; Kofi and I want to get married
            rf"\b{_NAME}\s+and\s+(?:I|me)\s+(?:(?:have\s+been|are|were|got|'ve\s+been)\s+)?(?:together|engaged)\b",
            rf"\b{_NAME}\s+and\s+I\s+(?:want|plan|hope|are\s+going)\s+to\s+get\s+married\b",
        ]
    if set(said) & set(_SPOUSE):
        found += [
            rf"\b{_NAME}\s+and\s+I\s+(?:got\s+|were\s+|have\s+been\s+)?married\b",  # Tomás and I got married
            r"\b(?:I|I've|I have)\s+(?:got\s+)?married\s+(?:to\s+)?" + _NAME,  # I married Tomás
            r"\b(?:I'm|I am)\s+married\s+to\s+" + _NAME,
        ]
    return [re.compile(p, re.IGNORECASE | re.MULTILINE) for p in found]


def names_in(said: Sequence[str], texts: Iterable[str]) -> tuple[str, ...]:
    """The names `texts` give the asker's relation stated by the words `said`, most often given first."""
    counted: dict[str, int] = {}
    patterns = _patterns(said)
    for text in texts:
        for pattern in patterns:
            for match in pattern.finditer(text):
                name = _name(match.group(1), said)
                if name:
                    counted[name] = counted.get(name, 0) + 1
    if not counted and said and said[0] in _THROUGH_CHILD:
        return _through_child(said[0], texts)
    ranked = sorted(counted, key=lambda n: -counted[n])
    return tuple(ranked[:_MOST_NAMES])


def _through_child(word: str, texts: Iterable[str]) -> tuple[str, ...]:
    """The names `texts` give kin through the asker's child: the child's child or spouse, said of the child by
    name ("Theo, Daniel and Mei's little boy", "Daniel's son Theo", "our son Daniel ... his wife Mei")."""
    texts = list(texts)
    child, theirs = _THROUGH_CHILD[word]
    children = [n for relation in child for n in names_in(_RELATIONS[relation], texts)]
    if not children:
        return ()
    said = "(?:" + "|".join(re.escape(w) for w in theirs) + ")"
    found: list[str] = []
    for name in children:
        whose = (
            rf"(?:{re.escape(name)}(?:\s+and\s+[^\W\d_]+)?|[^\W\d_]+\s+and\s+{re.escape(name)})['\u2019]s\s+"
        )
        patterns = [
            rf"\b{_NAME},\s+{whose}{_YOUNG}{said}\b",  # Theo, Daniel and Mei's little boy
            rf"\b{whose}{_YOUNG}{said}\b,?\s+{_NAME}",  # Daniel's son Theo
            rf"\b{_NAME}\s+is\s+{whose}{_YOUNG}{said}\b",  # Theo is Daniel's son
            rf"\b{re.escape(name)}\b[^.!?;\n]*?\b(?:his|her|their)\s+{_YOUNG}{said}\b,?\s+{_NAME}",  # ... his wife Mei
        ]
        for pattern in patterns:
            for text in texts:
                for match in re.finditer(pattern, text, re.IGNORECASE):
                    given = _name(match.group(1), (*theirs, *children))
                    if given:
                        found.append(given)
    return tuple(dict.fromkeys(found))[:_MOST_NAMES]


def _name(found: str, said: Sequence[str]) -> str | None:
    """The capitalised words of a match that make a name (a lower-case word, a stopword or a kin word ends it)."""
    kept: list[str] = []
    for word in found.split():
        word = word.removesuffix("'s").removesuffix("\u2019s").strip("'\u2019-")
        if not word or not word[0].isupper() or word.lower() in STOPWORDS or word.lower() in _RELATIONS:
            break
        kept.append(word)
    name = " ".join(kept)
    return name if name and name.lower() not in said else None


def by_name(text: str, named: Sequence[tuple[str, tuple[str, ...]]]) -> str:
    """`text` with each kin word (and the "my" or "our" before it) replaced by the first name found for it: the
    model places "what does Tomás do for work" near what is said of Tomás, and "my husband" near the memory
    that says whom the asker married."""
    for word, names in named:
        own = "my|our|the" if word in _PETS or word in _TRADES else "my|our"  # "the dog" is the asker's dog
        called = "|".join(re.escape(c) for c, w in _CALLED.items() if w == word)
        said = f"{re.escape(word)}|{called}" if called else re.escape(word)
        pattern = re.compile(rf"\b(?:(?:{own})\s+)?(?:{said})(?=['\u2019]s\b|\b)", re.IGNORECASE)
        found = pattern.search(text)
        if found is not None:
            text = text[: found.start()] + names[0] + text[found.end() :]
    return text


# How many times more memories must say the kin word than the name before the kin word is kept in the text the
# model embeds: a name said in a few memories still stands for the person ("Dad (Emeka) turns 70 on 14 December").
_SAID_MORE = 10


def called_by_name(
    named: Sequence[tuple[str, tuple[str, ...]]],
    kin: Mapping[str, Sequence[str]],
    frequencies: Callable[[Sequence[str]], tuple[int, dict[str, int]]],
) -> list[tuple[str, tuple[str, ...]]]:
    """Of the kin words `named` (each with its names, as spelled and without accents), those whose name stands for
    them in the text the model embeds: all but those the memories almost always call by the kin word (`kin`: the
    words each is said with; `frequencies`: how many memories hold each word stem). A father the memories call
    "Dad" ("Dad's chiropodist comes ...") asked about as "Emrys Pritchard" drew the memory naming him over every
    one about him."""
    wanted = {w: [stem(s.lower()) for s in kin[w]] for w, _ in named}
    # An in-law's names are the spouse's with the relation ("Rob's mum"): the spouse's name is counted.
    firsts = {
        w: [stem(n.split()[0].lower().removesuffix("'s").removesuffix("\u2019s")) for n in names if n.split()]
        for w, names in named
    }
    every = [*(s for said in wanted.values() for s in said), *(s for f in firsts.values() for s in f)]
    _, counts = frequencies(list(dict.fromkeys(every)))
    return [
        (w, names)
        for w, names in named
        if not (by_name := max((counts.get(s, 0) for s in firsts[w]), default=0)) > 0
        or max((counts.get(s, 0) for s in wanted[w]), default=0) < _SAID_MORE * by_name
    ]


def spelled(names: Sequence[str]) -> tuple[str, ...]:
    """The names, each followed by its spelling without accents where it has any ("Tomás", "Tomas"): a full-text
    index that folds accents counts "Tomás" under "tomas", and a word it does not count is no word of the store."""
    out: list[str] = []
    for name in names:
        bare = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
        out += [name, bare] if bare != name else [name]
    # A person given a full name once is then named by the first ("My manager is Rhiannon Evans", "Rhiannon
    # recommended ..."): a memory that says the first name alone says who was asked about.
    for name in names:
        if len(first := name.split()) > 1:
            out += spelled(first[:1])
    return tuple(dict.fromkeys(out))


def relation_said(word: str) -> tuple[str, ...]:
    """The words a memory states a kin or role word's relation with (a wife as any partner, or by being married),
    or none for a word that names no relation."""
    said = _RELATIONS.get(word.lower(), ())
    return (*sorted(_COUPLE), _MARRIED) if set(said) & _COUPLE else said
