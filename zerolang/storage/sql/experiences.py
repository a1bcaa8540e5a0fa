"""The experience store (`zerolang.experience.store.ExperienceStore`) in the shared SQL: tables `exp_*`.

The only SQL for experiences. It runs on an experience database (`database.SqlDatabase`).
Recall's full text is the store's own, the same on every engine: each experience's terms
(`zerolang.experience.words.index_terms`) in `exp_term`, with how often its `what` and `who`
say them, and their numbers in `exp_length`, both by the experience's `seq`;
`zerolang.experience.ranking` scores them. The engines' own full-text indexes of experiences
(FTS5, `tsvector`s) are kept no more (experience schema 3). Every write is one transaction.

Rows are named by their hashes (the public ids), each kept once, in its row; turns, experiences
and concepts are also numbered (`seq`, unique across spaces), and an experience names its turn, an
edge its ends, by those numbers (experience schema 3, `zerolang.storage.schema.experience_tables`).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from contextlib import nullcontext
from operator import itemgetter
from typing import Protocol

from zerolang.experience.forgotten import PURGED, Forgotten, without_forgotten
from zerolang.experience.model import (
    AFFECTS,
    Added,
    CaptureBatch,
    EdgeKind,
    Experience,
    Layer,
    Posting,
    SessionRow,
    TermTotals,
)
from zerolang.experience.words import counted_terms
from zerolang.storage.errors import translating
from zerolang.storage.schema import EDGE_ENDS, EDGE_KINDS, EDGE_SPACED, EXPERIENCES, SPACE, TERMS_SPACED
from zerolang.storage.sql.database import DatabaseStore, SqlDatabase
from zerolang.storage.sql.statements import Row
from zerolang.util.spaces import DEFAULT_SPACE

_COLUMNS = "e.id, e.layer, e.who, e.what, e.at, s.id, t.id, t.position, e.ordinal, e.affect, e.sources"
_TURNS = "exp_turn t JOIN exp_session s ON s.seq = t.session"  # a turn with its session's name
_EXPERIENCES = (  # an experience with its turn's names
    "exp_experience e JOIN exp_turn t ON t.seq = e.turn JOIN exp_session s ON s.seq = t.session"
)
_MENTIONS, _SIBLING, _NEXT = EDGE_KINDS["mentions"], EDGE_KINDS["sibling"], EDGE_KINDS["next"]
_MENTIONS_EDGE, _NEXT_EDGE = EdgeKind.MENTIONS, EdgeKind.NEXT  # read off the enum once, not per edge
_json_sorted = json.JSONEncoder(sort_keys=True).encode  # what `json.dumps(..., sort_keys=True)` writes
_AFFECT_KEYS = {affect: f'"{affect}": ' for affect in AFFECTS}  # each affect as `_json_sorted` writes a key
_float_text = float.__repr__  # what json writes a finite float as (a TypeError for anything else)


def affect_json(affect: Mapping[str, float]) -> str:
    """`_json_sorted(affect)`, written directly for what extractors give (the affects' names, each with
    a finite float): the encoder `_json_sorted` builds for every call took 1.5 us an experience.
    Anything else (another key, an int, a NaN) goes through `_json_sorted`."""
    try:
        text = ", ".join([_AFFECT_KEYS[key] + _float_text(value) for key, value in sorted(affect.items())])
    except (KeyError, TypeError):
        return _json_sorted(affect)
    if "n" in text:  # `nan` or `inf` (the keys are upper case): json writes `NaN`, `Infinity`
        return _json_sorted(affect)
    return "{" + text + "}"


_EDGE_KEY = "src, kind, dst, weight"  # a key met twice in a batch keeps its least weight (sorted rows)
BULK_TURNS = 4_000  # a capture of at least this many turns (and the store's number) builds indexes once
CAPTURE_CACHE_KIB = 64 * 1024  # and has this page cache: the indexes keyed by hashes of 50 MB of transcript
Counted = Mapping[int, tuple[dict[str, int], int]]  # `words.counted_terms` of experiences, by `seq`
_COUNTED = (("turns", "exp_turn"), ("experiences", "exp_experience"), ("concepts", "exp_concept"))
# A space's edges are those whose source is of the space (an edge's row may name no space: EDGE_SPACED).
_EDGES_COUNTED = " + ".join(
    f"(SELECT count(*) FROM exp_edge g JOIN {ends[0]} a ON a.seq = g.src"
    f" WHERE a.space = ? AND g.kind = {EDGE_KINDS[kind]})"
    for kind, ends in EDGE_ENDS.items()
)


class ExperienceText(Protocol):
    """What an engine adds to the experience store: nothing since schema 3. Recall ranks the store's
    own postings (`exp_term`, `exp_length`), the same on every engine; the engines' own full text
    of experiences is kept no more."""


@translating
class SqlExperienceStore(DatabaseStore[ExperienceText]):
    """An experience store on an experience database (closing it closes the database)."""

    __slots__ = ()

    def __init__(self, db: SqlDatabase, text: ExperienceText, *, space: str = DEFAULT_SPACE) -> None:
        super().__init__(db, text, space=space)
        self.index_missing()

    # ---- writing ----------------------------------------------------------------------------

    def add(self, batch: CaptureBatch) -> Added:
        """One transaction of a few batched statements, whatever the batch's size: the turns and
        experiences the store does not hold yet are found by indexed `IN` look-ups and inserted with
        one `executemany` each, as are concepts and edges; the new experiences are indexed by one
        statement, and each new turn's full text is made from the batch (its layers are all new)."""
        return self.add_all([batch])

    def add_all(self, batches: Iterable[CaptureBatch], *, expected_turns: int = 0) -> Added:
        """Every batch in one transaction, each written as it comes: a generator may build the next
        after the last is stored, so a long transcript is never held as records all at once. When
        `expected_turns` (what the batches will hold, if the caller knows) is at least the store's own,
        the edges' second index is made once at the end (`index_deferred`: sorted, its pages full, where
        edges taken one concept at a time would leave them half full); if it is also at least
        `BULK_TURNS`, the write has a larger page cache (`roomy_cache`: the indexes by id take rows at
        random pages, each read back once the cache is full). Each batch's edges go in in key order:
        keyed by numbers, new ones above the held ones, they mostly go at the end of the table."""
        added = Added()
        large = expected_turns >= BULK_TURNS
        with self.db.roomy_cache(CAPTURE_CACHE_KIB) if large else nullcontext(), self.db.transaction():
            blocked = Forgotten.of(self.purged_terms())
            deferred = expected_turns > 0 and self._turn_count(expected_turns + 1) <= expected_turns
            with self.db.index_deferred(EXPERIENCES, "exp_edge_dst") if deferred else nullcontext():
                for batch in batches:
                    added = added + self._add(batch, blocked)
        return added

    def _turn_count(self, limit: int) -> int:
        """How many turns the store holds, counted up to `limit` (a look at as many rows at most)."""
        return int(
            self.db.rows(
                "SELECT count(*) FROM (SELECT 1 FROM exp_turn WHERE space = ? LIMIT ?) AS held",
                (self.space, limit),
            )[0][0]
        )

    def _add(self, batch: CaptureBatch, blocked: Forgotten) -> Added:
        """Write one batch."""
        db = self.db
        batch, forgotten = without_forgotten(batch, blocked)
        turns = {turn.id: turn for turn in batch.turns}
        held_turns = self.known_turns(list(turns))
        new_turns = [turn for ident, turn in turns.items() if ident not in held_turns]
        space = self.space
        named = sorted({turn.session for turn in new_turns})
        db.insert_rows(
            "exp_session (id, space)",
            [(session, space) for session in named],
            skip_held=True,
        )
        sessions = self._numbers("exp_session", named)
        db.insert_rows(
            "exp_turn (id, session, position, key, at, space)",
            [
                (turn.id, sessions[turn.session], turn.position, turn.key, turn.when, space)
                for turn in new_turns
            ],
            skip_held=True,
        )
        before = {edge.src for edge in batch.edges if edge.kind is _NEXT_EDGE}  # a turn of an earlier batch
        turn_seqs = self._numbers("exp_turn", [*turns, *(before - turns.keys())])
        items = {item.id: item for item in batch.experiences}
        # an experience's id names its turn: one of a turn the store lacks is not held either
        seqs = self._numbers(
            "exp_experience", [ident for ident, item in items.items() if item.turn in held_turns]
        )
        fresh = [item for ident, item in items.items() if ident not in seqs]
        last = db.one("SELECT max(seq) FROM exp_experience") if fresh else None
        db.insert_rows(
            "exp_experience (id, layer, who, what, at, turn, ordinal, affect, sources, space)",
            [
                (
                    item.id,
                    str(item.layer),
                    item.who,
                    item.what,
                    item.when,
                    turn_seqs[item.turn],
                    item.ordinal,
                    affect_json(item.affect) if item.affect else "{}",
                    json.dumps(list(item.sources)) if item.sources else "[]",
                    space,
                )
                for item in fresh
            ],
            skip_held=True,
        )
        if last is not None:
            after = int(last[0] or 0)
            numbered = {
                str(ident): int(seq)
                for ident, seq in db.rows("SELECT id, seq FROM exp_experience WHERE seq > ?", (after,))
            }
            seqs.update(numbered)
            known = batch.terms
            self._index_terms(
                ((seq, items[ident].who, items[ident].what) for ident, seq in numbered.items()),
                {seq: known[ident] for ident, seq in numbered.items() if ident in known},
            )
        concepts = db.insert_rows(
            "exp_concept (id, label, space)",
            [(concept.id, concept.label, space) for concept in batch.concepts],
            skip_held=True,
        )
        concept_seqs = self._numbers(
            "exp_concept", list({edge.dst for edge in batch.edges if edge.kind is _MENTIONS_EDGE})
        )
        ends = {
            EdgeKind.MENTIONS: (seqs.get, concept_seqs.get, EDGE_KINDS[EdgeKind.MENTIONS]),
            EdgeKind.SIBLING: (seqs.get, seqs.get, EDGE_KINDS[EdgeKind.SIBLING]),
            EdgeKind.NEXT: (turn_seqs.get, turn_seqs.get, EDGE_KINDS[EdgeKind.NEXT]),
        }
        spaced = (space,) if EDGE_SPACED[db.dialect] else ()
        rows = []
        for edge in batch.edges:
            sources, targets, kind = ends[edge.kind]
            src, dst = sources(edge.src), targets(edge.dst)
            if src is not None and dst is not None:  # both ends stored (none left out as forgotten)
                rows.append(
                    (src, kind, dst, edge.weight, *spaced) if spaced else (src, kind, dst, edge.weight)
                )
        edges = db.insert_rows(  # in key order: each index page is visited once, not once per row
            f"exp_edge ({self._edge_columns()})", sorted(rows), skip_held=True
        )
        for transcript, state in batch.cursors:
            self._keep_cursor(transcript, state)
        return Added(len(new_turns), len(fresh), concepts, edges, forgotten)

    def _edge_columns(self) -> str:
        return _EDGE_KEY + (f", {SPACE}" if EDGE_SPACED[self.db.dialect] else "")

    def _numbers(self, table: str, ids: Collection[str]) -> dict[str, int]:
        """The `seq` of each of `ids` that `table` holds in the store's space."""
        return {
            str(ident): int(seq) for ident, seq in self._rows_in(f"SELECT id, seq FROM {table}", "id", ids)
        }

    def _index_terms(
        self,
        rows: Iterable[tuple[int, str, str]],
        counted: Mapping[int, tuple[dict[str, int], int]] | None = None,
    ) -> None:
        """Recall's full text of the store's experiences `(seq, who, what)` (`index_terms`); `counted`:
        the `counted_terms` of some `what`s, by `seq`, as capture built them."""
        space = self.space
        index_terms_of(self.db, ((seq, who, what, space) for seq, who, what in rows), counted)

    def _unindex_terms(self, seq: int, who: str, what: str) -> None:
        self.db.run_many(  # a posting's space is its experience's (`seq`)
            "DELETE FROM exp_term WHERE term = ? AND seq = ?",
            [(term, seq) for term in sorted({*counted_terms(what)[0], *counted_terms(who)[0]})],
        )
        self.db.run("DELETE FROM exp_length WHERE space = ? AND seq = ?", (self.space, seq))

    def index_missing(self) -> int:
        """Index in recall's full text the experiences of the space it lacks (a store made before
        `exp_term`, or rows another store moved in): those after the last it holds. How many."""
        if not self.db.has_table("exp_length"):  # a tenant role opens what the owner has not upgraded yet
            return 0
        top = self.db.one("SELECT max(seq) FROM exp_length WHERE space = ?", (self.space,))
        after = -1 if top is None or top[0] is None else int(top[0])
        rows = self.db.rows(
            "SELECT seq, who, what FROM exp_experience WHERE space = ? AND seq > ? ORDER BY seq",
            (self.space, after),
        )
        if rows:
            with self.db.transaction():
                self._index_terms((int(seq), str(who), str(what)) for seq, who, what in rows)
        return len(rows)

    def _keep_cursor(self, transcript: str, state: str | None) -> None:
        if state is None:
            self.db.run("DELETE FROM exp_cursor WHERE space = ? AND transcript = ?", (self.space, transcript))
        else:
            self.db.run(
                "INSERT INTO exp_cursor (transcript, state, space) VALUES (?, ?, ?)"
                " ON CONFLICT (space, transcript) DO UPDATE SET state = excluded.state",
                (transcript, state, self.space),
            )

    # ---- reading ----------------------------------------------------------------------------

    def postings(self, terms: Collection[str]) -> list[Posting]:
        rows = [
            row
            for condition, values in self.db.in_list("t.term", sorted(terms))
            for row in self.db.rows(
                "SELECT e.id, u.id, t.term, t.what, t.who, l.what, l.who FROM exp_term t"
                " JOIN exp_length l ON l.seq = t.seq JOIN exp_experience e ON e.seq = t.seq"
                " JOIN exp_turn u ON u.seq = e.turn"
                f" WHERE l.space = ? AND {condition}",
                [self.space, *values],
            )
        ]
        return [
            Posting(str(ident), str(turn), str(term), int(what), int(who), int(length), int(by))
            for ident, turn, term, what, who, length, by in rows
        ]

    def term_totals(self) -> TermTotals:
        row = self.db.one(
            "SELECT count(*), coalesce(sum(what), 0), coalesce(sum(who), 0) FROM exp_length WHERE space = ?",
            (self.space,),
        )
        turns = self.db.one("SELECT count(*) FROM exp_turn WHERE space = ?", (self.space,))
        experiences, what, who = row if row is not None else (0, 0, 0)
        return TermTotals(int(experiences), int(turns[0]) if turns else 0, int(what), int(who))

    def turn_lengths(self, turn_ids: Collection[str]) -> dict[str, int]:
        rows = [
            row
            for condition, values in self.db.in_list("u.id", sorted(turn_ids))
            for row in self.db.rows(
                "SELECT u.id, sum(l.what) FROM exp_turn u JOIN exp_experience e ON e.turn = u.seq"
                " JOIN exp_length l ON l.space = u.space AND l.seq = e.seq"
                f" WHERE u.space = ? AND {condition} GROUP BY u.id",
                [self.space, *values],
            )
        ]
        return {str(turn): int(length) for turn, length in rows}

    def _rows_in(
        self, sql: str, column: str, keys: Collection[str], tail: str = "", *, space: str = "space"
    ) -> list[Row]:
        """`sql` WHERE the row is of the store's space (`space`: the column naming it) and `column` is
        one of `keys`, then `tail`: over as many slices as the engine takes."""
        if not keys:
            return []
        return [
            row
            for condition, values in self.db.in_list(column, list(keys))
            for row in self.db.rows(f"{sql} WHERE {space} = ? AND {condition}{tail}", [self.space, *values])
        ]

    def _sorted_in(self, sql: str, column: str, keys: Collection[str], order: tuple[int, int]) -> list[Row]:
        """`_rows_in` (`column` of a joined table, whose `space` is `column`'s table's), each slice's rows
        by the two columns `order` names (hashes): the order of schema 2, which its indexes by hashes gave."""
        table = column.split(".")[0]
        first, second = order
        if not keys:
            return []
        return [
            row
            for condition, values in self.db.in_list(column, list(keys))
            for row in sorted(
                self.db.rows(f"{sql} WHERE {table}.space = ? AND {condition}", [self.space, *values]),
                key=lambda row: (str(row[first]), str(row[second])),
            )
        ]

    def experiences(self, ids: Collection[str]) -> dict[str, Experience]:
        rows = self._rows_in(f"SELECT {_COLUMNS} FROM {_EXPERIENCES}", "e.id", ids, space="e.space")
        return {str(row[0]): _experience(row) for row in rows}

    def experiences_of_turns(self, turn_ids: Collection[str]) -> list[Experience]:
        rows = self._rows_in(
            f"SELECT {_COLUMNS} FROM {_EXPERIENCES}", "t.id", turn_ids, " ORDER BY e.seq", space="t.space"
        )
        return [_experience(row) for row in rows]

    def neighbour_turns(self, turn_ids: Collection[str]) -> list[tuple[str, str]]:
        ids = list(turn_ids)
        out: list[tuple[str, str]] = []
        if not ids:
            return out
        following = (
            f"SELECT a.id, b.id FROM exp_turn a JOIN exp_edge g ON g.src = a.seq AND g.kind = {_NEXT}"
            " JOIN exp_turn b ON b.seq = g.dst"
        )
        preceding = (
            f"SELECT a.id, b.id FROM exp_turn a JOIN exp_edge g ON g.dst = a.seq AND g.kind = {_NEXT}"
            " JOIN exp_turn b ON b.seq = g.src"
        )
        for (sources, of_sources), (targets, of_targets) in zip(
            self.db.in_list("a.id", ids), self.db.in_list("a.id", ids), strict=True
        ):
            after = self.db.rows(f"{following} WHERE a.space = ? AND {sources}", [self.space, *of_sources])
            earlier = self.db.rows(f"{preceding} WHERE a.space = ? AND {targets}", [self.space, *of_targets])
            out.extend((str(turn), str(other)) for turn, other in sorted(after))
            out.extend(
                (str(turn), str(other)) for turn, other in sorted(earlier, key=lambda row: (row[1], row[0]))
            )
        return out

    def mentions_of(self, experience_ids: Collection[str]) -> list[tuple[str, str, float]]:
        rows = self._sorted_in(
            "SELECT e.id, c.id, g.weight FROM exp_experience e"
            f" JOIN exp_edge g ON g.src = e.seq AND g.kind = {_MENTIONS} JOIN exp_concept c ON c.seq = g.dst",
            "e.id",
            experience_ids,
            (0, 1),
        )
        return [(str(src), str(dst), float(weight)) for src, dst, weight in rows]

    def mentioning(self, concept_ids: Collection[str]) -> list[tuple[str, str]]:
        rows = self._sorted_in(
            f"SELECT e.id, c.id FROM exp_concept c JOIN exp_edge g ON g.dst = c.seq AND g.kind = {_MENTIONS}"
            " JOIN exp_experience e ON e.seq = g.src",
            "c.id",
            concept_ids,
            (1, 0),
        )
        return [(str(src), str(dst)) for src, dst in rows]

    def concept_frequency(self, concept_ids: Collection[str]) -> dict[str, int]:
        rows = self._rows_in(
            "SELECT c.id, count(*) FROM exp_concept c"
            f" JOIN exp_edge g ON g.dst = c.seq AND g.kind = {_MENTIONS}",
            "c.id",
            concept_ids,
            " GROUP BY c.id",
            space="c.space",
        )
        return {str(ident): int(count) for ident, count in rows}

    def concept_labels(self, concept_ids: Collection[str]) -> dict[str, str]:
        rows = self._rows_in("SELECT id, label FROM exp_concept", "id", concept_ids)
        return {str(ident): str(label) for ident, label in rows}

    def last_turn(self, session: str) -> tuple[str, int] | None:
        row = self.db.one(
            f"SELECT t.id, t.position FROM {_TURNS} WHERE s.space = ? AND s.id = ?"
            " ORDER BY t.position DESC LIMIT 1",
            (self.space, session),
        )
        return None if row is None else (str(row[0]), int(row[1]))

    def cursor(self, transcript: str) -> str | None:
        row = self.db.one(
            "SELECT state FROM exp_cursor WHERE space = ? AND transcript = ?", (self.space, transcript)
        )
        return None if row is None else str(row[0])

    def known_turns(self, ids: Collection[str]) -> set[str]:
        return {str(row[0]) for row in self._rows_in("SELECT id FROM exp_turn", "id", ids)}

    def sessions(self, after: str, limit: int) -> list[SessionRow]:
        latest = "coalesce(max(t.at), '')"  # no time sorts below every time: such sessions come last
        mark = (
            "(SELECT coalesce(max(u.at), '') FROM exp_turn u JOIN exp_session v ON v.seq = u.session"
            " WHERE v.space = ? AND v.id = ?)"
        )
        rows = self.db.rows(
            f"SELECT s.id, count(*), min(t.at), max(t.at) FROM {_TURNS} WHERE s.space = ? GROUP BY s.id"
            f" HAVING ? = '' OR {latest} < {mark} OR ({latest} = {mark} AND s.id > ?)"
            f" ORDER BY {latest} DESC, s.id LIMIT ?",
            (self.space, after, self.space, after, self.space, after, after, limit),
        )
        return [
            SessionRow(str(session), int(turns), _text_or_none(first), _text_or_none(last))
            for session, turns, first, last in rows
        ]

    def session_turns(self, session: str, after: int, limit: int) -> list[tuple[str, int]]:
        rows = self.db.rows(
            f"SELECT t.id, t.position FROM {_TURNS} WHERE s.space = ? AND s.id = ? AND t.position > ?"
            " ORDER BY t.position LIMIT ?",
            (self.space, session, after, limit),
        )
        return [(str(ident), int(position)) for ident, position in rows]

    def counts(self) -> dict[str, int]:
        counted = {
            name: int(self.db.rows(f"SELECT count(*) FROM {table} WHERE space = ?", (self.space,))[0][0])
            for name, table in _COUNTED
        }
        return {**counted, "edges": self._edge_count()}

    def _edge_count(self) -> int:
        """The space's edges: every edge where the database holds no other space (two index seeks tell;
        recall counts on every call), else those whose source is of the space."""
        others = self.db.rows(
            "SELECT 1 FROM (SELECT 1 FROM exp_turn WHERE space < ? UNION ALL"
            " SELECT 1 FROM exp_turn WHERE space > ?) AS other LIMIT 1",
            (self.space, self.space),
        )
        if not others:
            return int(self.db.rows("SELECT count(*) FROM exp_edge")[0][0])
        return int(self.db.rows(f"SELECT {_EDGES_COUNTED}", [self.space] * len(EDGE_ENDS))[0][0])

    # ---- forgetting (zerolang.experience.forgotten) ---------------------------------------------

    def forgotten_terms(self, tombstone: str | None = None) -> list[tuple[str, int]]:
        if tombstone is None:
            return blocked_terms(self.db, self.space)
        return blocked_terms(self.db, self.space, "tombstone = ?", (tombstone,))

    def purged_terms(self) -> list[tuple[str, int]]:
        """The terms purges blocked (`zerolang.experience.forgotten.PURGED`): capture stores none of
        what mentions them."""
        return purged_terms(self.db, self.space)

    def block_terms(self, tombstone: str, keys: Sequence[tuple[str, int]]) -> None:
        with self.db.transaction():
            self.db.run_many(
                "INSERT INTO exp_forgotten (tombstone, term, words, space) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                [(tombstone, term, words, self.space) for term, words in keys],
            )

    def lift_terms(self, tombstone: str) -> int:
        with self.db.transaction():
            return self.db.run(
                "DELETE FROM exp_forgotten WHERE space = ? AND tombstone = ?", (self.space, tombstone)
            )

    def erase_mentioning(self, forgotten: Forgotten) -> int:
        """Delete the experiences and concepts that mention a forgotten term (and concepts left unmentioned),
        their edges and full text, the turns left empty; then leave no freed storage holding the text."""
        if not forgotten:
            return 0
        db, space = self.db, self.space
        # an edge's ends are numbers of the tables its kind joins: each deletion names the kinds
        of_experience = (
            f"DELETE FROM exp_edge WHERE (src = ? AND kind IN ({_MENTIONS}, {_SIBLING}))"
            f" OR (dst = ? AND kind = {_SIBLING})"
        )
        with db.transaction():
            doomed, concepts = self._mentioning(forgotten)
            for _, seq, _, _, who, what in doomed:
                self._unindex_terms(seq, who, what)
                db.run("DELETE FROM exp_experience WHERE seq = ?", (seq,))
                db.run(of_experience, (seq, seq))
            for seq in concepts:
                db.run("DELETE FROM exp_concept WHERE seq = ?", (seq,))
                db.run(f"DELETE FROM exp_edge WHERE dst = ? AND kind = {_MENTIONS}", (seq,))
            for seq in sorted({number for _, _, _, number, _, _ in doomed}):
                if db.one("SELECT 1 FROM exp_experience WHERE turn = ? LIMIT 1", (seq,)):
                    continue
                db.run("DELETE FROM exp_turn WHERE seq = ?", (seq,))
                db.run(f"DELETE FROM exp_edge WHERE (src = ? OR dst = ?) AND kind = {_NEXT}", (seq, seq))
            orphans = db.run(
                "DELETE FROM exp_concept WHERE space = ? AND NOT EXISTS"
                f" (SELECT 1 FROM exp_edge WHERE dst = exp_concept.seq AND kind = {_MENTIONS})",
                (space,),
            )
            db.run(  # a session left without turns: its name goes too
                "DELETE FROM exp_session WHERE space = ? AND NOT EXISTS"
                " (SELECT 1 FROM exp_turn WHERE session = exp_session.seq)",
                (space,),
            )
        db.erase_freed()
        return len(doomed) + len(concepts) + orphans

    def count_mentioning(self, forgotten: Forgotten) -> int:
        """How many experiences and concepts mention a forgotten term (what `erase_mentioning` takes
        first), read only."""
        doomed, concepts = self._mentioning(forgotten) if forgotten else ([], [])
        return len(doomed) + len(concepts)

    def _mentioning(
        self, forgotten: Forgotten
    ) -> tuple[list[tuple[str, int, str, int, str, str]], list[int]]:
        """The experiences `(id, seq, turn id, turn seq, who, what)` and the concepts (`seq`s) of the
        space that mention a forgotten term."""
        db, space = self.db, self.space
        doomed = [
            (str(ident), int(seq), str(turn), int(number), str(who), str(what))
            for seq, ident, turn, number, who, what in db.rows(
                f"SELECT e.seq, e.id, t.id, t.seq, e.who, e.what FROM {_EXPERIENCES}"
                " WHERE e.space = ? ORDER BY e.seq",
                (space,),
            )
            if forgotten.mentions(str(who), str(what))
        ]
        concepts = [
            int(seq)
            for seq, label in db.rows("SELECT seq, label FROM exp_concept WHERE space = ?", (space,))
            if forgotten.mentions(str(label))
        ]
        return doomed, concepts


