"""New game: players from the roster (or added on the spot), seat order, first dealer, options."""

from __future__ import annotations

import dataclasses
import enum
import typing

import flet as ft

from companion.core.errors import InvalidSetup, TablemateError
from companion.core.seating import draw_first_dealer
from companion.core.types import PlayerId
from companion.ui.routes import HOME, Navigate, Route
from companion.ui.screens.players import NameField
from companion.ui.services import Services
from companion.ui.widgets import (
    action,
    back,
    heading,
    humanise,
    number_field,
    players_text,
    use_latest_state,
    whole_number_problem,
)

OPTION_NUMBERS = (1, 999)  # the bounds a typed house-rule number is checked against on the field


def option_controls(options: object, texts: dict[str, str], set_options,
                    type_number) -> list[ft.Control]:
    """One control per house-rule option, chosen by the option's type.

    Numbers are kept as typed (`texts`) so a refused entry stays on its field with the reason.
    """
    hints = typing.get_type_hints(type(options))
    controls: list[ft.Control] = []
    for field in dataclasses.fields(options):
        value = getattr(options, field.name)
        kind = hints[field.name]

        def change(new_value, name=field.name):
            set_options(dataclasses.replace(options, **{name: new_value}))

        label = humanise(field.name)
        if kind is bool:
            controls.append(ft.Switch(label=label, value=value,
                                      on_change=lambda e, change=change: change(e.control.value)))
        elif isinstance(kind, type) and issubclass(kind, enum.Enum):
            controls.append(ft.Dropdown(
                label=label, value=value.value,
                options=[ft.DropdownOption(key=member.value, text=humanise(str(member.value)))
                         for member in kind],
                on_select=lambda e, change=change, kind=kind: change(kind(e.control.value))))
        elif kind is int:
            text = texts.get(field.name, str(value))
            controls.append(number_field(
                label, text, lambda typed, name=field.name: type_number(name, typed),
                whole_number_problem(text, *OPTION_NUMBERS)))
    return controls


@ft.component
def NewGameScreen(services: Services, navigate: Navigate, game_key: str):
    game = services.game(game_key)
    # PlayerIds in seat order; quick taps each build on the newest list (use_latest_state).
    seats_ref, change_seats = use_latest_state(())
    seats = seats_ref.current
    dealer, set_dealer = ft.use_state(0)
    drawn, set_drawn = ft.use_state(False)
    options, set_options = ft.use_state(lambda: game.options_type())
    option_texts, set_option_texts = ft.use_state({})  # house-rule numbers as typed
    problem, set_problem = ft.use_state(None)
    version, set_version = ft.use_state(0)
    roster = services.storage.players.list()
    names = {player.id: player.name for player in services.storage.players.list(include_archived=True)}

    def toggle(player_id: PlayerId) -> None:
        change_seats(lambda order: tuple(s for s in order if s != player_id)
                     if player_id in order else (*order, player_id))
        set_dealer(0)
        set_drawn(False)

    def move_up(index: int) -> None:
        change_seats(lambda order: (*order[:index - 1], order[index], order[index - 1],
                                    *order[index + 1:]))

    def add_on_the_spot(name: str) -> None:
        player = services.storage.players.add(name)
        change_seats(lambda order: (*order, player.id))
        set_version(version + 1)

    def draw(_) -> None:
        set_dealer(draw_first_dealer(len(seats_ref.current)))
        set_drawn(True)

    def type_number(name: str, text: str) -> None:
        set_option_texts({**option_texts, name: text})
        if whole_number_problem(text, *OPTION_NUMBERS) is None:
            set_options(dataclasses.replace(options, **{name: int(text)}))

    def start(_) -> None:
        if any(whole_number_problem(text, *OPTION_NUMBERS) for text in option_texts.values()):
            set_problem("Correct the house rules marked above first.")
            return
        try:
            match = services.start_match(game_key, seats_ref.current, dealer, options)
        except (InvalidSetup, TablemateError) as refused:
            set_problem(str(refused))
            return
        navigate(Route("match", match.id))

    seat_rows = [
        ft.Row([
            ft.Text(f"Seat {index + 1}: {names[player]}", size=18, expand=True),
            *([ft.TextButton(f"Move {names[player]} up", on_click=lambda _, i=index: move_up(i),
                             height=48)] if index else []),
        ])
        for index, player in enumerate(seats)
    ]
    dealer_choice = [
        ft.Dropdown(
            label="First dealer", value=str(dealer),
            options=[ft.DropdownOption(key=str(i), text=names[p]) for i, p in enumerate(seats)],
            on_select=lambda e: (set_dealer(int(e.control.value)), set_drawn(False))),
        action("Draw the first dealer at random", draw),
        *([ft.Text(f"Drawn: {names[seats[dealer]]} deals first.")] if drawn else []),
    ] if len(seats) > 1 else []
    fewest, most = game.player_range(options)
    return ft.Column([
        back(navigate, HOME),
        heading(f"New {game.title} game"),
        ft.Text(players_text(fewest, most)),
        *option_controls(options, option_texts, set_options, type_number),
        ft.Text("Who is playing?", size=18, weight=ft.FontWeight.BOLD),
        *(ft.Checkbox(label=player.name, value=player.id in seats,
                      on_change=lambda _, pid=player.id: toggle(pid))
          for player in roster),
        NameField("Add a player on the spot", "Add and seat", add_on_the_spot),
        *([ft.Text("Seats, in order round the table (to the left)", size=18,
                   weight=ft.FontWeight.BOLD), *seat_rows] if seats else []),
        *dealer_choice,
        *([ft.Text(problem, color=ft.Colors.ERROR)] if problem else []),
        action("Start the game", start, primary=True),
    ])
