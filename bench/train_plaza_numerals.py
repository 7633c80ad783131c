"""Trains the Plaza numeral classifier and writes vision/data/cards/numerals.npz.

`python bench/train_plaza_numerals.py` (a few minutes on one core). Samples are numerals 1-12
rendered in the training typefaces only (DejaVu family, three Hershey fonts, the KaTeX faces
flet ships, and the font packages of PYPI_FONTS: `pip install .[train]`), both ways up, with
small turns, shear, stretch, blur, noise and uneven ink; the reject class holds numerals lying
sideways, lone zeros and shapes that decks print as artwork. The features are vision.cards'
own, computed the same way as the reader does. The held-out typefaces (Liberation, two other
Hershey fonts) give the accuracy printed at the end. `--out PATH` writes the model elsewhere, to
compare it (bench/vision_plaza.py) before it replaces the reader's.

Not in training: the faces of Debian's font packages (URW, FreeFont, TeX Gyre, Carlito, Caladea,
Noto), which tests/vision/render_plaza_unseen.py renders the unseen bench with. Tried in a
session, with perspective, thin and bold strokes, loose two-digit spacing and JPEG: held-out
glyph shape accuracy on so distorted renders rose from 0.972 to 0.983, but the reader lost cards
on held-out photos (per card 0.9895 -> 0.981, 48 photos): the model took more of what lies
sideways or beside a numeral for one. The model was not replaced. Adding the PyPI font packages
(more digit shapes, same distortions) did help on photos (unseen renderer, tuning seeds
1000-1039: the 1 read right 0.74 -> 0.91, per card 0.894 -> 0.902, no wrong reading added); a
stroke-evened glyph (outline moved by the distance transform to one stroke width) did not: as
many cards right, two more read wrong. Numerals turned 20-35 degrees added to the reject class
(a 7 read in a frame turned 28 degrees was a sure 1) were mixed on the unseen tuning seeds:
1000-1039 per card 0.9656 -> 0.9628 (missed 19 -> 25), 3000-3039 0.9431 -> 0.9492 (wrong 3 -> 1,
missed 23 -> 26); not adopted. The reader doubts readings whose frame lies aslant of the Plaza's
rows instead (vision.cards._doubt_aslant).
Squeezed and foreshortened digits (issue 6: unseen tuning seed 4058's Brown 3, NimbusRoman-Bold
24 px tall and half as wide, 20-30 degrees of tilt, blur, read as a sure 1 at 0.945, the 3 at
0.055, by the second look beside a row, _read_row_gaps): a retrain with half the samples
squeezed to 0.6-1.0 of their width, foreshortened by a tilt of up to 30 degrees along any
direction with a slight convergence, strokes thinned by up to 5% of the height or thickened by
4%, blur up to 0.08 of the height (/tmp/pc/train_squeeze.py) fixed that card and raised held-out
shape accuracy on so distorted samples (0.949 -> 0.976, wrong but sure 0.0126 -> 0.0097; on the
old distortions 0.9961 -> 0.9973), but on photos (unseen renderer, 60 each, per card / layout /
wrong): 4000 0.9854/0.867/1 -> 0.9875/0.867/0; 5000 0.9852/0.817/0 -> 0.9820/0.750/2 (a 7 read
as 6, a 1 as 2); 6000 0.9692/0.767/3 -> 0.9684/0.783/3 (two fixed, two new: a turned serif 7,
an L-like glyph, read as a sure 12; a Brown 4 as Black); test_deck's full-deck photos of
seeds 3024 and 1022 failed (a card missing; a card placed 0.6 of a card off), while seed 3001's
Black 12, unread so far, was read. Not adopted: the shipped model is unchanged.
Motion blur (issue 6: hand shake) is not the shipped model's weak point. Held-out typefaces with
this script's distortions plus a line kernel of a share of the numeral's height in any direction
(/tmp/pt/motion.py; control 0.9934, wrong but sure 0.0012): 5% of the height, shape 0.9970, wrong
but sure 0.0006; 10%, 0.9854 and 0.0030. The unseen renderer's shake is 3-9 px at 4000 px, a few
per cent of a numeral's height. On unseen tuning 4000-7059 no shaken card was misread or unsure
at the numeral: shaken photos lost cards to placing (4020, 6022) and gained unsure readings from
corner indices (6016: 21) and a cloth's lines (5008: 4). A full retrain takes about 8 min of CPU
(make_set 2 min, 30 epochs 6 min).
With all nine PYPI_FONTS installed (113 typefaces), a retrain by this script unchanged makes the
same samples (mean and scale equal to the shipped model's) but not the same weights (up to 0.25
apart: float sums need not add in one order on another machine or thread count); the reader,
tuned against the shipped weights, reads differently: unseen tuning 4000 per card 0.9958 ->
0.9938 (4053 unsure, 4055 missed), 6000 0.9892 -> 0.9892 (6052 gained, one more 6053 card
unsure), wrong 0. So a candidate must beat that noise. The unsure numerals of issue 6 (unseen
tuning 4004, 6053, 3034, 6014), looked at glyph by glyph: most are NotoSerifDisplay-Bold at 2 MP,
whose hairlines fade below the ink threshold. 4004's turned Green 2 has lost its diagonal and
looks like a turned 7:
the shipped model reads 7v 0.67 (2v 0.03), the plain retrain 9v 0.84; no model reads it a 2, and
unsure is its right answer. 4004's Black 5 (its top bar's hairline faint) reads 6v 0.76 / 5 0.21,
6053's turned Brown 5 5v 0.55 / 6 0.41. 3034's two 12s and 6014's Red 11 are no classifier
matter: each digit reads alone (1 at 1.00, 2 at 0.97 and 0.86), the pair is never grouped
(_group_digits), and the lone 1 is doubted as crowded. Tried, none adopted: hairlines faded
(35% of samples: strokes narrower than 0.7-0.9 of the stem's width inked at 0.15-0.5 of it, by
the distance transform; /tmp/plaza-train/train_hair.py) retrained from scratch: 4004's Black 5
read right (5 at 0.99), the Green 2 still unsure (7v 0.67), but its Yellow 2 unsure (7 0.51 /
9 0.41): 4000 0.9958 -> 0.9927 (4022, 4024, 4055 unsure), 6000 0.9892 -> 0.9825 with two wrong
readings (6023 Brown 7 as 12, 6046 Brown 4 as Black 1) and 6046 six cards missed. The same
samples as a fine-tune of the shipped model (5 epochs at 2.5e-4): Green 2 7v 0.43, Black 5 read
right; 4000 0.9958 -> 0.9948 (4004 gained; 4025, 4053 unsure), 6000 0.9892 -> 0.9842, wrong 0
but 6046 seven cards missed, 6052 and 6053's Yellow 12 unsure -> missed, one Plaza verdict wrong
without a warning. A plain fine-tune (the same, no faded hairlines) read 4004's Green 2 as a sure
Green 7 (7v 0.85: wrong) and 6053's Brown 5 as 6 0.85, with all the fonts too; test_cards guards
the Green 2. The 6046 losses (URWGothic-Demi, gingham, 1 MP) say a model that takes fainter ink
for digits takes more of a cloth and artwork for them. The shipped model is unchanged.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.vision.render_plaza import (  # noqa: E402
    INKS,
    PAPERS,
    Typeface,
    held_out_typefaces,
    render_numeral,
    render_text,
    training_typefaces,
)
from vision.cards import INK, MODEL_PATH, REJECT, SURE, features  # noqa: E402

SEED = 20240601
# Font packages on PyPI (the pyproject's `train` extra) whose digits differ from the DejaVu and
# KaTeX ones: a 1 without a foot, thin and black weights, narrow and round faces. None is a face
# the unseen renderer uses (Debian's URW, FreeFont, TeX Gyre, Carlito, Caladea, Noto).
PYPI_FONTS = ("font_roboto", "font_source_sans_pro", "font_source_serif_pro", "font_lato",
              "font_manrope", "font_hanken_grotesk", "font_fjallaone", "font_fredoka_one",
              "font_rhd")


def pypi_typefaces() -> tuple[Typeface, ...]:
    """The static faces of the installed PYPI_FONTS packages (TrueType where a face comes in
    both formats; variable fonts left out: PIL draws only their default weight)."""
    faces: dict[str, Typeface] = {}
    for package in PYPI_FONTS:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            print(f"font package {package} not installed: trained without it", flush=True)
            continue
        folder = Path(next(iter(spec.submodule_search_locations))) / "files"
        for path in sorted(folder.glob("*.[ot]tf"), key=lambda p: (p.suffix != ".ttf", p.name)):
            if "Variable" not in path.stem:
                faces.setdefault(path.stem, Typeface(str(path)))
    return tuple(faces.values())



def _inkness(tile: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Paste an RGBA tile on paper, distort it like a photo would, and return 1 - min channel
    of the paper-normalised image, as the reader sees it."""
    h, w = tile.shape[:2]
    pad = int(max(h, w) * 0.4) + 6
    paper = np.array(PAPERS[rng.integers(len(PAPERS))], np.float32)
    canvas = np.empty((h + 2 * pad, w + 2 * pad, 3), np.float32)
    canvas[:] = paper
    alpha = tile[..., 3:4].astype(np.float32) / 255 * rng.uniform(0.8, 1.0)
    canvas[pad:pad + h, pad:pad + w] = canvas[pad:pad + h, pad:pad + w] * (1 - alpha) \
        + tile[..., :3] * alpha
    centre = (canvas.shape[1] / 2, canvas.shape[0] / 2)
    turn = cv2.getRotationMatrix2D(centre, rng.uniform(-7, 7), 1.0)
    shape = np.array([[rng.uniform(0.85, 1.15), rng.uniform(-0.15, 0.15)],
                      [rng.uniform(-0.06, 0.06), rng.uniform(0.9, 1.1)]])
    turn[:, :2] = turn[:, :2] @ shape
    turn[:, 2] += np.array(centre) - turn[:, :2] @ np.array(centre)
    canvas = cv2.warpAffine(canvas, turn, (canvas.shape[1], canvas.shape[0]),
                            borderMode=cv2.BORDER_REPLICATE)
    sigma = rng.uniform(0, 0.06) * h
    if sigma > 0.3:
        canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
    canvas += rng.normal(0, rng.uniform(1, 8), canvas.shape[:2])[..., None]
    normalised = canvas / (paper * rng.uniform(0.9, 1.1, 3))
    return np.clip(1 - normalised.min(axis=2), 0, 1).astype(np.float32)