def index_terms_of(
    db: SqlDatabase,
    rows: Iterable[tuple[int, str, str, str]],
    counted: Counted | None = None,
) -> None:
    """Recall's full text of the experiences `(seq, who, what, space)`: their terms (`exp_term`,
    `words.index_terms`) and their lengths in words (`exp_length`, `words.lower_words`), in the
    caller's transaction (capture's, or a move's: `zerolang.storage.sqlite.absorb`). The postings go
    in by term, then `seq` (each index page visited once). `counted`: the `words.counted_terms` of
    some `what`s, by `seq`, where the caller has them (capture's batch)."""
    spaced = TERMS_SPACED[db.dialect]  # else a posting's space is its experience's
    terms: list[tuple[object, ...]] = []
    add = terms.append
    lengths: list[tuple[int, int, int, str]] = []
    speakers: dict[str, tuple[dict[str, int], int]] = {}  # a few speakers say every experience
    known = counted or {}
    for seq, who, what, space in sorted(rows, key=itemgetter(0)):
        said, length = known.get(seq) or counted_terms(what)
        by, by_length = speakers.get(who) or speakers.setdefault(who, counted_terms(who))
        if spaced:
            tail = (space,)
            if by and not said.keys().isdisjoint(by):  # a term its text and its speaker's name both say
                terms.extend(
                    [(term, seq, said.get(term, 0), by.get(term, 0), *tail) for term in {*said, *by}]
                )
            else:
                terms.extend([(term, seq, count, 0, *tail) for term, count in said.items()])
                terms.extend([(term, seq, 0, count, *tail) for term, count in by.items()])
        elif by and not said.keys().isdisjoint(by):  # the same rows without a space: no `*tail` to unpack
            terms.extend([(term, seq, said.get(term, 0), by.get(term, 0)) for term in {*said, *by}])
        else:  # loops, not comprehensions: each is a function call in Python 3.11, for a few rows
            for term, count in said.items():
                add((term, seq, count, 0))
            for term, count in by.items():
                add((term, seq, 0, count))
        lengths.append((seq, length, by_length, space))
    terms.sort(key=itemgetter(0))  # stable: by term, then `seq` (what sorting the rows whole gives)
    columns = "term, seq, what, who" + (", space" if spaced else "")
    db.insert_rows(f"exp_term ({columns})", terms, skip_held=True)
    db.insert_rows("exp_length (seq, what, who, space)", lengths, skip_held=True)


