"""A query's candidates, scored: the vector and text searches, the episode neighbours of what they found,
scored with pseudo-relevance feedback and against any time the query names. The retriever (recall, ranked) and
trace_search start here; MMR, modes and siblings come after."""

from __future__ import annotations

import re
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from engram.config import RankingProfile, Settings
from engram.embed.embedder import Embedder
from engram.lang.text import idf, stem, stems
from engram.model.results import Scored
from engram.model.vectors import Vector
from engram.recall.contained import Contained, overlap_stems
from engram.recall.named import names_asked
from engram.recall.passages import OPENING, opening
from engram.recall.query import Query
from engram.recall.scoring import Decay, Pool, feedback_query, score
from engram.recall.speakers import as_said, spoken_names, without_names
from engram.store.roles import SearchIndex, TextsWeighed, Transactions
from engram.store.values import Facts, Filter

# The most a match through expansions alone (related tags) counts in bm25, against the best match as asked.
EXPANSION_SHARE = 0.5
SEARCHED_OTHERS = 2  # other words for a question's word that the text search looks for
# How many candidates each search gives for a recall of `limit` results: at least FEWEST, else so many per result.
# The vector search's come after the query is embedded, each read and scored on the path the caller waits on;
# the text search's are read beside the embedding. Fewer vector hits (5 per result, not 8) lost no answer in the
# retrieval and user-level benchmarks; fewer text hits lost LoCoMo evidence turns.
FEWEST = 50
TEXT_PER_RESULT = 8
VECTOR_PER_RESULT = 5


def candidates_of(limit: int) -> tuple[int, int]:
    """How many hits the text search and the vector search each give for `limit` results."""
    return max(FEWEST, TEXT_PER_RESULT * limit), max(FEWEST, VECTOR_PER_RESULT * limit)


def weighed_stems(query: Query, expansions: Sequence[str]) -> list[str]:
    """The stems whose document frequencies weigh the query's words: its own, its expansions', the words it is
    read as one (e-mail: email) and the other words for its words."""
    own = list(query.stems)
    instead = {s for alts in _standins(query).values() for alt in alts for s in alt}
    wholes = list({said: stem(whole) for said, whole in query.spellings}.values())
    weighed = [*own, *_others(own, expansions), *wholes, *(instead - set(own))]
    return [*weighed, *sorted({p for w in weighed if "'" in w for p in _PARTS.findall(w)} - set(weighed))]


# The parts the full-text index keeps of a word with an apostrophe ("don't": "don", "t"): it holds no "don't".
_PARTS = re.compile(r"[^\W_]+")


def _frequency(frequencies: dict[str, int], word: str) -> int:
    """How many memories say `word`: a contraction ("don't like" for hate) counts as its rarest part, as the
    index holds only the parts; read as 0, every other word written with one was never found."""
    if "'" not in word:
        return frequencies.get(word, 0)
    return frequencies.get(word, 0) or min((frequencies.get(p, 0) for p in _PARTS.findall(word)), default=0)


def _others(own: Sequence[str], expansions: Sequence[str]) -> list[str]:
    return sorted(stems(" ".join(expansions)) - set(own)) if expansions else []


def _standins(query: Query) -> dict[str, list[frozenset[str]]]:
    standins: dict[str, list[frozenset[str]]] = {}
    for said, alts in query.others:
        for s in stems(said):
            standins.setdefault(s, []).extend(stems(alt) for alt in alts)
    return standins


def read_together(
    store: SearchIndex, weighed: Sequence[str], searches: Sequence[Sequence[str]], k: int, where: Filter
) -> tuple[tuple[int, dict[str, int]], list[list[tuple[Facts, float]]]]:
    """`document_frequencies(weighed)` and `text_facts(terms, k, where)` of each of `searches`: in one read where
    the store can (`TextsWeighed`)."""
    if isinstance(store, TextsWeighed):
        return store.weighed_text_facts(weighed, searches, k, where)
    return store.document_frequencies(weighed), [store.text_facts(t, k, where) for t in searches]