def _sample(ink: np.ndarray) -> np.ndarray | None:
    ys, xs = np.nonzero(ink > INK)
    if ys.size < 10:
        return None
    box = (xs.min(), ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1)
    return features(ink, box)


def _shape_tile(rng: np.random.Generator, height: int, ink: tuple[int, int, int]) -> np.ndarray:
    """Artwork-like ink: rings, discs, stars, bars, lozenges, texture blobs."""
    size = height + 8
    alpha = np.zeros((size, size), np.uint8)
    kind = rng.integers(6)
    centre = (size // 2, size // 2)
    stroke = max(1, int(height * rng.uniform(0.05, 0.15)))
    if kind == 0:
        cv2.circle(alpha, centre, height // 2, 255, stroke, cv2.LINE_AA)
    elif kind == 1:
        cv2.ellipse(alpha, centre, (height // 2, int(height * rng.uniform(0.2, 0.5))),
                    rng.uniform(0, 180), 0, 360, 255, -1, cv2.LINE_AA)
    elif kind == 2:
        angles = np.linspace(0, 2 * np.pi, 11)[:-1]
        radii = np.where(np.arange(10) % 2 == 0, height / 2, height / 4.5)
        points = np.stack([centre[0] + radii * np.cos(angles),
                           centre[1] + radii * np.sin(angles)], axis=1)
        cv2.fillPoly(alpha, [points.astype(np.int32)], 255, cv2.LINE_AA)
    elif kind == 3:
        cv2.line(alpha, (4, centre[1]), (size - 4, centre[1] + int(rng.integers(-3, 4))), 255,
                 stroke * 2, cv2.LINE_AA)
    elif kind == 4:
        points = np.array([[centre[0], 4], [size - 4, centre[1]], [centre[0], size - 4],
                           [4, centre[1]]])
        cv2.fillPoly(alpha, [points.astype(np.int32)], 255, cv2.LINE_AA)
    else:
        noise = cv2.GaussianBlur(rng.uniform(0, 1, (size, size)).astype(np.float32), (0, 0),
                                 size / 10)
        alpha[noise > np.percentile(noise, rng.uniform(60, 85))] = 255
    tile = np.zeros((size, size, 4), np.uint8)
    tile[..., :3] = ink
    tile[..., 3] = alpha
    return tile


def make_set(rng: np.random.Generator, typefaces, per_class: int
             ) -> tuple[np.ndarray, np.ndarray]:
    inks = [shade for shades in INKS.values() for shade in shades]
    rows, labels = [], []

    def add(tile: np.ndarray, label: int) -> None:
        row = _sample(_inkness(tile, rng))
        if row is not None:
            rows.append(row)
            labels.append(label)

    for _ in range(per_class):
        for number in range(1, 13):
            typeface = typefaces[rng.integers(len(typefaces))]
            height = int(rng.uniform(12, 70))
            ink = inks[rng.integers(len(inks))]
            tile = render_numeral(typeface, number, height, ink, bool(rng.random() < 0.6))
            add(tile, 2 * (number - 1))
            add(tile[::-1, ::-1].copy(), 2 * (number - 1) + 1)
        for _ in range(4):  # the reject class: sideways numerals, lone zeros, artwork
            typeface = typefaces[rng.integers(len(typefaces))]
            height = int(rng.uniform(12, 70))
            ink = inks[rng.integers(len(inks))]
            choice = rng.integers(4)
            if choice == 0:
                tile = np.rot90(render_numeral(typeface, int(rng.integers(1, 13)), height, ink,
                                               bool(rng.random() < 0.6)),
                                k=int(rng.choice([1, 3]))).copy()
            elif choice == 1:
                tile = render_text(typeface, "0", height, ink)
            else:
                tile = _shape_tile(rng, height, ink)
            add(tile, REJECT)
    return np.stack(rows), np.array(labels)


def train(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, hidden: int = 160,
          epochs: int = 30) -> dict[str, np.ndarray]:
    """A two-layer network, softmax cross-entropy, Adam, in numpy."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-3
    x = (x - mean) / scale
    classes = REJECT + 1
    params = {"w1": rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden)),
              "b1": np.zeros(hidden), "w2": rng.normal(0, np.sqrt(2 / hidden), (hidden, classes)),
              "b2": np.zeros(classes)}
    params = {k: v.astype(np.float32) for k, v in params.items()}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    step = 0
    for epoch in range(epochs):
        rate = 2e-3 * (0.5 ** (epoch // 10))
        order = rng.permutation(len(x))
        for start in range(0, len(x), 256):
            batch = order[start:start + 256]
            xb, yb = x[batch], y[batch]
            pre = xb @ params["w1"] + params["b1"]
            h = np.maximum(pre, 0)
            logits = h @ params["w2"] + params["b2"]
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1
            d_logits = p / len(yb)
            d_h = d_logits @ params["w2"].T * (pre > 0)
            grads = {"w2": h.T @ d_logits + 1e-4 * params["w2"], "b2": d_logits.sum(axis=0),
                     "w1": xb.T @ d_h + 1e-4 * params["w1"], "b1": d_h.sum(axis=0)}
            step += 1
            for name, grad in grads.items():
                m, v = moments[name]
                m[:] = 0.9 * m + 0.1 * grad
                v[:] = 0.999 * v + 0.001 * grad * grad
                params[name] -= rate * (m / (1 - 0.9 ** step)) / (
                    np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return {"mean": mean.astype(np.float32), "scale": scale.astype(np.float32), **params}


def accuracy(model: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray
             ) -> tuple[float, float, float, float]:
    """On a set: class accuracy; number accuracy ignoring which way up; shape accuracy, taking a
    6 and a turned 9 as one shape, as the reader does (its bar or index decides); and the share
    of shapes read wrong yet sure (the reader's SURE), the costly kind."""
    h = np.maximum((x - model["mean"]) / model["scale"] @ model["w1"] + model["b1"], 0)
    logits = h @ model["w2"] + model["b2"]
    predicted = np.argmax(logits, axis=1)
    odds = np.exp(logits - logits.max(axis=1, keepdims=True))
    sure = (odds.max(axis=1) / odds.sum(axis=1)) >= SURE
    number = np.where(predicted == REJECT, -1, predicted // 2)
    truth = np.where(y == REJECT, -1, y // 2)
    shape_right = _shape(predicted) == _shape(y)
    return (float((predicted == y).mean()), float((number == truth).mean()),
            float(shape_right.mean()), float((~shape_right & sure).mean()))


def _shape(classes: np.ndarray) -> np.ndarray:
    """Classes with a 6 upright and a 9 turned as one (and a 6 turned and a 9 upright)."""
    six_up, six_down, nine_up, nine_down = 10, 11, 16, 17
    return np.select([classes == nine_down, classes == nine_up], [six_up, six_down], classes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=MODEL_PATH,
                        help="where to write the model (to compare it before replacing one)")
    out = parser.parse_args().out
    rng = np.random.default_rng(SEED)
    typefaces = training_typefaces() + pypi_typefaces()
    print(f"{len(typefaces)} training typefaces", flush=True)
    x, y = make_set(rng, typefaces, per_class=2500)
    print(f"training on {len(x)} samples, {x.shape[1]} features", flush=True)
    model = train(x, y, rng)
    print("training typefaces (train set): class {:.4f}, number {:.4f}, shape {:.4f}, "
          "wrong but sure {:.4f}".format(*accuracy(model, x, y)))
    hx, hy = make_set(np.random.default_rng(SEED + 1), held_out_typefaces(), per_class=120)
    print("held-out typefaces: class {:.4f}, number {:.4f}, shape {:.4f}, "
          "wrong but sure {:.4f}".format(*accuracy(model, hx, hy)))
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **{k: v.astype(np.float16) for k, v in model.items()})
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
