"""Picture sets for Tableau photo checks (issue 7): add a set (import picture files, or mark each
picture's four corners on a photo of the box cover), see the sets with small thumbnails, delete
one with a confirming tap.

Making a picture (straightening it, finding its features) takes a core for a moment: it runs
off the UI loop with a progress ring. The pure part is companion.ui.tableau_photo.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace

import flet as ft
import numpy as np

from companion.core.errors import InvalidName, InvalidSetup
from companion.ui.routes import Navigate, Route
from companion.ui.services import Services
from companion.ui.tableau_photo import (
    NewPicture,
    marked_cover,
    next_corner,
    photo_point,
    picture_from_file,
    picture_from_marks,
    stored_thumbnail,
)
from companion.ui.widgets import TOUCH, action, back, heading, typed_text, use_latest_state
from storage.pictures import DamagedPicture, PictureStore, StoredSet
from vision.photo import UnreadablePhoto, decode_photo

COVER_WIDTH = 340  # logical pixels the cover photo is shown at: fits a phone held upright
COVER_SIDE = 1000  # pixels of the shown cover image: sharp enough to tap a corner on


@dataclass(frozen=True)
class SetDraft:
    """The set being added, before it is saved."""

    name: str = ""
    pictures: tuple[NewPicture, ...] = ()
    marks: tuple[tuple[float, float], ...] = ()  # corners tapped on the cover, in photo pixels
    cover_title: str = ""  # the name typed for the picture the marks outline
    problem: str | None = None

    def renamed(self, index: int, title: str) -> SetDraft:
        pictures = list(self.pictures)
        pictures[index] = replace(pictures[index], title=title)
        return replace(self, pictures=tuple(pictures))

    def without(self, index: int) -> SetDraft:
        return replace(self, pictures=self.pictures[:index] + self.pictures[index + 1:])


async def off_the_loop(work: Callable[[], object]) -> object:
    # OpenCV holds a core for a moment per picture: never on the UI loop.
    return await asyncio.to_thread(work)


@ft.component
def NewSetForm(store: PictureStore, on_saved: Callable[[str], None]):
    latest, change = use_latest_state(SetDraft())
    draft: SetDraft = latest.current
    busy, set_busy = ft.use_state(None)  # what is being worked on, for the progress ring
    cover = ft.use_ref(None)  # the decoded cover photo (an array: kept out of state)
    shown_cover, set_shown_cover = ft.use_state(None)  # its PNG with the marks drawn

    def report(problem: object) -> None:
        text = str(problem) if problem else None
        change(lambda d: replace(d, problem=text))

    async def work(what: str, job: Callable[[], object]) -> object | None:
        set_busy(what)
        try:
            return await off_the_loop(job)
        except UnreadablePhoto as problem:
            report(problem)
            return None
        finally:
            set_busy(None)

    async def import_files(_) -> None:
        files = await ft.FilePicker().pick_files(file_type=ft.FilePickerFileType.IMAGE,
                                                 allow_multiple=True, with_data=True)
        files = [file for file in files or [] if file.bytes is not None]
        if not files:
            return  # cancelled

        def read_all() -> tuple[list[NewPicture], list[str]]:
            made, refused = [], []
            for file in files:
                try:
                    made.append(picture_from_file(file.name, file.bytes))
                except UnreadablePhoto as problem:
                    refused.append(f"{file.name}: {problem}")
            return made, refused

        result = await work("Reading the pictures…", read_all)
        if result is not None:
            made, refused = result
            change(lambda d: replace(d, pictures=d.pictures + tuple(made),
                                     problem=" ".join(refused) or None))

    async def choose_cover(_) -> None:
        files = await ft.FilePicker().pick_files(file_type=ft.FilePickerFileType.IMAGE,
                                                 with_data=True)
        if not files or files[0].bytes is None:
            return
        photo = await work("Reading the photo…", lambda: decode_photo(files[0].bytes))
        if photo is not None:
            cover.current = photo
            change(lambda d: replace(d, marks=(), problem=None))
            set_shown_cover(marked_cover(photo, (), COVER_SIDE))

    def mark(event: ft.TapEvent) -> None:
        photo: np.ndarray = cover.current
        if photo is None or event.local_position is None or next_corner(latest.current.marks) \
                is None:
            return
        point = photo_point((event.local_position.x, event.local_position.y), COVER_WIDTH,
                            (photo.shape[1], photo.shape[0]))
        change(lambda d: replace(d, marks=(*d.marks, point)))
        set_shown_cover(marked_cover(photo, latest.current.marks, COVER_SIDE))

    def clear_marks(_=None) -> None:
        change(lambda d: replace(d, marks=(), cover_title=""))
        set_shown_cover(marked_cover(cover.current, (), COVER_SIDE))

    def close_cover(_=None) -> None:
        cover.current = None
        change(lambda d: replace(d, marks=(), cover_title=""))
        set_shown_cover(None)

    async def add_marked(_) -> None:
        current = latest.current
        photo = cover.current
        title = " ".join(current.cover_title.split()) or f"Picture {len(current.pictures) + 1}"

        def make() -> NewPicture | str:
            try:
                return picture_from_marks(title, photo, current.marks)
            except ValueError as problem:  # the corners outline no picture: said why
                return str(problem)

        made = await work("Straightening the picture…", make)
        if isinstance(made, str):
            report(made)
        elif made is not None:
            change(lambda d: replace(d, pictures=(*d.pictures, made), problem=None))
            clear_marks()

    def save(_) -> None:
        current = latest.current
        try:
            saved = store.add(current.name, [(p.title, p.stored) for p in current.pictures])
        except (InvalidName, InvalidSetup) as refused:
            report(refused)
            return
        close_cover()
        change(lambda _: SetDraft())
        on_saved(f"Saved the set {saved.title} with {len(saved.pictures)} "
                 f"picture{'s' if len(saved.pictures) != 1 else ''}.")

    controls: list[ft.Control] = [
        heading(f"Add the set {' '.join(draft.name.split())}" if draft.name.strip()
                else "Add a set"),
        ft.TextField(label="Name of the set", value=draft.name,
                     on_change=lambda e: change(lambda d: replace(d, name=typed_text(e)))),
        ft.Text("Add its pictures: import picture files, or photograph the box cover and mark "
                "each picture's corners."),
        ft.Row([action("Import picture files", import_files, disabled=busy is not None),
                action("Photograph the box cover", choose_cover, disabled=busy is not None)],
               wrap=True),
    ]
    if busy:
        controls.append(ft.Row([ft.ProgressRing(width=24, height=24), ft.Text(busy)]))
    if shown_cover is not None:
        controls += cover_marking(draft, shown_cover, cover.current.shape, mark, clear_marks,
                                  close_cover, add_marked, busy is not None,
                                  lambda text: change(lambda d: replace(d, cover_title=text)))
    for index, picture in enumerate(draft.pictures):
        controls.append(ft.Row([
            ft.Image(src=picture.thumbnail, width=64, height=64, fit=ft.BoxFit.CONTAIN,
                     semantics_label=f"Picture {index + 1}"),
            ft.TextField(label=f"Title of picture {index + 1}", value=picture.title, expand=True,
                         on_change=lambda e, i=index: change(
                             lambda d: d.renamed(i, typed_text(e)))),
            ft.TextButton(f"Remove picture {index + 1}", height=TOUCH,
                          on_click=lambda _, i=index: change(lambda d: d.without(i))),
        ]))
    if draft.problem:
        controls.append(ft.Text(draft.problem, color=ft.Colors.ERROR))
    controls.append(action("Save the set", save, primary=True,
                           disabled=busy is not None or not draft.pictures))
    return ft.Column(controls)


def cover_marking(draft: SetDraft, shown: bytes, shape: tuple[int, ...],
                  mark: Callable[[ft.TapEvent], None], clear: Callable, close: Callable,
                  add: Callable, busy: bool, rename: Callable[[str], None]) -> list[ft.Control]:
    """The cover photo to tap the corners on, and what to do once four are marked."""
    corner = next_corner(draft.marks)
    title = " ".join(draft.cover_title.split())
    height = COVER_WIDTH * shape[0] / shape[1]
    image = ft.Image(src=shown, width=COVER_WIDTH, height=height, fit=ft.BoxFit.FILL,
                     semantics_label="The box cover: tap a picture's corners on it")
    controls: list[ft.Control] = [
        ft.Text(f"Tap the {corner} corner of a picture." if corner else
                f"Four corners marked: add {title} to the set." if title else
                "Four corners marked: name the picture and add it.", size=16),
        ft.GestureDetector(content=image, on_tap_down=mark, width=COVER_WIDTH, height=height),
    ]
    if corner is None:
        controls += [
            ft.TextField(label="Name of this picture", value=draft.cover_title,
                         on_change=lambda e: rename(typed_text(e))),
            action("Add this picture", add, primary=True, disabled=busy),
        ]
    controls.append(ft.Row([action("Mark again", clear, disabled=not draft.marks),
                            action("Done with the cover", close)], wrap=True))
    return controls


@ft.component
def SetCard(store: PictureStore, entry: StoredSet, on_deleted: Callable[[str], None]):
    confirming, set_confirming = ft.use_state(False)
    thumbnails, set_thumbnails = ft.use_state({})  # title -> PNG, or why it cannot be shown

    async def load_thumbnails() -> None:
        set_thumbnails(await off_the_loop(lambda: thumbnails_of(store, entry)))

    ft.use_effect(load_thumbnails, [entry.id])

    def delete(_) -> None:
        store.delete(entry.id)
        on_deleted(f"Deleted the set {entry.title}.")

    pictures = [ft.Column([thumbnail_or_problem(title, thumbnails.get(title)),
                           ft.Text(title, width=96)]) for title in entry.titles]
    if confirming:
        ask = [ft.Text(f"Delete the set {entry.title} and its pictures?"),
               ft.Row([action(f"Yes, delete {entry.title}", delete, primary=True),
                       action("Keep it", lambda _: set_confirming(False))], wrap=True)]
    else:
        ask = [action(f"Delete {entry.title}", lambda _: set_confirming(True))]
    return ft.Card(ft.Container(ft.Column([
        ft.Text(entry.title, size=20, weight=ft.FontWeight.BOLD),
        ft.Row(pictures, wrap=True),
        *ask,
    ]), padding=12))


def thumbnail_or_problem(title: str, shown: bytes | str | None) -> ft.Control:
    if isinstance(shown, bytes):
        return ft.Image(src=shown, width=72, height=72, fit=ft.BoxFit.CONTAIN,
                        semantics_label=title)
    if shown is None:  # still being drawn
        return ft.Container(width=72, height=72)
    return ft.Text(shown, color=ft.Colors.ERROR, width=160)


def thumbnails_of(store: PictureStore, entry: StoredSet) -> dict[str, bytes | str]:
    """Each picture's thumbnail, or why it cannot be shown (a damaged file)."""
    shown: dict[str, bytes | str] = {}
    for title in entry.titles:
        try:
            shown[title] = stored_thumbnail(store.picture(entry.id, title))
        except (DamagedPicture, ValueError) as damage:
            shown[title] = str(damage)
    return shown


@ft.component
def PicturesScreen(services: Services, navigate: Navigate):
    store = services.storage.pictures
    message, set_message = ft.use_state(None)
    _, set_version = ft.use_state(0)

    def changed(text: str) -> None:
        set_message(text)
        set_version(lambda version: version + 1)

    sets = store.sets()
    return ft.Column([
        back(navigate, Route("settings"), "Settings"),
        heading("Picture sets"),
        ft.Text("Tableau checks a call or counts a rectangle from a photo by comparing it with "
                "the player's picture: add the pictures of your box here once."),
        *(ft.Text(notice, color=ft.Colors.ERROR) for notice in store.notices),
        *([ft.Text(message, size=16)] if message else []),
        *(SetCard(store, entry, changed, key=entry.id) for entry in sets),
        *([] if sets else [ft.Text("No picture sets yet.", italic=True)]),
        NewSetForm(store, changed),
    ])
