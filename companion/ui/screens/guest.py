"""What a guest's phone shows (issue 5): the shared match, watch-only until the join code is
entered; nothing at all while this server shares no table."""

from __future__ import annotations

import flet as ft

from companion.ui.screens.match import MatchScreen
from companion.ui.services import Services
from companion.ui.sharing import SHARING_TOPIC, Role, use_announcements
from companion.ui.widgets import action, heading, typed_text


@ft.component
def JoinForm(on_join):
    code, set_code = ft.use_state("")
    problem, set_problem = ft.use_state(None)

    def join(_) -> None:
        set_problem(on_join(code))

    return ft.Column([
        ft.Text("You are watching. To enter scores, type the join code shown on the host's phone."),
        ft.TextField(label="Join code", value=code, error=problem,
                     keyboard_type=ft.KeyboardType.NUMBER,
                     on_change=lambda e: set_code(typed_text(e))),
        action("Join", join, primary=True),
    ])


@ft.component
def GuestScreen(services: Services):
    sharing = services.sharing
    page = ft.context.page
    _, set_version = ft.use_state(0)

    def redraw() -> None:
        set_version(lambda version: version + 1)

    use_announcements(SHARING_TOPIC, redraw)
    table = sharing.table
    if table is None:
        return ft.Column([heading("Tablemate"),
                          ft.Text("No table is shared here right now: ask the host to share it.")])

    def join(code: str) -> str | None:
        refused = sharing.join(page.session.id, page.client_ip or "", code)
        if refused is None:
            redraw()
        return refused

    role = sharing.guest_role(page.session.id)
    return ft.Column([
        *([JoinForm(join)] if role is Role.WATCH else []),
        # Keyed by match: when the host shares another game, the screen starts afresh on it.
        MatchScreen(services, lambda _: None, table.match_id, role, key=table.match_id),
    ])
