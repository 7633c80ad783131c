"""`python -m vision fit|count ... --picture ... --json` in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision import render_jigsaw as render
from vision.cli import run_photos
from vision.jigsaw import WORK_LONG_SIDE

ROOT = Path(__file__).resolve().parents[2]
TEXTURED = ("astronaut", "coffee", "chelsea")


def run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", *arguments], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("jigsaw")
    photo = render.fit_photo(TEXTURED, ("plain",), "fit", 0, (1200, 900), 1.0)
    (folder / "fit.jpg").write_bytes(photo.jpeg)
    cv2.imwrite(str(folder / "picture.png"), render.picture(photo.picture))
    (folder / "broken.jpg").write_bytes(photo.jpeg[:500])
    (folder / "notes.txt").write_text("not a photo")
    return folder


def test_fit_prints_one_json_line_per_photo_and_goes_on_after_a_bad_one(files):
    done = run("fit", str(files / "fit.jpg"), str(files / "notes.txt"), str(files / "fit.jpg"),
               "--picture", str(files / "picture.png"), "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["photo"] for line in lines] == [str(files / "fit.jpg"), str(files / "notes.txt"),
                                                 str(files / "fit.jpg")]
    assert set(lines[0]) == {"photo", "fit", "reason", "confidence", "ms"}
    assert (lines[0]["fit"], lines[0]["reason"]) == (True, "fit")
    assert set(lines[1]) == {"photo", "error"}


def test_count_prints_right_wrong_missing(files):
    done = run("count", str(files / "broken.jpg"), str(files / "fit.jpg"), "--picture",
               str(files / "picture.png"), "--json")
    assert done.returncode == 0, done.stderr
    broken, counted = (json.loads(line) for line in done.stdout.splitlines())
    assert "error" in broken
    assert set(counted) == {"photo", "right", "wrong", "missing", "ms"}
    assert counted["right"] + counted["wrong"] + counted["missing"] == 16


@pytest.mark.parametrize("arguments", [("fit",), ("fit", "x.jpg"), ("count", "--json"),
                                       ("fit", "x.jpg", "--picture", "/no/such/picture.png")])
def test_wrong_arguments_exit_non_zero(files, arguments):
    assert run(*arguments).returncode != 0


def test_a_reader_working_smaller_gets_the_photo_decoded_no_larger_than_it_needs(tmp_path,
                                                                                capsys):
    photo = tmp_path / "large.jpg"
    photo.write_bytes(cv2.imencode(".jpg", np.full((3000, 4000, 3), 128, np.uint8))[1].tobytes())
    shapes = []

    def read(image: np.ndarray) -> dict:
        shapes.append(image.shape[:2])
        return {}

    for least_side in (None, WORK_LONG_SIDE):
        assert run_photos([str(photo)], read, str, True, least_side) == 0
    assert shapes == [(3000, 4000), (1500, 2000)]  # 1/4 would leave 1000 < 1024 pixels
    assert all("ms" in json.loads(line) for line in capsys.readouterr().out.splitlines())
