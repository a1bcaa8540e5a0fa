"""Dates in conversations: when a turn was said, what its relative dates mean, what time a question asks.

Transcripts carry when each message was sent (`Experience.when`: an ISO timestamp, or written out
as in `1:56 pm on 8 May, 2023`); `parse_date` reads either. What a turn says happened
"yesterday", "last Saturday", "two weeks ago" or "last year" is resolved against that date
(`spoken_spans`), and a question that names a time ("in May 2023", "on 8th December, 2023",
"the week before 16 November 2023", "the second week of November", "between August 11 and
August 15 2023") asks about a `Span` of days (`asked_span`). A date written without its year
("in June") matches that part of every year. Everything here is a pure function of its text.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache

ANY_YEAR = 2000
"""A span without a year is kept in this (leap) year, and compared by month and day only."""

_MONTHS = {name.lower(): number for number, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): number for number, name in enumerate(calendar.month_abbr) if name}
_MONTHS["sept"] = 9
_MONTH = r"(?P<{0}>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{0}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<{0}>(?:19|20)\d\d)"
_DAYS = {name.lower(): number for number, name in enumerate(calendar.day_name)}

_DATE = re.compile(
    r"\b(?:"
    + r"(?P<iso>(?:19|20)\d\d-[01]\d(?:-[0-3]\d)?)(?![\d-])|"
    + _DAY.format("d1") + r"\s+(?:of\s+)?" + _MONTH.format("m1") + r"(?:,?\s*" + _YEAR.format("y1") + r")?"
    + r"|" + _MONTH.format("m2") + r"\s+" + _DAY.format("d2") + r"\b(?:,?\s*" + _YEAR.format("y2") + r")?"
    + r"|" + _MONTH.format("m3") + r"(?:,?\s*" + _YEAR.format("y3") + r")?"
    + r"|(?:the\s+year\s+)?" + _YEAR.format("y4")
    + r")\b",
    re.IGNORECASE,
)  # fmt: skip

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple": 2, "few": 3, "several": 3,
}  # fmt: skip
_COUNT = r"(?P<n>\d{1,2}|" + "|".join(_NUMBERS) + r")"
_UNIT = r"(?P<unit>day|week|month|year)s?"
_AGO = re.compile(r"\b" + _COUNT + r"(?:\s+of)?\s+" + _UNIT + r"\s+ago\b", re.IGNORECASE)
_IN = re.compile(r"\bin\s+(?:a\s+)?" + _COUNT + r"(?:\s+of)?\s+" + _UNIT + r"\b", re.IGNORECASE)
_WHICH = re.compile(
    r"\b(?P<which>last|previous|this|next|past|coming)\s+(?P<what>week(?:end)?|month|year|"
    + "|".join(_DAYS)
    + r")\b",
    re.IGNORECASE,
)
_DAYWORD = re.compile(
    r"\b(?P<word>yesterday|today|tonight|tomorrow|this\s+(?:morning|afternoon|evening)|last\s+night)\b",
    re.IGNORECASE,
)
_TAIL = re.compile(r"\s+and\s+" + _DAY.format("d") + r"(?:,?\s*" + _YEAR.format("y") + r")?")
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_PART = re.compile(
    r"\b(?:the\s+)?(?:(?P<nth>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+week\s+of"
    r"|(?P<early>beginning|start|early)(?:\s+of)?|(?P<mid>middle|mid)(?:\s+of|-)?|(?P<late>end|late)(?:\s+of)?"
    r"|(?P<season>spring|summer|autumn|fall|winter)(?:\s+of)?|(?P<quarter>q[1-4])"
    r"|(?:the\s+)?week\s+(?P<rel>before|after|of))\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Span:
    """Days from `start` to `end`, both included; `every_year`: in any year (kept in `ANY_YEAR`)."""

    start: date
    end: date
    every_year: bool = False

    def distance(self, day: date) -> int:
        """Days between `day` and the span: 0 inside it."""
        if self.every_year:
            day = _in_year(day, ANY_YEAR)
        if day < self.start:
            return (self.start - day).days
        if day > self.end:
            return (day - self.end).days
        return 0

    def gap(self, other: Span) -> int:
        """Days between two spans: 0 when they overlap."""
        if self.every_year and not other.every_year:
            return min(self.distance(other.start), self.distance(other.end))
        if other.every_year and not self.every_year:
            return other.gap(self)
        if other.end < self.start:
            return (self.start - other.end).days
        if other.start > self.end:
            return (other.start - self.end).days
        return 0


def _in_year(day: date, year: int) -> date:
    return day.replace(year=year) if not (day.month == 2 and day.day == 29) else date(year, 2, 28)


def _day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _month_span(year: int | None, month: int) -> Span:
    y = year if year is not None else ANY_YEAR
    return Span(date(y, month, 1), date(y, month, calendar.monthrange(y, month)[1]), year is None)


@dataclass(frozen=True, slots=True)
class _Mention:
    span: Span
    start: int
    end: int
    has_day: bool
    has_year: bool


def _mentions(text: str) -> list[_Mention]:
    """The dates `text` writes out (a day, a month or a year), in order."""
    out: list[_Mention] = []
    for match in _DATE.finditer(text):
        groups = {key: value for key, value in match.groupdict().items() if value}
        if "iso" in groups:  # 2023-05-05, or 2023-05 for the month
            parts = [int(part) for part in groups["iso"].split("-")]
            if not 1 <= parts[1] <= 12:
                continue
            if len(parts) == 2:
                out.append(_Mention(_month_span(parts[0], parts[1]), *match.span(), False, True))
            elif (day := _day(*parts)) is not None:
                out.append(_Mention(Span(day, day), *match.span(), True, True))
            continue
        month_name = groups.get("m1") or groups.get("m2") or groups.get("m3")
        day_text = groups.get("d1") or groups.get("d2")
        year_text = groups.get("y1") or groups.get("y2") or groups.get("y3") or groups.get("y4")
        year = int(year_text) if year_text else None
        if month_name is None:
            assert year is not None
            out.append(_Mention(Span(date(year, 1, 1), date(year, 12, 31)), *match.span(), False, True))
            continue
        month = _MONTHS[month_name.lower().rstrip(".")]
        if month_name.lower() in {"may", "march"} and day_text is None and year is None:
            before = text[: match.start()].rstrip().lower()
            if not re.search(
                r"\b(?:in|of|since|during|until|by|before|after|early|mid|late|end|beginning)$", before
            ):
                continue  # "may" the verb, "march" the walk
        if day_text is not None:
            day = _day(year if year is not None else ANY_YEAR, month, int(day_text))
            if day is None:
                continue
            out.append(_Mention(Span(day, day, year is None), *match.span(), True, year is not None))
        else:
            out.append(_Mention(_month_span(year, month), *match.span(), False, year is not None))
    return out


@lru_cache(maxsize=4096)
def parse_date(text: str | None) -> date | None:
    """The day a timestamp names: ISO (`2024-03-09T10:00:00Z`) or written out (`1:56 pm on 8 May, 2023`)."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.strip()).date()
    except ValueError:
        pass
    for mention in _mentions(text):
        if mention.has_day and mention.has_year:
            return mention.span.start
    return None


