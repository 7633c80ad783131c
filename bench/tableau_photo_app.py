"""What the app adds around Tableau's vision checks (issue 7), measured against the bare checks.

    .venv/bin/python bench/tableau_photo_app.py [--photos 4] [--size 4000x3000]

Per rendered photo (tests/vision/render_jigsaw.py), on one core:
- baseline: decode_photo (as the app decodes: no larger than the work size for a fit, whole
  for a count) + check_fit / count_pieces against a picture already in memory (what
  bench/vision_tableau.py times);
- app: check_call_photo / count_from_photo from companion/ui/tableau_photo.py, which also loads
  the stored picture from its npz bytes, annotates the photo and encodes the PNG the screen shows.
Also: making a picture from an imported file (the Picture sets screen) and its stored size.
Prints medians, the app / baseline ratio, and the peak resident memory of the run.
"""

from __future__ import annotations

import os

for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = "1"

import argparse  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.ui.tableau_photo import (  # noqa: E402
    check_call_photo,
    count_from_photo,
    picture_from_file,
)
from tests.vision import render_jigsaw as render  # noqa: E402
from vision.jigsaw import (  # noqa: E402
    COUNT_DECODE_SIDE,
    FIT_DECODE_SIDE,
    check_fit,
    count_pieces,
)
from vision.photo import decode_photo  # noqa: E402
from vision.pictures import make_picture, picture_from_bytes, picture_to_bytes  # noqa: E402

cv2.setNumThreads(1)
NAMES = ("astronaut", "coffee", "chelsea")


def fit_decoded(jpeg: bytes):
    return decode_photo(jpeg, FIT_DECODE_SIDE)


def count_decoded(jpeg: bytes):
    return decode_photo(jpeg, COUNT_DECODE_SIDE)


def seconds(function, *arguments) -> float:
    started = time.perf_counter()
    function(*arguments)
    return time.perf_counter() - started


def median_ms(times: list[float]) -> str:
    return f"{statistics.median(times) * 1000:7.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=4)
    parser.add_argument("--size", default="4000x3000")
    arguments = parser.parse_args()
    size = tuple(int(side) for side in arguments.size.split("x"))

    pngs = {name: cv2.imencode(".png", render.picture(name))[1].tobytes() for name in NAMES}
    imports = [seconds(picture_from_file, f"{name}.png", png) for name, png in pngs.items()]
    stored = {name: picture_to_bytes(make_picture(name, render.picture(name))) for name in NAMES}
    in_memory = {name: picture_from_bytes(data) for name, data in stored.items()}
    loads = [seconds(picture_from_bytes, data) for data in stored.values()]

    rows = {"fit": ([], []), "count": ([], [])}
    for seed in range(arguments.photos):
        fit = render.fit_photo(NAMES, ("plain", "wood"), "fit", seed, size)
        count = render.count_photo(NAMES, ("plain", "wood"), seed, size)
        rows["fit"][0].append(seconds(lambda p=fit: check_fit(fit_decoded(p.jpeg),
                                                              in_memory[p.picture])))
        rows["fit"][1].append(seconds(check_call_photo, fit.jpeg, stored[fit.picture]))
        rows["count"][0].append(seconds(lambda p=count: count_pieces(count_decoded(p.jpeg),
                                                                     in_memory[p.picture])))
        rows["count"][1].append(seconds(count_from_photo, count.jpeg, stored[count.picture]))

    print(f"photos: {arguments.photos} fit + {arguments.photos} count, {size[0]}x{size[1]}, "
          f"one core; load average {os.getloadavg()[0]:.1f}")
    for what, (baseline, app) in rows.items():
        ratio = statistics.median(app) / statistics.median(baseline)
        print(f"{what:6s} baseline {median_ms(baseline)}   app {median_ms(app)}   "
              f"app/baseline {ratio:4.2f}")
    print(f"import a picture file (make_picture + npz + thumbnail): {median_ms(imports)}")
    print(f"load a stored picture (picture_from_bytes):            {median_ms(loads)}")
    sizes = [len(data) / 1e6 for data in stored.values()]
    print(f"stored picture size: median {statistics.median(sizes):.2f} MB")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory: {peak:.0f} MB")


if __name__ == "__main__":
    main()
