"""zerolang.experience.dates: timestamps read, relative dates resolved, the time a question asks about."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerolang.experience.dates import ANY_YEAR, Span, ago, asked_span, parse_date, spoken_spans

DAYS = st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31))


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("1:56 pm on 8 May, 2023", date(2023, 5, 8)),
        ("10:37 am on 27 June, 2023", date(2023, 6, 27)),
        ("2025-07-14T10:00:05.000Z", date(2025, 7, 14)),
        ("2024-03-09", date(2024, 3, 9)),
        ("March 3, 2024", date(2024, 3, 3)),
        ("sometime", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_date(text: str | None, day: date | None) -> None:
    assert parse_date(text) == day


@given(DAYS)
def test_written_out_dates_read_back(day: date) -> None:
    assert parse_date(f"9:00 am on {day.day} {day:%B}, {day.year}") == day
    assert parse_date(day.isoformat()) == day


@given(DAYS)
def test_yesterday_today_tomorrow(anchor: date) -> None:
    spans = spoken_spans("Yesterday was fine, today is better, tomorrow we go", anchor)
    assert [s.start for s in spans] == [anchor - timedelta(days=1), anchor, anchor + timedelta(days=1)]


@given(DAYS, st.sampled_from(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]))
def test_last_weekday_is_the_latest_such_day_before(anchor: date, name: str) -> None:
    (span,) = spoken_spans(f"we met last {name}", anchor)
    assert span.start == span.end
    assert span.start.strftime("%A") == name
    assert 1 <= (anchor - span.start).days <= 7


@given(DAYS, st.integers(min_value=1, max_value=12))
def test_weeks_ago_is_a_week_around_that_day(anchor: date, n: int) -> None:
    (span,) = spoken_spans(f"I started {n} weeks ago", anchor)
    assert span.distance(anchor - timedelta(weeks=n)) == 0
    assert (span.end - span.start).days == 6


@given(DAYS)
def test_last_week_month_year_are_before_the_anchor(anchor: date) -> None:
    week, month, year = spoken_spans("last week, last month and last year", anchor)
    assert week.end < anchor and (anchor - week.start).days <= 13
    assert month.end < anchor and month.start.day == 1
    assert year == Span(date(anchor.year - 1, 1, 1), date(anchor.year - 1, 12, 31))


@given(DAYS)
def test_last_weekend_is_a_saturday_and_sunday_before(anchor: date) -> None:
    (span,) = spoken_spans("last weekend was busy", anchor)
    assert span.start.weekday() == 5 and span.end == span.start + timedelta(days=1)
    assert span.start < anchor


@given(DAYS)
def test_text_without_dates_resolves_to_nothing(anchor: date) -> None:
    assert spoken_spans("I painted a lake with my kids", anchor) == []


@pytest.mark.parametrize(
    ("question", "start", "end", "every_year", "phrase"),
    [
        ("What did Ana watch on 1 May, 2022?", date(2022, 5, 1), date(2022, 5, 1), False, "1 May, 2022"),
        ("What did Ana read on 8th December, 2023?", date(2023, 12, 8), date(2023, 12, 8), False, None),
        ("Who called on December 1,2023 at noon?", date(2023, 12, 1), date(2023, 12, 1), False, None),
        ("What did Ben win in January 2022?", date(2022, 1, 1), date(2022, 1, 31), False, "January 2022"),
        ("Where did Ben camp in June?", date(ANY_YEAR, 6, 1), date(ANY_YEAR, 6, 30), True, "June"),
        ("What happened in 2024?", date(2024, 1, 1), date(2024, 12, 31), False, "2024"),
        (
            "Where was Ben between August 11 and August 15 2023?",
            date(2023, 8, 11),
            date(2023, 8, 15),
            False,
            "between August 11 and August 15 2023",
        ),
        ("Where was Ben between August 11 and 15 2023?", date(2023, 8, 11), date(2023, 8, 15), False, None),
        (
            "Where was Ben in the week before 16 November 2023?",
            date(2023, 11, 9),
            date(2023, 11, 15),
            False,
            "the week before 16 November 2023",
        ),
        (
            "Where was Ben the second week of November?",
            date(ANY_YEAR, 11, 8),
            date(ANY_YEAR, 11, 14),
            True,
            None,
        ),
        (
            "What did Ben win at the beginning of November 2022?",
            date(2022, 11, 1),
            date(2022, 11, 10),
            False,
            None,
        ),
        ("What did Ben do at the end of May 2023?", date(2023, 5, 21), date(2023, 5, 31), False, None),
        # a date written as ISO, or its month
        ("What did Ben drive on 2023-05-05?", date(2023, 5, 5), date(2023, 5, 5), False, "2023-05-05"),
        ("Where was Ben in 2023-05?", date(2023, 5, 1), date(2023, 5, 31), False, "2023-05"),
        # a part of a year is months, not the days of its January
        ("What did Ben drive in early 2024?", date(2024, 1, 1), date(2024, 4, 30), False, "early 2024"),
        ("Where was Ben in mid-2023?", date(2023, 5, 1), date(2023, 8, 31), False, "mid-2023"),
        ("Where was Ben in late 2022?", date(2022, 9, 1), date(2022, 12, 31), False, None),
        ("Where was Ben in the summer of 2022?", date(2022, 6, 1), date(2022, 8, 31), False, None),
        ("Where was Ben in winter 2022?", date(2022, 12, 1), date(2023, 2, 28), False, None),
        ("What did Ben ship in Q3 2022?", date(2022, 7, 1), date(2022, 9, 30), False, "Q3 2022"),
    ],
)
def test_asked_span(question: str, start: date, end: date, every_year: bool, phrase: str | None) -> None:
    asked = asked_span(question)
    assert asked is not None
    assert asked.span == Span(start, end, every_year)
    if phrase is not None:
        assert question[asked.start : asked.end] == phrase


def test_recall_ranks_a_part_of_a_year_by_the_whole_year() -> None:
    # the facts are read as of the part asked about; conversation recall ranks turns said near the
    # whole year (a turn tells of "last summer" months later), and a season stays a word to match
    asked = asked_span("What state did Joanna visit in summer 2021?")
    assert asked is not None and asked.span == Span(date(2021, 6, 1), date(2021, 8, 31))
    assert asked.near == Span(date(2021, 1, 1), date(2021, 12, 31))
    assert "summer" not in "What state did Joanna visit in summer 2021?"[asked.start : asked.end]
    month = asked_span("What did Ben do at the end of May 2023?")
    assert month is not None and month.near == month.span


def test_ago_is_the_day_that_far_back() -> None:
    anchor = date(2026, 3, 31)
    assert ago("what did he drive two years ago?", anchor) == date(2024, 3, 31)
    assert ago("where was she 1 month ago", anchor) == date(2026, 2, 28)  # February has no 31st
    assert ago("3 weeks ago", anchor) == date(2026, 3, 10)
    assert ago("a day ago", anchor) == date(2026, 3, 30)
    assert ago("last year", anchor) is None


def test_the_previous_year_is_last_year() -> None:
    assert spoken_spans("the previous year", date(2026, 3, 15)) == [
        Span(date(2025, 1, 1), date(2025, 12, 31))
    ]


@pytest.mark.parametrize(
    "question", ["When did Ana go to the support group?", "What may Ben do next?", "Did they march together?"]
)
def test_questions_without_a_date(question: str) -> None:
    assert asked_span(question) is None


@given(st.text(max_size=120))
def test_never_crashes(text: str) -> None:
    asked_span(text)
    parse_date(text)
    spoken_spans(text, date(2023, 5, 8))


@given(DAYS, DAYS)
def test_a_span_without_a_year_matches_the_day_in_every_year(day: date, other: date) -> None:
    if day.month == 2 and day.day == 29:
        return
    span = Span(day.replace(year=ANY_YEAR), day.replace(year=ANY_YEAR), True)
    assert span.distance(day.replace(year=other.year) if not (day.month == 2 and day.day == 29) else day) == 0
    assert span.gap(Span(day, day)) == 0