def _count(text: str) -> int:
    return int(text) if text.isdigit() else _NUMBERS[text.lower()]


def _shift(day: date, unit: str, n: int) -> Span:
    """The `unit` that lies `n` units from `day` (negative: before): a day, a week, a month or a year."""
    unit = unit.lower()
    if unit == "day":
        moved = day + timedelta(days=n)
        return Span(moved, moved)
    if unit == "week":
        moved = day + timedelta(weeks=n)
        return Span(moved - timedelta(days=3), moved + timedelta(days=3))
    if unit == "month":
        index = day.year * 12 + day.month - 1 + n
        return _month_span(index // 12, index % 12 + 1)
    year = day.year + n
    return Span(date(year, 1, 1), date(year, 12, 31))


def _week(day: date, offset: int) -> Span:
    monday = day - timedelta(days=day.weekday()) + timedelta(weeks=offset)
    return Span(monday, monday + timedelta(days=6))


def _relative(which: str, what: str, anchor: date) -> Span:
    which, what = which.lower(), what.lower()
    step = {"last": -1, "previous": -1, "past": -1, "this": 0, "next": 1, "coming": 1}[which]
    if what == "week":
        return _week(anchor, step)
    if what == "weekend":
        saturday = anchor + timedelta(days=(5 - anchor.weekday()) % 7)
        if step < 0 or (step == 0 and anchor.weekday() == 0):
            saturday -= timedelta(weeks=1)
        elif step > 0 and anchor.weekday() >= 5:
            saturday += timedelta(weeks=1)
        return Span(saturday, saturday + timedelta(days=1))
    if what in {"month", "year"}:
        return _shift(anchor, what, step)
    weekday = _DAYS[what]
    if step < 0:
        back = (anchor.weekday() - weekday) % 7 or 7
        day = anchor - timedelta(days=back)
    else:
        ahead = (weekday - anchor.weekday()) % 7 or (7 if step > 0 else 0)
        day = anchor + timedelta(days=ahead)
    return Span(day, day)


_WORD_DAYS = {"yesterday": -1, "today": 0, "tonight": 0, "tomorrow": 1, "last night": -1}


def spoken_spans(text: str, anchor: date) -> list[Span]:
    """The days `text` (said on `anchor`) refers to with relative words, in order of mention."""
    found: list[tuple[int, Span]] = []
    for match in _DAYWORD.finditer(text):
        word = " ".join(match.group("word").lower().split())
        day = anchor + timedelta(days=_WORD_DAYS.get(word, 0))
        found.append((match.start(), Span(day, day)))
    for match in _WHICH.finditer(text):
        found.append((match.start(), _relative(match.group("which"), match.group("what"), anchor)))
    for match in _AGO.finditer(text):
        found.append((match.start(), _shift(anchor, match.group("unit"), -_count(match.group("n")))))
    for match in _IN.finditer(text):
        found.append((match.start(), _shift(anchor, match.group("unit"), _count(match.group("n")))))
    return [span for _, span in sorted(found, key=lambda item: item[0])]


def ago(text: str, anchor: date) -> date | None:
    """The day `text` names as some days, weeks, months or years before `anchor` ("two years ago":
    the same day two years back; a month's last day where it has no such day), or None."""
    match = _AGO.search(text)
    if match is None:
        return None
    n, unit = _count(match.group("n")), match.group("unit").lower()
    if unit in {"day", "week"}:
        return anchor - timedelta(days=n * (7 if unit == "week" else 1))
    index = anchor.year * 12 + anchor.month - 1 - n * (12 if unit == "year" else 1)
    year, month = index // 12, index % 12 + 1
    return date(year, month, min(anchor.day, calendar.monthrange(year, month)[1]))


@dataclass(frozen=True, slots=True)
class Asked:
    """The time a question asks about, and where in the question it is written; `around`: the span
    conversation recall ranks turns by, the whole year where the question names a part of one ("in
    summer 2021": a turn tells of "last summer" months later, said nowhere near those months)."""

    span: Span
    start: int
    end: int
    around: Span | None = None

    @property
    def near(self) -> Span:
        """The span turns are ranked by: `around`, else `span`."""
        return self.around or self.span


def asked_span(question: str) -> Asked | None:
    """The days a question asks about, when it names a time (its first dated phrase)."""
    mentions = _mentions(question)
    if not mentions:
        return None
    first = mentions[0]
    between = re.search(r"\bbetween\s*$", question[: first.start], re.IGNORECASE)
    if between:  # "between August 11 and 15 2023": the second day has no month
        tail = _TAIL.match(question[first.end :])
        if tail and first.has_day:
            year = int(tail.group("y")) if tail.group("y") else None
            start_day = first.span.start if year is None else _in_year(first.span.start, year)
            end_day = _day(start_day.year, start_day.month, int(tail.group("d")))
            if end_day is not None and end_day >= start_day:
                every = year is None and not first.has_year
                return Asked(Span(start_day, end_day, every), between.start(), first.end + tail.end())
    if between and len(mentions) > 1 and re.fullmatch(r"\s+and\s+", question[first.end : mentions[1].start]):
        second = mentions[1]
        low, high = first.span, second.span
        if second.has_year and not first.has_year:
            low = Span(_in_year(low.start, high.end.year), _in_year(low.end, high.end.year))
        every = high.every_year and low.every_year
        return Asked(Span(low.start, high.end, every), between.start(), second.end)
    span, start = first.span, first.start
    part = _PART.search(question[: first.start])
    if part:
        span = _part_of(part, first.span)
        # a season stays a word of the question: turns tell of "last summer"
        start = start if part.group("season") else part.start()
        if _whole_year(first.span):
            return Asked(span, start, first.end, first.span)
    return Asked(span, start, first.end)


_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
"""The month each season begins in (the northern hemisphere's, by the meteorological calendar)."""
_THIRDS = {"early": 1, "mid": 5, "late": 9}
"""The month each third of a year begins in: "early 2024" is January to April."""


def _part_of(part: re.Match[str], span: Span) -> Span:
    every = span.every_year
    whole_year = _whole_year(span)
    if part.group("season") or part.group("quarter"):
        if not whole_year:
            return span
        first = (
            _SEASONS[part.group("season").lower()]
            if part.group("season")
            else 3 * int(part.group("quarter")[1]) - 2
        )
        return _months(span.start.year, first, 3)
    if whole_year and not part.group("rel") and not part.group("nth"):
        third = next(name for name in ("early", "mid", "late") if part.group(name))
        return _months(span.start.year, _THIRDS[third], 4)
    if part.group("rel"):
        rel = part.group("rel").lower()
        if rel == "before":
            return Span(span.start - timedelta(days=7), span.start - timedelta(days=1), every)
        if rel == "after":
            return Span(span.end + timedelta(days=1), span.end + timedelta(days=7), every)
        return _week(span.start, 0) if not every else Span(span.start, span.start + timedelta(days=6), True)
    last = span.end.day
    if part.group("nth"):
        nth = part.group("nth").lower()
        if nth == "last":
            return Span(span.end - timedelta(days=6), span.end, every)
        first = 1 + 7 * (_ORDINALS[nth] - 1)
        start = span.start.replace(day=min(first, last))
        return Span(start, min(start + timedelta(days=6), span.end), every)
    if part.group("early"):
        return Span(span.start, span.start.replace(day=min(10, last)), every)
    if part.group("mid"):
        return Span(span.start.replace(day=min(11, last)), span.start.replace(day=min(20, last)), every)
    return Span(span.start.replace(day=min(21, last)), span.end, every)


def _whole_year(span: Span) -> bool:
    """Whether `span` is one calendar year, January 1 to December 31."""
    ends = (span.start.month, span.start.day, span.end.month, span.end.day)
    return not span.every_year and span.start.year == span.end.year and ends == (1, 1, 12, 31)


def _months(year: int, first: int, count: int) -> Span:
    """`count` months from month `first` of `year` (winter runs on into the next year)."""
    last = year * 12 + first - 1 + count - 1
    return Span(date(year, first, 1), _month_span(last // 12, last % 12 + 1).end)
