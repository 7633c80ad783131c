"""Several browser sessions share one server process: concurrent writers never lose an update."""

from __future__ import annotations

import threading

import pytest

from companion.core.types import MatchId
from tests.core.counting_game import Scored
from tests.storage.helpers import ANN, BOB, CY, new_match

THREADS = 6
EVENTS_EACH = 25


def run_together(work) -> None:
    start = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def worker(number: int) -> None:
        start.wait()
        try:
            work(number)
        except BaseException as error:  # reported below, so a failing thread fails the test
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def event_of(thread: int, n: int) -> Scored:
    # The player and the half of 0..5 the points fall in say which thread sent it.
    return Scored((ANN, BOB, CY)[thread % 3], (thread // 3) * 3 + n % 3)


def sent_by(thread: int, events) -> list[Scored]:
    return [event for event in events
            if event.player == (ANN, BOB, CY)[thread % 3] and event.points // 3 == thread // 3]


@pytest.mark.slow
def test_threads_appending_to_one_match_lose_nothing(library):
    library.matches.create(new_match())
    run_together(lambda thread: [library.matches.append_event(MatchId("m1"), event_of(thread, n))
                                 for n in range(EVENTS_EACH)])
    events = library.matches.get(MatchId("m1")).events
    assert len(events) == THREADS * EVENTS_EACH
    for thread in range(THREADS):  # all there, each thread's in the order it sent them
        assert sent_by(thread, events) == [event_of(thread, n) for n in range(EVENTS_EACH)]


@pytest.mark.slow
def test_threads_on_different_matches_and_the_roster_lose_nothing(library):
    library.matches.create_many([new_match(f"m{n}") for n in range(THREADS)])

    def play(thread: int) -> None:
        library.players.add(f"Player {thread}")
        for n in range(EVENTS_EACH):
            library.matches.append_event(MatchId(f"m{thread}"), event_of(thread, n))

    run_together(play)
    for thread in range(THREADS):
        assert library.matches.get(MatchId(f"m{thread}")).events == tuple(
            event_of(thread, n) for n in range(EVENTS_EACH))
    assert len(library.players.list()) == THREADS
