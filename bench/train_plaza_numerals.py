"""Trains the Plaza numeral classifier and writes vision/data/cards/numerals.npz.

`python bench/train_plaza_numerals.py` (a few minutes on one core). Samples are numerals 1-12
rendered in the training typefaces only (DejaVu family, three Hershey fonts, the KaTeX faces
flet ships, and where installed the Debian font packages fonts-urw-base35, fonts-freefont-ttf,
fonts-crosextra-carlito and fonts-noto-core: breadth of digit shapes), both ways up, with
turns, shear, stretch, a camera's perspective (up to about 30° of tilt), thin and bold strokes,
two-digit numbers set loose or tight, blur, noise, JPEG and uneven ink; the reject class holds
numerals lying sideways, lone zeros and shapes that decks print as artwork. The features are
vision.cards' own, computed the same way as the reader does. The held-out typefaces (Liberation,
two other Hershey fonts) give the accuracy printed at the end; they are never trained on.
"""

from __future__ import annotations

import argparse
import glob
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
# Debian font packages with Latin digits (training only: the reader needs none of them); not their
# symbol, dingbat and script faces. Liberation stays out: it is held out.
EXTRA_FONTS = ("/usr/share/fonts/opentype/urw-base35/[CNPU]*.otf",
               "/usr/share/fonts/truetype/freefont/*.ttf",
               "/usr/share/fonts/truetype/crosextra/*.ttf",
               *(f"/usr/share/fonts/truetype/noto/{family}-*.ttf"
                 for family in ("NotoSans", "NotoSerif", "NotoSansDisplay", "NotoSerifDisplay")))


def all_training_typefaces() -> tuple[Typeface, ...]:
    """render_plaza's training faces plus whatever of EXTRA_FONTS is installed."""
    extra = sorted({path for pattern in EXTRA_FONTS for path in glob.glob(pattern)})
    return training_typefaces() + tuple(Typeface(path) for path in extra)



