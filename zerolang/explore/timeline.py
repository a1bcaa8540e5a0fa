"""A concept's facts over time as an SVG drawing (no script): world time against store time.

Each fact has two lanes on one time axis: **world** (when the fact held: each period believed now,
`valid_from` .. `valid_to`, open-ended to the right edge) and **store** (when the store believed
each period, `recorded_at` .. `closed_at`; a belief closed since is drawn faded). A tombstone is a
red line across every lane at the time it was made.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from zerolang.explore.markup import Html, html, join
from zerolang.knowledge.backend import TombstoneRow
from zerolang.knowledge.history import HistoryEntry
from zerolang.util.times import parse_time

WIDTH, LEFT, RIGHT = 760, 170, 20
LANE, GAP, TOP = 14, 10, 24


def _times(entries: Sequence[HistoryEntry], stones: Sequence[TombstoneRow]) -> list[float]:
    found: list[float] = []
    for entry in entries:
        for period in entry.periods:
            for moment in (period.valid_from, period.valid_to, period.recorded_at, period.closed_at):
                if moment:
                    found.append(_seconds(moment))
    found += [_seconds(stone.created_at) for stone in stones]
    return [moment for moment in found if moment == moment]  # not NaN


def _seconds(text: str) -> float:
    try:
        return parse_time(text)
    except ValueError:
        return float("nan")


def timeline(entries: Sequence[HistoryEntry], stones: Sequence[TombstoneRow], now: str) -> Html:
    """The drawing, or a sentence when there is nothing to draw."""
    moments = _times(entries, stones)
    if not entries or not moments:
        return html("<p class=muted>no facts to draw</p>")
    start, end = min(moments), max([*moments, _seconds(now)])
    span = max(end - start, 1.0)

    def x(moment: str | None) -> float:
        value = _seconds(moment) if moment else end
        return LEFT + (WIDTH - LEFT - RIGHT) * ((value if value == value else end) - start) / span

    rows: list[Html] = []
    y = TOP
    for entry in entries:
        rows.append(html('<text class=fact x="4" y="{}">{}</text>', y + LANE + 2, _short(entry.text)))
        rows.append(html('<text class=lane x="{}" y="{}">world</text>', LEFT - 40, y + LANE - 3))
        rows.append(html('<text class=lane x="{}" y="{}">store</text>', LEFT - 40, y + 2 * LANE - 1))
        for period in entry.current:
            rows.append(
                _bar("valid", x(period.valid_from), x(period.valid_to), y, _valid_title(entry, period))
            )
        for period in entry.periods:
            kind = "believed" if period.closed_at is None else "believed closed"
            title = f"{entry.text}: known {period.recorded_at} .. {period.closed_at or 'now'}"
            rows.append(_bar(kind, x(period.recorded_at), x(period.closed_at), y + LANE, title))
        y += 2 * LANE + GAP
    marks = [
        html(
            '<line class=tombstone x1="{x}" x2="{x}" y1="{top}" y2="{bottom}"><title>{title}</title></line>',
            x=f"{x(stone.created_at):.1f}",
            top=TOP - 6,
            bottom=y,
            title=f"tombstone {stone.hash.hex()[:12]}: forgot {stone.kind} {stone.target or '(purged)'}",
        )
        for stone in stones
    ]
    axis = html(
        '<text class=axis x="{}" y="14">{}</text><text class=axis x="{}" y="14" text-anchor="end">{}</text>',
        LEFT,
        _day(start),
        WIDTH - RIGHT,
        _day(end),
    )
    return html(
        '<svg class=timeline role=img aria-label="facts over time" width="{w}" height="{h}"'
        ' viewBox="0 0 {w} {h}">{axis}{rows}{marks}</svg>',
        w=WIDTH,
        h=y + 6,
        axis=axis,
        rows=join(rows),
        marks=join(marks),
    )


def _bar(kind: str, left: float, right: float, y: int, title: str) -> Html:
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
    return f"{entry.text}: valid {valid_from} .. {valid_to or 'open'}{tail}"


def _short(text: str, limit: int = 26) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _day(moment: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M")


def legend() -> Iterable[Html]:
    yield html("<span class='key valid'></span> valid (world time)")
    yield html("<span class='key believed'></span> believed by the store")
    yield html("<span class='key closed'></span> a belief closed since")
    yield html("<span class='key stone'></span> a tombstone")