def with_expansions(
    asked: list[tuple[Facts, float]], expanded: list[tuple[Facts, float]]
) -> list[tuple[Facts, float]]:
    """The text hits of the question as asked, joined by those of its expansions' words (related tags): a hit
    keeps its bm25 as asked or, if higher, its expansions' bm25 scaled so that the best of them is
    EXPANSION_SHARE of the best as asked. Searched as one, the expansions' words raised other memories' bm25 above
    the best match as asked, which the lexical signal divides by: a memory that said what was asked fell."""
    top = max((s for _, s in asked), default=0.0)
    top_expanded = max((s for _, s in expanded), default=0.0)
    if top_expanded <= 0:
        return asked
    scale = EXPANSION_SHARE * top / top_expanded if top > 0 else 1.0
    joined = {f.id: (f, s) for f, s in asked}
    for f, s in expanded:
        joined[f.id] = (f, max(joined[f.id][1] if f.id in joined else 0.0, scale * s))
    return list(joined.values())


class CandidateStore(Transactions, SearchIndex, Protocol):
    """What gathering candidates reads."""


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """The IDF of each of a query's word stems that some memory contains, the summed IDF of those none does,
    and the IDF of its expansions' stems that are not its own (those some memory contains)."""

    known: dict[str, float]
    unseen: float
    alternates: dict[str, float]
    # The same two for the question without the words of a time it names, if it names one: how much of the
    # question a memory says (`coverage`) leaves them out.
    topic: tuple[dict[str, float], float] | None = None
    # For a stem of the question, the stems of each other word for it (father: dad): a memory that says all of
    # one of them says it.
    standins: dict[str, tuple[frozenset[str], ...]] = field(default_factory=dict)