def _inkness(tile: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Paste an RGBA tile on paper, distort it like a photo would, and return 1 - min channel
    of the paper-normalised image, as the reader sees it."""
    h, w = tile.shape[:2]
    pad = int(max(h, w) * 0.4) + 6
    paper = np.array(PAPERS[rng.integers(len(PAPERS))], np.float32)
    canvas = np.empty((h + 2 * pad, w + 2 * pad, 3), np.float32)
    canvas[:] = paper
    alpha = tile[..., 3:4].astype(np.float32) / 255 * _uneven(rng, (h, w))[..., None]
    canvas[pad:pad + h, pad:pad + w] = canvas[pad:pad + h, pad:pad + w] * (1 - alpha) \
        + tile[..., :3] * alpha
    canvas = cv2.warpPerspective(canvas, _camera(rng, canvas.shape[1], canvas.shape[0]),
                                 (canvas.shape[1], canvas.shape[0]),
                                 borderMode=cv2.BORDER_REPLICATE)
    sigma = rng.uniform(0, 0.06) * h
    if sigma > 0.3:
        canvas = cv2.GaussianBlur(canvas, (0, 0), sigma)
    canvas += rng.normal(0, rng.uniform(1, 8), canvas.shape[:2])[..., None]
    if rng.random() < 0.5:
        quality = int(rng.integers(40, 95))
        canvas = cv2.imdecode(cv2.imencode(".jpg", np.clip(canvas, 0, 255).astype(np.uint8),
                                           [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                              cv2.IMREAD_COLOR).astype(np.float32)
    normalised = canvas / (paper * rng.uniform(0.9, 1.1, 3))
    darkest = np.minimum(np.minimum(normalised[..., 0], normalised[..., 1]), normalised[..., 2])
    return np.clip(1 - darkest, 0, 1).astype(np.float32)


def _uneven(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Ink strength over a numeral: a smooth field, worn in places."""
    field = cv2.resize(rng.uniform(0, 1, (3, 3)).astype(np.float32), shape[::-1],
                       interpolation=cv2.INTER_CUBIC)
    low = rng.uniform(0.55, 1.0)
    return np.clip(low + (1 - low) * field, 0, 1)


def _camera(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A small turn, shear and stretch, and a camera's slant of up to about 30° (the far side
    shrinks by up to a quarter), about the canvas centre: a homography."""
    centre = np.array([width / 2, height / 2])
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64) - centre
    turn = np.radians(rng.uniform(-8, 8))
    shape = np.array([[rng.uniform(0.85, 1.15), rng.uniform(-0.15, 0.15)],
                      [rng.uniform(-0.06, 0.06), rng.uniform(0.9, 1.1)]])
    rotate = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    moved = corners @ (rotate @ shape).T
    far = rng.integers(4)
    shrink = rng.uniform(0, 0.25)
    for corner in (far, (far + 1) % 4):
        moved[corner] *= 1 - shrink
    return cv2.getPerspectiveTransform((corners + centre).astype(np.float32),
                                       (moved + centre).astype(np.float32))


def _side_by_side(tiles: list[np.ndarray], gap: int, ink: tuple[int, int, int]) -> np.ndarray:
    """Two RGBA tiles on one baseline, `gap` pixels apart."""
    gap = max(gap, 0)
    tall = max(tile.shape[0] for tile in tiles)
    joined = np.zeros((tall, tiles[0].shape[1] + gap + tiles[1].shape[1], 4), np.uint8)
    joined[..., :3] = ink
    for tile, left in zip(tiles, (0, tiles[0].shape[1] + gap), strict=True):
        top = tall - tile.shape[0]
        joined[top:, left:left + tile.shape[1], 3] = np.maximum(
            joined[top:, left:left + tile.shape[1], 3], tile[..., 3])
    return joined


def _reject_piece(rng: np.random.Generator, typeface: Typeface, height: int,
                  ink: tuple[int, int, int]) -> np.ndarray:
    """What the reader may see that is no numeral: a numeral lying sideways (along the wrong
    axis; its 6/9 bar then stands upright), a lone zero, a ring or other artwork."""
    choice = rng.integers(4)
    if choice == 0:
        return np.rot90(render_numeral(typeface, int(rng.integers(1, 13)), height, ink,
                                       bool(rng.random() < 0.6)),
                        k=int(rng.choice([1, 3]))).copy()
    if choice == 1:
        return render_text(typeface, "0", height, ink)
    return _shape_tile(rng, height, ink)


def _numeral_tile(rng: np.random.Generator, typeface: Typeface, number: int, height: int,
                  ink: tuple[int, int, int]) -> np.ndarray:
    """The card's numeral in a typeface, its two digits sometimes set apart by a random gap
    (decks differ in kerning and digit width), its strokes sometimes thinner or bolder."""
    mark = bool(rng.random() < 0.6)
    if number >= 10 and rng.random() < 0.4:
        tile = _side_by_side([render_text(typeface, digit, height, ink) for digit in str(number)],
                             int(rng.uniform(-0.02, 0.35) * height), ink)
    else:
        tile = render_numeral(typeface, number, height, ink, mark)
    weight = int(round(rng.uniform(-0.035, 0.05) * height))
    if weight and rng.random() < 0.5:
        grow = abs(weight) + 1
        alpha = cv2.copyMakeBorder(tile[..., 3], grow, grow, grow, grow, cv2.BORDER_CONSTANT,
                                   value=0)
        changed = (cv2.dilate if weight > 0 else cv2.erode)(alpha, np.ones((grow, grow), np.uint8))
        if changed.sum() > 0.5 * alpha.sum():  # thin, but not gone
            tile = np.zeros((*changed.shape, 4), np.uint8)
            tile[..., :3] = ink
            tile[..., 3] = changed
    return tile


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
            tile = _numeral_tile(rng, typeface, number, height, ink)
            add(tile, 2 * (number - 1))
            add(tile[::-1, ::-1].copy(), 2 * (number - 1) + 1)
        for _ in range(5):  # the reject class, alone or two pieces set like two digits
            typeface = typefaces[rng.integers(len(typefaces))]
            height = int(rng.uniform(12, 70))
            ink = inks[rng.integers(len(inks))]
            tile = _reject_piece(rng, typeface, height, ink)
            if rng.random() < 0.25:
                other = _reject_piece(rng, typeface, height, ink)
                pieces = [tile, other] if rng.random() < 0.5 else [other, tile]
                tile = _side_by_side(pieces, int(rng.uniform(0, 0.5) * height), ink)
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
    6 and a turned 9 as one shape, as the reader does (its bar decides); and the share of shapes
    read wrong yet sure (the reader's SURE), the costly kind."""
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
    x, y = make_set(rng, all_training_typefaces(), per_class=1500)
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
