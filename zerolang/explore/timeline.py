"""A concept's facts over time as an SVG drawing (no script): world time against store time.

Each fact has two lanes: **world** (when the fact held: each period believed now, `valid_from` ..
`valid_to`) and **store** (when the store believed each period, `recorded_at` .. `closed_at`; a
belief closed since is drawn faded). Each kind of lane has its own time axis, from its first to its
last moment, labelled at the top: what the world did over years and what the store learned within
seconds are both drawn at full width. Past the last moment a narrow band, not to scale, stands for
"since then, until now": a period or belief still open runs into it. A tombstone, made in store
time, is a red mark across the store lanes at the time it was made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from zerolang.explore.markup import Html, html, join
from zerolang.knowledge.history import HistoryEntry
from zerolang.memory import TombstoneRow
from zerolang.util.times import parse_time

WIDTH, LEFT, RIGHT = 760, 170, 20
OPEN = 44  # the band past an axis's last moment: still open, until now (not to scale)
PLOT = WIDTH - LEFT - RIGHT - OPEN
LANE, GAP, TOP = 14, 10, 40
DAY = 86400.0


@dataclass(frozen=True, slots=True)
class Axis:
    """One lane kind's time range, from `start` to `end` (POSIX seconds) across the drawing's width."""

    start: float
    end: float

    @staticmethod
    def over(moments: Sequence[float]) -> Axis:
        start, end = min(moments), max(moments)
        return Axis(start, max(end, start + 1.0))

    def x(self, moment: str | None) -> float:
        """Where a moment falls; None (still open) or one that cannot be read: the right edge, now."""
        value = _seconds(moment) if moment else float("nan")
        if value != value:  # NaN
            return WIDTH - RIGHT
        return LEFT + PLOT * (value - self.start) / (self.end - self.start)

    def label(self, moment: float) -> str:
        """A moment as the axis shows it: to the minute, to the second over less than a day."""
        from datetime import UTC, datetime

        shape = "%Y-%m-%d %H:%M:%S" if self.end - self.start < DAY else "%Y-%m-%d %H:%M"
        return datetime.fromtimestamp(moment, UTC).strftime(shape)


def _valid(entries: Sequence[HistoryEntry]) -> list[float]:
    return _read(m for e in entries for p in e.periods for m in (p.valid_from, p.valid_to))


def _known(entries: Sequence[HistoryEntry], stones: Sequence[TombstoneRow]) -> list[float]:
    found = [m for e in entries for p in e.periods for m in (p.recorded_at, p.closed_at)]
    return _read([*found, *(stone.created_at for stone in stones)])


def _read(moments: Iterable[str | None]) -> list[float]:
    found = [_seconds(moment) for moment in moments if moment]
    return [moment for moment in found if moment == moment]  # not NaN


def _seconds(text: str) -> float:
    try:
        return parse_time(text)
    except ValueError:
        return float("nan")


def timeline(entries: Sequence[HistoryEntry], stones: Sequence[TombstoneRow], now: str) -> Html:
    """The drawing, or a sentence when there is nothing to draw."""
    world, known = _valid(entries), _known(entries, stones)
    if not entries or not (world or known):
        return html("<p class=muted>no facts to draw</p>")
    lanes = Axis.over(world or known), Axis.over(known or world)
    rows: list[Html] = []
    y = TOP
    for entry in entries:
        rows.append(_entry(entry, stones, lanes, y))
        y += 2 * LANE + GAP
    return html(
        '<svg class=timeline role=img aria-label="facts over time: world time and store time"'
        ' width="{w}" height="{h}" viewBox="0 0 {w} {h}">{axes}{rows}'
        '<line class=open x1="{band}" x2="{band}" y1="{top}" y2="{h}"></line></svg>',
        w=WIDTH,
        h=y + 6,
        band=f"{LEFT + PLOT + 3:.1f}",
        top=TOP - 10,
        axes=join([_axis("world", lanes[0], 14, now), _axis("store", lanes[1], 28, now)]),
        rows=join(rows),
    )


def _axis(name: str, axis: Axis, y: int, now: str) -> Html:
    return html(
        '<text class="axis {name}" x="{lane}" y="{y}">{name}</text>'
        '<text class="axis {name}" x="{left}" y="{y}">{start}</text>'
        '<text class="axis {name}" x="{last}" y="{y}" text-anchor="end">{end}</text>'
        '<text class="axis {name} now" x="{right}" y="{y}" text-anchor="end">now<title>{now}</title></text>',
        name=name,
        lane=LEFT - 40,
        left=LEFT,
        last=LEFT + PLOT,
        right=WIDTH - RIGHT,
        y=y,
        start=axis.label(axis.start),
        end=axis.label(axis.end),
        now=f"now: {now}; past the dashed line, not to scale",
    )


def _entry(entry: HistoryEntry, stones: Sequence[TombstoneRow], lanes: tuple[Axis, Axis], y: int) -> Html:
    world, store = lanes
    parts = [
        html('<text class=fact x="4" y="{}">{}</text>', y + LANE + 2, _short(entry.text)),
        html('<text class=lane x="{}" y="{}">world</text>', LEFT - 40, y + LANE - 3),
        html('<text class=lane x="{}" y="{}">store</text>', LEFT - 40, y + 2 * LANE - 1),
    ]
    for period in entry.current:
        parts.append(
            _bar("valid", world.x, period.valid_from, period.valid_to, y, _valid_title(entry, period))
        )
    for period in entry.periods:
        kind = "believed" if period.closed_at is None else "believed closed"
        title = f"{entry.text}: known {period.recorded_at} .. {period.closed_at or 'now'}"
        parts.append(_bar(kind, store.x, period.recorded_at, period.closed_at, y + LANE, title))
    for stone in stones:
        parts.append(
            html(
                '<line class=tombstone x1="{x}" x2="{x}" y1="{top}" y2="{bottom}">'
                "<title>{title}</title></line>",
                x=f"{store.x(stone.created_at):.1f}",
                top=y + LANE,
                bottom=y + 2 * LANE + 2,
                title=f"tombstone {stone.hash.hex()[:12]}: forgot {stone.kind} {stone.target or '(purged)'}",
            )
        )
    return join(parts)


def _bar(
    kind: str, x: Callable[[str | None], float], start: str | None, end: str | None, y: int, title: str
) -> Html:
    left, right = x(start), x(end)
    return html(
        '<rect class="{}" x="{}" y="{}" width="{}" height="{}" rx="2"><title>{}</title></rect>',
        kind,
        f"{left:.1f}",
        y + 2,
        f"{max(right - left, 2.0):.1f}",
        LANE - 3,
        title,
    )


def _valid_title(entry: HistoryEntry, period: object) -> str:
    valid_from = getattr(period, "valid_from", "")
    valid_to = getattr(period, "valid_to", None)
    ended = getattr(period, "ended_by", None)
    tail = f", ended by {ended}" if ended not in (None, "stated") else ""
    return f"{entry.text}: valid {valid_from or '-'} .. {valid_to or 'now'}{tail}"


def _short(text: str, limit: int = 26) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def legend() -> Iterable[Html]:
    yield html("<span class='key valid'></span> valid (world time)")
    yield html("<span class='key believed'></span> believed by the store")
    yield html("<span class='key closed'></span> a belief closed since")
    yield html("<span class='key stone'></span> a tombstone")
