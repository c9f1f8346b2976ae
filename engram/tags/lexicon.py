"""The words of everyday English that the tagger's parts of speech alone do not sort: adjectives and nouns that
name no topic, units, courtesy, and pastimes named by their -ing word. Read by engram.tags.phrases."""

from __future__ import annotations

# Adjectives that say how something was found or when, not which thing it is ("great idea", "next year").
PLAIN_ADJECTIVES = frozenset(
    """good great nice bad best better worse worst new old big small large little huge tiny next last other same
    first second third final few many much several more most less least whole own whole main real sure able
    happy glad sad awesome amazing cool fine okay ok lovely wonderful terrible awful interesting important
    urgent quick quickly early late recent current previous certain different various usual whole entire full
    short long easy hard simple several such only right wrong free busy open ready possible likely due done
    available unavailable finished""".split()  # noqa: SIM905
)
# Nouns too general to name a topic on their own ("a lot of things", "the way", "some stuff").
VAGUE = frozenset(
    """thing things stuff lot lots way ways kind kinds sort sorts bit bits something anything everything nothing
    someone anyone everyone nobody somebody people person one ones part parts point points idea ideas fact facts
    case cases time times moment moments while number numbers amount amounts type types piece pieces place
    places reason reasons question questions problem problems issue issues end beginning start rest side sides
    matter matters situation example examples detail details use uses user users status hold none notes pm am
    minute minutes hour hours second seconds euro euros dollar dollars pound pounds percent km kilometres
    kilometers mile miles gram grams kilo kilos kilogram kilograms litre litres liter liters goal goals plan
    plans mistake mistakes insight insights lesson lessons tip tips name names reminder reminders update updates
    thought thoughts max min maximum minimum total tbh imo imho btw fyi idk lol omg""".split()  # noqa: SIM905
)


# Words that say when (seasons, parts of the day, weekdays): a date is an entity, and as a tag it goes stale.
WHEN = frozenset(
    """spring summer autumn fall winter morning afternoon evening night mornings afternoons evenings nights noon
    midnight weekday weekdays weekend
    weekends decade decades century daily weekly monthly yearly annually quarter jan feb mar apr jun jul aug
    sep sept oct nov dec mon tue tues wed thu thur thurs fri""".split()  # noqa: SIM905
)
# Units of measure, which name an amount and no topic ("250 ml milk" is milk).
UNITS = frozenset(
    """g kg mg ml l cl dl km cm mm m lb lbs oz ft mph kph gb mb tb kb hz ghz kw kwh bar psi yr yrs wk wks mth
    mths mo mos hr hrs min mins""".split()  # noqa: SIM905
)
# Pastimes named by their -ing word: a topic when nothing follows as its object ("Climbing at the Depot on
# Mondays", "I hate running"), a verb when something does ("running the Bath Half").
PASTIMES = frozenset(
    """running jogging walking hiking climbing bouldering swimming cycling rowing sailing surfing skiing skating
    fishing camping gardening knitting crochet painting drawing baking cooking dancing singing boxing""".split()  # noqa: SIM905
)
OBJECT_OPENERS = frozenset({"DT", "PDT", "PRP", "PRP$", "CD", "NN", "NNS", "NNP", "NNPS", "JJ"})
# Courtesy said in a note ("oat milk in coffee please"), which a tagger may read as a noun.
COURTESY = frozenset(["please", "pls", "plz", "thanks", "thx", "ta", "cheers", "sorry", "hello", "hi"])