class Candidates:
    """Gathers and scores candidates. The text search needs no embedding: on a reader thread it runs while the
    model embeds the query (both release the GIL), which hides most of its cost."""

    def __init__(
        self,
        settings: Settings,
        store: CandidateStore,
        embedder: Embedder,
        decay: Decay,
        readers: ThreadPoolExecutor,
    ) -> None:
        self._settings = settings
        self._store = store
        self._embedder = embedder
        self._decay = decay
        self._readers = readers

    def scored(
        self, query: Query, where: Filter, limit: int, profile: RankingProfile
    ) -> tuple[list[Scored[Facts]], dict[str, Vector], dict[str, list[str]]]:
        """Every candidate of the vector and text searches (and their episode neighbours), scored, best first,
        the candidates' vectors, and each candidate's neighbours among them. The query's expansions are extra words for the text search only."""
        store, settings = self._store, self._settings
        profile = profile.weighing(query.about_time)
        wide, nearest = candidates_of(limit)

        also = query.expansion_terms

        def lexical() -> tuple[dict[str, float], list[Facts], QueryTerms, Contained]:
            # The first few other words for each of the question's words (father: dad) are searched too; all of
            # them count in the overlap of every candidate. A broad word's many other words ("family": every kin
            # word) made the text search several times slower, and the vector search finds most such memories.
            said_else = [w for _, alts in query.others for alt in alts[:SEARCHED_OTHERS] for w in alt.split()]
            # The words' weights and the searches are read together (one round trip on PostgreSQL), the words
            # searched guessed first: a word the question may spell as one ("e-mail": email) is searched only
            # where the weights find it read as one, which few are. A wrong guess searches again.
            guess = list(dict.fromkeys([*query.terms, *said_else]))
            also_guessed = [w for w in dict.fromkeys(also) if w not in guess]
            searches = [guess, also_guessed] if also_guessed else [guess]
            statistics, answers = read_together(store, weighed_stems(query, also), searches, wide, where)
            asked = self._term_weights(query, also, statistics)
            wholes = [whole for _, whole in query.spellings if stem(whole) in asked.known]
            words = list(dict.fromkeys([*query.terms, *wholes, *said_else]))
            # The hits' facts come with the text search: no second query by id for them.
            hits = answers[0] if words == guess else store.text_facts(words, wide, where)
            if more := [w for w in dict.fromkeys(also) if w not in words]:
                expanded = answers[1] if more == also_guessed else store.text_facts(more, wide, where)
                hits = with_expansions(hits, expanded)
            # In id order, as a read by id returns them: the candidates' order breaks ties in scoring.
            by_text, found = {f.id: s for f, s in hits}, sorted((f for f, _ in hits), key=lambda f: f.id)
            contained = Contained()
            wanted = overlap_stems(asked.known, asked.alternates, asked.standins)
            contained.read_ahead([f.content for f in found], wanted)
            return by_text, found, asked, contained

        text_job: Future[tuple[dict[str, float], list[Facts], QueryTerms, Contained]] | None = None
        if store.reads_anywhere():
            text_job = self._readers.submit(lexical)
        qvec = self._embedder.embed_batch([query.search])[0]
        # The vector hits come with what scoring reads of them, while the text search is often still running.
        found = store.vector_facts(qvec, nearest, where)
        by_vector = {f.id: cosine for f, cosine in found}
        facts = [f for f, _ in found]
        by_text, text_facts, asked, contained = text_job.result() if text_job is not None else lexical()
        facts += [f for f in text_facts if f.id not in by_vector]
        beside: dict[str, list[str]] = {}
        # Only memories in an episode, or chunks, have neighbours to look for; those found join the candidates.
        placed = [f.id for f in facts if f.placed] if profile.context else []
        if placed:
            beside = store.episode_neighbours(placed, where)
            # A neighbour that joins is beside the candidate that brought it: that candidate is its context too.
            for memory_id, near in list(beside.items()):
                for other in near:
                    if memory_id not in beside.setdefault(other, []):
                        beside[other].append(memory_id)
            known = {f.id for f in facts}
            extra = [n for n in dict.fromkeys(n for near in beside.values() for n in near) if n not in known]
            facts += store.facts(extra) if extra else []
        qvec = self._as_said(query, facts, qvec)
        vectors = {f.id: f.vector for f in facts if f.vector is not None}
        # np.array, not np.stack, of the rows: the same matrix, in a third of the time for a few hundred rows.
        embedded = np.array(list(vectors.values())) if vectors else np.zeros((0, len(qvec)), dtype=np.float32)

        # Where every candidate has its vector (as stored ones do), the matrix's rows are the candidates'.
        aligned = len(vectors) == len(facts)

        def cosines(q: Vector) -> np.ndarray:
            """Every candidate's cosine to `q`, in one product (stored vectors are unit length), in the
            candidates' order; 0 for one without a vector."""
            products = embedded @ q
            if aligned:
                return products
            by_id = dict(zip(vectors, products.tolist(), strict=True))
            return np.array([by_id.get(f.id, 0.0) for f in facts], dtype=np.float64)

        # Every candidate's episode, or none: one in no episode is its own context (see `score`).
        episodes = {f.id: f.episode for f in facts if f.episode is not None}

        def feedback(records: Sequence[Facts], relevance: np.ndarray) -> np.ndarray:
            """Pseudo-relevance feedback (Rocchio): the memories whose own content matches the query best stand
            for what it means, and every candidate's cosine is to the query moved toward them. Importance,
            recency and episode context say what to show, not what was meant: they pick none."""
            # A document counts once among them (by its best passage): several passages of one long text moved
            # the query toward that text, and its other passages then outranked short memories that answered.
            best: list[str] = []
            seen: set[str] = set()
            for i in np.argsort(-relevance, kind="stable").tolist():
                if len(best) == settings.feedback_docs:
                    break
                whole = records[i].parent or records[i].id
                if whole not in seen:
                    seen.add(whole)
                    best.append(records[i].id)
            top = [vectors[i] for i in best if i in vectors]
            return cosines(feedback_query(qvec, top, settings.feedback_weight))

        to_query = cosines(qvec)
        wanted = settings.feedback_docs > 0 and settings.feedback_weight > 0
        bm25 = np.array([by_text.get(f.id, 0.0) for f in facts], dtype=np.float64)
        ranked = score(
            Pool(facts, to_query, bm25),
            asked.known,
            profile,
            self._decay,
            query.now,
            beside,
            episodes,
            feedback if wanted else None,
            query.period if profile.time else None,
            asked.unseen,
            asked.alternates,
            asked.topic,
            asked.standins,
            contained,
            self._openings(query, facts),
        )
        return ranked, vectors, beside

    def _openings(self, query: Query, facts: Sequence[Facts]) -> dict[str, str]:
        """For each passage among `facts`, the names of the question its document's opening says
        (engram.recall.passages): one read of the documents, only for a question naming someone or something
        with a passage among its candidates."""
        names = names_asked(query.search)
        documents = sorted({f.parent for f in facts if f.parent is not None}) if names else []
        if not documents:
            return {}
        # a character past the opening, so that `opening` still cuts the last word short of its end
        said = {d: stems(opening(text)) for d, text in self._store.openings(documents, OPENING + 1).items()}
        heads = {d: " ".join(n for n in names if stems(n) <= held) for d, held in said.items()}
        return {f.id: head for f in facts if f.parent is not None and (head := heads.get(f.parent, ""))}

    def _as_said(self, query: Query, facts: Sequence[Facts], qvec: Vector) -> Vector:
        """The query's vector, or, when it names a speaker of the candidate turns ("what does Melanie paint?"
        over turns written "Melanie: ..."), mostly the vector of the question without that name: who said a turn
        is the speaker step's to weigh (engram.recall.speakers). Only such a question pays for a second
        embedding."""
        names = names_asked(query.search)
        if not names:
            return qvec
        spoken = spoken_names([f.content for f in facts], names)
        rest = without_names(query.search, spoken) if spoken else ""
        if not rest or rest == query.search:
            return qvec
        return as_said(self._embedder.embed_batch([rest])[0], qvec)

    def _term_weights(
        self, query: Query, expansions: Sequence[str], statistics: tuple[int, dict[str, int]] | None = None
    ) -> QueryTerms:
        """The weights of the query's words, from `statistics` (those of `weighed_stems`) if read already."""
        own = list(query.stems)
        others = _others(own, expansions)
        wholes = {said: stem(whole) for said, whole in query.spellings}
        standins = _standins(query)
        total, frequencies = statistics or self._store.document_frequencies(weighed_stems(query, expansions))
        for said, whole in wholes.items():
            # The store writes it as one word ("email" for "e-mail"): that word is the question's, not its parts;
            # two longer words only if the store never says one of them ("epi pen", not "road trip").
            parts = stems(said.replace("-", " "))
            split = "-" not in said and min(map(len, said.split())) > 2
            if frequencies.get(whole, 0) > 0 and not (split and all(frequencies.get(p, 0) for p in parts)):
                own = [s for s in own if s not in parts] + ([whole] if whole not in own else [])
        # A word no memory contains cannot tell memories apart; counting it would only shrink every overlap. It
        # still tells how much of the question a memory answers (the `coverage` the relevance floor reads).
        # A word said otherwise counts as often as it or its most frequent other word is found (a memory that says
        # dad says father); an other word is found where each of its words is.
        found = {
            s: max(
                [frequencies.get(s, 0)]
                + [min(_frequency(frequencies, w) for w in alt) for alt in standins.get(s, ()) if alt]
            )
            for s in own
        }
        known = {s: idf(total, n) for s in own if (n := found[s]) > 0}
        unseen = {s: idf(total, 0) for s in own if not found[s]}
        topic = None
        if query.topic_stems:
            untimed = set(query.topic_stems) | (set(own) - set(query.stems))  # a whole word found stays
            topic = (
                {s: w for s, w in known.items() if s in untimed},
                sum(w for s, w in unseen.items() if s in untimed),
            )
        return QueryTerms(
            known=known,
            unseen=sum(unseen.values()),
            alternates={s: idf(total, n) for s in others if (n := frequencies.get(s, 0)) > 0},
            topic=topic,
            standins={s: tuple(a for a in alts if a) for s, alts in standins.items() if s in known},
        )