def _experience(row: Row) -> Experience:
    ident, layer, who, what, at, session, turn, position, ordinal, affect, sources = row
    return Experience(
        id=str(ident),
        layer=Layer(str(layer)),
        who=str(who),
        what=str(what),
        when=None if at is None else str(at),
        session=str(session),
        turn=str(turn),
        position=int(position),
        ordinal=int(ordinal),
        affect=json.loads(str(affect)),
        sources=tuple(json.loads(str(sources))),
    )


def blocked_terms(
    db: SqlDatabase, space: str, condition: str = "", args: Sequence[object] = ()
) -> list[tuple[str, int]]:
    """The distinct terms `exp_forgotten` blocks in `space` (those its rows where `condition` holds
    name), each with its number of words. The table is the experience store's; the conversation
    store in the same database reads it too."""
    where = f" AND {condition}" if condition else ""
    rows = db.rows(
        f"SELECT DISTINCT term, words FROM exp_forgotten WHERE space = ?{where} ORDER BY term", [space, *args]
    )
    return [(str(term), int(words)) for term, words in rows]


def purged_terms(db: SqlDatabase, space: str) -> list[tuple[str, int]]:
    """The terms purges blocked in `space` (`zerolang.experience.forgotten.PURGED`); none where the
    database holds no experience store yet."""
    if not db.has_table("exp_forgotten"):
        return []
    return blocked_terms(db, space, "tombstone LIKE ?", (f"%{PURGED}",))


def _text_or_none(value: object) -> str | None:
    return None if value is None or value == "" else str(value)
