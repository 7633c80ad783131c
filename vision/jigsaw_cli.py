"""`python -m vision fit|count PHOTO [PHOTO ...] --picture PICTURE [--json]` (Tableau T4, T6)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from vision.cli import run_photos
from vision.jigsaw import COUNT_DECODE_SIDE, FIT_DECODE_SIDE, check_fit, count_pieces
from vision.photo import UnreadablePhoto
from vision.pictures import Picture, load_picture


def add_commands(commands: argparse._SubParsersAction) -> None:
    fit = commands.add_parser("fit", help="Do the two pieces in each photo fit (Tableau T4)?")
    count = commands.add_parser("count", help="Count right, wrong and missing pieces (T6).")
    for parser, run in ((fit, _run_fit), (count, _run_count)):
        parser.add_argument("photos", nargs="+", metavar="PHOTO")
        parser.add_argument("--picture", required=True,
                            help="the picture: a straight picture image or a stored .npz")
        parser.add_argument("--json", action="store_true", help="one JSON object per line")
        parser.set_defaults(run=run)


def _picture(arguments: argparse.Namespace) -> Picture | None:
    try:
        return load_picture(arguments.picture)
    except (UnreadablePhoto, ValueError) as error:
        print(f"python -m vision: cannot use the picture {arguments.picture}: {error}",
              file=sys.stderr)
        return None


def _fit_fields(photo: np.ndarray, picture: Picture) -> dict[str, Any]:
    verdict = check_fit(photo, picture)
    return {"fit": verdict.fit, "reason": verdict.reason, "confidence": verdict.confidence}


def _count_fields(photo: np.ndarray, picture: Picture) -> dict[str, Any]:
    counted = count_pieces(photo, picture)
    return {"right": counted.right, "wrong": counted.wrong, "missing": counted.missing}


def _run_fit(arguments: argparse.Namespace) -> int:
    picture = _picture(arguments)
    if picture is None:
        return 2
    return run_photos(arguments.photos, lambda photo: _fit_fields(photo, picture),
                      lambda r: f"{r['reason']} ({r['confidence']:.0%})", arguments.json,
                      FIT_DECODE_SIDE)


def _run_count(arguments: argparse.Namespace) -> int:
    picture = _picture(arguments)
    if picture is None:
        return 2
    return run_photos(arguments.photos, lambda photo: _count_fields(photo, picture),
                      lambda r: f"right {r['right']}, wrong {r['wrong']}, missing {r['missing']}",
                      arguments.json, COUNT_DECODE_SIDE)
