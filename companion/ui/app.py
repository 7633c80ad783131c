"""The app shell: page set-up, theme, and which screen shows."""

from __future__ import annotations

import flet as ft

from companion.ui.routes import HOME
from companion.ui.screens.guest import GuestScreen
from companion.ui.screens.history import HistoryScreen, NightScreen
from companion.ui.screens.home import HomeScreen
from companion.ui.screens.match import MatchScreen
from companion.ui.screens.new_game import NewGameScreen
from companion.ui.screens.pictures import PicturesScreen
from companion.ui.screens.players import PlayersScreen
from companion.ui.screens.settings import SettingsScreen
from companion.ui.screens.statistics import StatisticsScreen
from companion.ui.services import Services
from companion.ui.sharing import is_this_device


@ft.component
def App(services: Services):
    route, set_route = ft.use_state(HOME)
    dark, set_dark = ft.use_state(None)  # None follows the system

    def toggle_theme(_):
        set_dark(not dark if dark is not None else True)
        page = ft.context.page
        page.theme_mode = ft.ThemeMode.LIGHT if dark else ft.ThemeMode.DARK
        page.update()

    screens = {
        "home": lambda: HomeScreen(services, set_route),
        "players": lambda: PlayersScreen(services, set_route),
        "new": lambda: NewGameScreen(services, set_route, route.target),
        "match": lambda: MatchScreen(services, set_route, route.target),
        "history": lambda: HistoryScreen(services, set_route),
        "night": lambda: NightScreen(services, set_route, route.target),
        "statistics": lambda: StatisticsScreen(services, set_route),
        "settings": lambda: SettingsScreen(services, set_route),
        "pictures": lambda: PicturesScreen(services, set_route),
    }
    return ft.SafeArea(
        ft.Column(
            [
                ft.Row(
                    [
                        ft.TextButton("Tablemate", on_click=lambda _: set_route(HOME),
                                      style=ft.ButtonStyle(text_style=ft.TextStyle(size=20))),
                        ft.TextButton("Dark theme" if not dark else "Light theme",
                                      on_click=toggle_theme),
                    ],
                    alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
                ),
                # Another device on a shared table sees that table only (issue 5).
                screens[route.screen]() if is_this_device(ft.context.page.client_ip)
                else GuestScreen(services),
            ],
            expand=True,
            scroll=ft.ScrollMode.AUTO,
        ),
        expand=True,
    )


def build_page(page: ft.Page, services: Services) -> None:
    page.title = "Tablemate"
    page.theme_mode = ft.ThemeMode.SYSTEM
    page.padding = 8
    page.render(App, services)
