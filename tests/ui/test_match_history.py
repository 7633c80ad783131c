"""The match screen's history draws the latest entries only, until the whole of it is asked for
(issue 4: every drawn entry slowed each later tap, bench/ui.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.ui.screens.match import HISTORY_SHOWN, history_toggle, shown_positions

counts = st.integers(min_value=0, max_value=500)


@given(counts)
def test_the_collapsed_history_is_the_latest_entries_in_order(count):
    shown = list(shown_positions(count, show_all=False))
    assert len(shown) == min(count, HISTORY_SHOWN)
    assert shown == list(range(count - len(shown), count))
    if count:
        assert shown[-1] == count - 1  # the entry just made is always there to correct


@given(counts)
def test_the_whole_history_is_every_entry(count):
    assert list(shown_positions(count, show_all=True)) == list(range(count))


@settings(deadline=None)  # the first Flet button built can take long on a busy machine
@given(counts, st.booleans())
def test_the_toggle_is_offered_exactly_when_entries_are_hidden_or_were_opened(count, show_all):
    toggle = history_toggle(count, show_all, lambda _: None)
    hidden = len(shown_positions(count, show_all=False)) < count
    assert len(toggle) == (1 if hidden else 0)


def test_the_toggle_names_what_it_does():
    (closed,) = history_toggle(12, False, lambda _: None)
    (opened,) = history_toggle(12, True, lambda _: None)
    assert closed.content == "Show all 12 entries"
    assert opened.content == f"Show only the last {HISTORY_SHOWN} entries"


def test_the_toggle_switches_between_the_two():
    asked = []
    (closed,) = history_toggle(9, False, asked.append)
    (opened,) = history_toggle(9, True, asked.append)
    closed.on_click(None)
    opened.on_click(None)
    assert asked == [True, False]
