"""Dense comparison of pieces in a photo with the cells of a picture (Tableau T4, T6).

A piece's body is sampled from the photo onto a small grid over its cell, for each of the four
ways it can be turned, and compared with every cell of the picture: colour after a light
correction (brightness free, tint within a bound), plus the correlation of the grey pattern
where either side has one. Only pixels the piece mask calls piece count, so blanks showing the
table do not; a neighbour's tab in a blank shows the picture's own content there when the
pieces are placed right, so it counts. This works on pieces with little texture, where
feature matching finds too few matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

GRID = 4
SAMPLES = 16  # samples per cell side
SUPERSAMPLE = 4  # each sample averages this many per side (no aliasing of fine texture)
MARGIN = 0.04  # the outermost samples stay this far inside the cell (share of its side)
# where each row (or column) of a cell's samples lies: its middle, as a share of the cell's side
# from the cell's middle
SAMPLE_CENTRES = (np.arange(SAMPLES) + 0.5) / SAMPLES * (1 - 2 * MARGIN) + MARGIN - 0.5
TINT = 1.25  # the light may tint one colour channel this much against the others
BRIGHTNESS = (0.45, 2.2)  # and change the brightness this much
TEXTURE = 10.0  # grey standard deviation from which a patch's pattern counts
PATTERN_WEIGHT = 0.25
STRUCTURE_FLOOR = 25.0  # (colour variance, summed over channels) below this a patch is flat
COARSE = 2.0  # (samples) the blur that takes a cell to the coarse scale (an eighth of its side)


@dataclass(frozen=True, eq=False)
class Bank:
    """A picture's cells sampled SAMPLES × SAMPLES, row by row: colour (16, S, S, 3) float32,
    and the cell size in picture pixels (width, height)."""
    cells: np.ndarray
    size: tuple[float, float]

    @cached_property
    def by_sample(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The cells as matrix columns for `scores`, made once per bank (every body of a photo
        is scored against the same bank): colour (P, N·3), its square, grey (P, N) and its
        square, float64, P samples a cell, N cells."""
        count = len(self.cells)
        picture = self.cells.reshape(count, -1, 3).astype(np.float64)
        colour = picture.transpose(1, 0, 2).reshape(picture.shape[1], count * 3)
        grey = picture.mean(-1).T
        return colour, colour ** 2, grey, grey ** 2

    @cached_property
    def texture(self) -> np.ndarray:
        """Each cell's colour standard deviation over its samples, the mean of its channels
        (cells,): made once per bank, which every reading of a photo judges by."""
        return self.cells.reshape(len(self.cells), -1, 3).std(1).mean(-1)

    @cached_property
    def turned(self) -> Bank:
        """The bank with every cell also turned by one, two and three quarter turns clockwise
        (cell i turned k times is entry 16 k + i): made once per bank, with its own by_sample,
        which every reading of a photo scores against."""
        return Bank(np.concatenate([np.rot90(self.cells, -k, axes=(1, 2)) for k in range(4)]),
                    self.size)

    @cached_property
    def coarse(self) -> Bank:
        """The bank at the coarse scale (`coarse`), made once per bank."""
        return Bank(coarse(self.cells, np.ones(self.cells.shape[:3], np.float32)), self.size)


def coarse(colour: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Cells' colours (…, S, S, 3) blurred by COARSE samples over the samples of `weight`
    (…, S, S) alone (a masked sample lends none of its colour): a repeating pattern's fine
    detail (dots, stripes, checks a few samples apart) averages out, and a piece laid a few
    pixels off its cell no longer reads its pattern out of phase."""
    blur = _COARSE_BLUR
    colours = np.einsum("ia,jb,...ijc->...abc", blur, blur, colour * weight[..., None])
    weights = np.einsum("ia,jb,...ij->...ab", blur, blur, weight)
    return (colours / np.maximum(weights, 1e-6)[..., None]).astype(np.float32)


# the blur along one side of a cell as a matrix (a row of samples times it is blurred)
_COARSE_BLUR = cv2.GaussianBlur(np.eye(SAMPLES, dtype=np.float32), (0, 1), COARSE)


def bank(image: np.ndarray) -> Bank:
    height, width = image.shape[:2]
    size = (width / GRID, height / GRID)
    cells = []
    for row in range(GRID):
        for col in range(GRID):
            centre = np.array([(col + 0.5) * size[0], (row + 0.5) * size[1]])
            cells.append(sample(image, centre, np.array([size[0], 0.0]),
                                np.array([0.0, size[1]])))
    return Bank(np.stack(cells).astype(np.float32), size)


def sample(image: np.ndarray, centre: np.ndarray, axis_x: np.ndarray,
           axis_y: np.ndarray) -> np.ndarray:
    """The cell whose centre is at `centre` and whose sides are the vectors `axis_x`, `axis_y`
    (pixels of `image`), sampled on a SAMPLES × SAMPLES grid."""
    return sample_many(image, np.asarray(centre)[None], [(axis_x, axis_y)])[0, 0]


_FINE = SAMPLES * SUPERSAMPLE
_STEPS = (np.arange(_FINE) + 0.5) / _FINE * (1 - 2 * MARGIN) + MARGIN - 0.5
_U, _V = np.meshgrid(_STEPS, _STEPS)


def sample_many(image: np.ndarray, centres: np.ndarray,
                axes: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """`sample` for every centre (n × 2) under every pair of cell sides: (n, len(axes), S, S
    [, channels])."""
    return sample_each(image, *_under_every(centres, axes))


def _under_every(centres: np.ndarray, axes: list[tuple[np.ndarray, np.ndarray]]
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The centres (n × 2) and the x and y sides of `axes`, shaped to broadcast together as
    sample_each takes them: every centre under every pair of sides."""
    return (np.asarray(centres, np.float64)[:, None],
            np.float64([axis_x for axis_x, _ in axes])[None],
            np.float64([axis_y for _, axis_y in axes])[None])


def sample_each(image: np.ndarray, centres: np.ndarray, x_sides: np.ndarray,
                y_sides: np.ndarray) -> np.ndarray:
    """The cell at each of `centres` whose sides are the matching `x_sides` and `y_sides` (all
    (…, 2), their leading axes broadcast together): (…, S, S[, channels]). One remap and one
    resize for all (per-call overhead was most of the time); the supersampled blocks are
    stacked, and an integer INTER_AREA reduction averages each block on its own, so every cell
    is exactly what `sample` alone gives."""
    centres, x_sides, y_sides = (np.asarray(part, np.float64)[..., None, None, :]
                                 for part in (centres, x_sides, y_sides))
    # x and y each on its own plane (…, fine, fine): no strided (…, 2) arrays
    x, y = (np.float32(centres[..., axis] + _U * x_sides[..., axis] + _V * y_sides[..., axis])
            for axis in (0, 1))
    shape = x.shape[:-2]
    count = int(np.prod(shape))
    dense = cv2.remap(image, x.reshape(count * _FINE, _FINE), y.reshape(count * _FINE, _FINE),
                      cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    small = cv2.resize(dense, (SAMPLES, count * SAMPLES), interpolation=cv2.INTER_AREA)
    return small.reshape(*shape, SAMPLES, SAMPLES, *image.shape[2:])


@dataclass(frozen=True, eq=False)
class Body:
    """One piece's body sampled for each quarter turn k (its cell's x side along the turn):
    colour (4, S, S, 3) and weight (4, S, S), 1 where the photo shows piece."""
    colour: np.ndarray
    weight: np.ndarray


def body(image: np.ndarray, mask: np.ndarray, mask_factor: float, centre: np.ndarray,
         axes: list[tuple[np.ndarray, np.ndarray]]) -> Body:
    """Sample a body from `image` (photo pixels / image pixel = 1) and `mask` (photo pixels
    per mask pixel = mask_factor) under each pair of cell sides in `axes`."""
    return bodies(image, mask, mask_factor, np.asarray(centre)[None], axes)


def bodies(image: np.ndarray, mask: np.ndarray, mask_factor: float, centres: np.ndarray,
           axes: list[tuple[np.ndarray, np.ndarray]]) -> Body:
    """`body` at every centre (n × 2) at once, stacked along the turn axis: entry
    len(axes) · j + k is centre j under axes[k]."""
    return paired_bodies(image, mask, mask_factor, *_under_every(centres, axes))


def paired_bodies(image: np.ndarray, mask: np.ndarray, mask_factor: float, centres: np.ndarray,
                  x_sides: np.ndarray, y_sides: np.ndarray) -> Body:
    """A body at each of `centres` with the matching sides (broadcast as sample_each takes
    them), stacked in order along the turn axis; `body`'s arguments otherwise."""
    weight = paired_weights(mask, mask_factor, centres, x_sides, y_sides)
    colour = sample_each(image, centres, x_sides, y_sides)
    return Body(colour.reshape(*weight.shape, -1).astype(np.float32), weight)


def paired_weights(mask: np.ndarray, mask_factor: float, centres: np.ndarray,
                   x_sides: np.ndarray, y_sides: np.ndarray) -> np.ndarray:
    """paired_bodies' weights alone, (n, S, S): where only the mask's cover is wanted, the
    photo is not sampled."""
    weight = np.clip(sample_each(mask.astype(np.float32), np.asarray(centres) / mask_factor,
                                 np.asarray(x_sides) / mask_factor,
                                 np.asarray(y_sides) / mask_factor), 0, 1)
    count = weight.size // (SAMPLES * SAMPLES)
    return (weight.reshape(count, SAMPLES, SAMPLES) > 0.5).astype(np.float32)


@dataclass(frozen=True, eq=False)
class Scores:
    """Sums for comparing a body (each turn) with every cell of a bank under any light
    correction: per turn k and cell i, the weighted sums of photo², photo·picture, picture² per channel,
    the weighted means of both, the total weight, and the pattern distance (0..1)."""
    photo_photo: np.ndarray  # (turns, cells, 3)
    photo_picture: np.ndarray
    picture_picture: np.ndarray
    photo_mean: np.ndarray  # (turns, 3)
    picture_mean: np.ndarray  # (turns, cells, 3)
    weight: np.ndarray  # (turns,)
    pattern: np.ndarray  # (turns, cells)

    def structure(self) -> np.ndarray:
        """(turns, cells) the correlation of the body's colour pattern with each cell's, every
        channel centred on its own mean: unchanged by the brightness and by an offset of each
        channel (a glare veil, a colour cast lifting the blacks), changed little by a tint (a
        flat patch correlates with nothing: its variance is floored at STRUCTURE_FLOOR)."""
        weight = self.weight[:, None, None]
        covariance = (self.photo_picture - weight * self.photo_mean[:, None]
                      * self.picture_mean).sum(-1)
        photo = (self.photo_photo[:, 0] - weight[:, 0] * self.photo_mean ** 2).sum(-1)
        picture = (self.picture_picture - weight * self.picture_mean ** 2).sum(-1)
        floor = STRUCTURE_FLOOR * self.weight
        return covariance / np.sqrt(np.maximum(photo, floor)[:, None]
                                    * np.maximum(picture, floor[:, None]))


def scores(piece: Body, cells: Bank, without_ramp: bool = False) -> Scores:
    """The sums for comparing the body with every cell. With `without_ramp`, the grey patterns
    are compared without their best-fitting planes (_without_ramp)."""
    # Every weighted sum over a cell's samples is a matrix product (turns × samples by samples
    # × cells), in float64 so that variances taken as E[x²] - E[x]² lose nothing: about a
    # tenth of the time of the broadcast sums this replaced, with the same results.
    turns, count = len(piece.colour), len(cells.cells)
    weight = piece.weight.reshape(turns, -1).astype(np.float64)  # (K, P)
    total = np.maximum(weight.sum(1), 1e-6)  # (K,)
    photo = piece.colour.reshape(turns, -1, 3).astype(np.float64)  # (K, P, 3)
    colour, colour_squared, grey, grey_squared = cells.by_sample  # (P, N·3), (P, N)
    weighted = weight[..., None] * photo
    photo_photo = np.broadcast_to((weighted * photo).sum(1)[:, None], (turns, count, 3))
    # per channel: (K, P) @ (P, N)
    photo_picture = (weighted.transpose(2, 0, 1) @ colour.reshape(-1, count, 3).transpose(
        2, 0, 1)).transpose(1, 2, 0)
    picture_picture = (weight @ colour_squared).reshape(turns, count, 3)
    photo_mean = weighted.sum(1) / total[:, None]
    picture_mean = (weight @ colour).reshape(turns, count, 3) / total[:, None, None]
    grey_photo = photo.mean(-1)  # (K, P)
    if without_ramp:
        centred_photo, var_picture = _without_ramp(grey_photo, weight, total, grey, grey_squared)
    else:
        centred_photo = grey_photo - (weight * grey_photo).sum(1, keepdims=True) / total[:, None]
        mean_picture = weight @ grey / total[:, None]  # (K, N)
        var_picture = weight @ grey_squared / total[:, None] - mean_picture ** 2
    var_photo = ((weight * centred_photo ** 2).sum(1) / total)[:, None]
    # the weighted centred photo is orthogonal to what was taken from it (its mean, or its
    # plane), so the picture needs no centring here
    covariance = (weight * centred_photo) @ grey / total[:, None]
    correlation = covariance / np.sqrt(np.maximum(var_photo, 1.0) * np.maximum(var_picture, 1.0))
    texture = np.clip(np.sqrt(np.maximum(var_photo, var_picture)) / TEXTURE, 0, 1)
    pattern = texture * (1 - correlation) / 2
    return Scores(photo_photo, photo_picture, picture_picture, photo_mean, picture_mean, total,
                  pattern)


# The samples' coordinates across a cell (-0.5..0.5; row by row, as a body's samples are) and
# a constant: a ramp of light across a body is a plane in them.
_PLANE = np.vstack([np.ones(SAMPLES * SAMPLES), *(axis.ravel() for axis in np.meshgrid(
    *(np.arange(SAMPLES) / (SAMPLES - 1) - 0.5,) * 2))])


def _without_ramp(grey_photo: np.ndarray, weight: np.ndarray, total: np.ndarray,
                  grey: np.ndarray, grey_squared: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The body's grey less its best-fitting plane, each turn's weighted least squares (K, P),
    and each cell's grey variance left over by its own plane under the same weights (K, N).
    The light on a table falls off across a piece (a shadow's soft edge, glare, the lamp's
    reach): a ramp the photo shows on a flat cell is light, not pattern, and would read as
    one that contradicts the cell. The picture's detail is kept, and a ramp of its colours
    still counts in the colour distance."""
    weighted_plane = weight[:, None, :] * _PLANE[None]  # (K, 3, P)
    normal = weighted_plane @ _PLANE.T + 1e-6 * np.eye(len(_PLANE))  # (K, 3, 3)
    photo_plane = np.linalg.solve(normal, weighted_plane @ grey_photo[..., None])  # (K, 3, 1)
    picture_projection = weighted_plane @ grey  # (K, 3, N)
    explained = (np.linalg.solve(normal, picture_projection) * picture_projection).sum(1)
    return (grey_photo - (_PLANE.T[None] @ photo_plane)[..., 0],
            (weight @ grey_squared - explained) / total[:, None])


def under_own_ramp(piece: Body, cells: Bank, bound: float) -> np.ndarray:
    """(turns, cells) the colour distance (RMS, share of full scale) of the body under each
    turn to every cell, the body lit for each cell by its own plane of brightness: the log
    ratio of the cell's grey to the body's, fitted over the samples (weighted least squares),
    within 1 / `bound` .. `bound` at every sample. The edge of a cast shadow or of a glare
    patch crossing a piece is such a ramp, one the light of the pieces around it need not
    show (at a corner of the rectangle it has no pieces beyond it to show it)."""
    turns = len(piece.colour)
    weight = piece.weight.reshape(turns, -1).astype(np.float64)  # (K, P)
    photo = piece.colour.reshape(turns, -1, 3).astype(np.float64)  # (K, P, 3)
    picture = cells.cells.reshape(len(cells.cells), -1, 3).astype(np.float64)  # (N, P, 3)
    ratio = np.log((picture.mean(-1)[None] + 4) / (photo.mean(-1)[:, None] + 4))  # (K, N, P)
    weighted_plane = weight[:, None, :] * _PLANE[None]  # (K, 3, P)
    normal = weighted_plane @ _PLANE.T + 1e-6 * np.eye(len(_PLANE))  # (K, 3, 3)
    planes = np.linalg.solve(normal, weighted_plane @ ratio.transpose(0, 2, 1))  # (K, 3, N)
    field = np.clip(planes.transpose(0, 2, 1) @ _PLANE, -np.log(bound), np.log(bound))
    squared = ((photo[:, None] * np.exp(field)[..., None] - picture[None]) ** 2).mean(-1)
    total = np.maximum(weight.sum(1), 1e-6)[:, None]
    return np.sqrt((squared * weight[:, None]).sum(-1) / total) / 255


def light(photo_mean: np.ndarray, picture_mean: np.ndarray) -> np.ndarray:
    """The per-channel gain taking photo colours to picture colours, within the bounds light
    can plausibly have (..., 3)."""
    ratio = (picture_mean + 4) / (photo_mean + 4)
    level = np.clip(np.exp(np.log(ratio).mean(-1, keepdims=True)), *BRIGHTNESS)
    return level * np.clip(ratio / level, 1 / TINT, TINT)


def distance(scored: Scores, gain: np.ndarray, turn: np.ndarray, cell: np.ndarray,
             pattern_weight: float = PATTERN_WEIGHT) -> np.ndarray:
    """Colour (RMS after `gain`, share of full scale) plus pattern distance (`pattern_weight`)
    of the body under `turn` to `cell`; arrays broadcast together, gain has a last axis of 3."""
    squared = (gain ** 2 * scored.photo_photo[turn, cell] - 2 * gain
               * scored.photo_picture[turn, cell] + scored.picture_picture[turn, cell]).sum(-1)
    colour = np.sqrt(np.maximum(squared, 0) / scored.weight[turn] / 3) / 255
    return colour + pattern_weight * scored.pattern[turn, cell]


def brightness(scored: Scores, turn: np.ndarray, cell: int | np.ndarray, bound: float
               ) -> np.ndarray:
    """The one gain for all channels (least squares, within 1 / `bound` .. `bound`) taking the
    body under `turn` nearest `cell`'s colours: (..., 3) as `distance` takes it."""
    fitted = scored.photo_picture[turn, cell].sum(-1) / np.maximum(
        scored.photo_photo[turn, cell].sum(-1), 1e-9)
    return np.repeat(np.clip(fitted, 1 / bound, bound)[..., None], 3, -1)


# Across a pair of joined pieces the light (a shadow's soft edge, glare, the lamp's reach) is
# one smooth field of brightness, here quadratic in the photo's coordinates: smooth enough that
# the picture's own detail is not lit away, curved enough to follow a soft shadow's edge.
_SAMPLE_U, _SAMPLE_V = np.meshgrid(SAMPLE_CENTRES, SAMPLE_CENTRES)


def sample_points(centre: np.ndarray, axis_x: np.ndarray, axis_y: np.ndarray) -> np.ndarray:
    """Where in the image `sample` takes each of a cell's samples (S, S, 2): the middles of
    its supersampled blocks."""
    return (np.asarray(centre, np.float64)[None, None] + _SAMPLE_U[..., None] * axis_x
            + _SAMPLE_V[..., None] * axis_y)


def under_one_light(pieces: list[Body], cells: list[np.ndarray], points: list[np.ndarray]
                    ) -> list[Body]:
    """The bodies (one turn each) relit together against the cells they are laid on: the log
    ratio of each cell's grey to its body's, at every sample's image point (`points`, S × S × 2
    each), fitted by one quadratic field over all of them (weighted least squares), and every
    body's colours multiplied by that field. One field for all: a body cannot be lit into its
    cell without its partner being lit the same way."""
    every = np.concatenate([point.reshape(-1, 2) for point in points])
    middle, reach = every.mean(0), max(float(np.ptp(every, 0).max()), 1.0)
    terms, ratios, weights = [], [], []
    for piece, cell, point in zip(pieces, cells, points, strict=True):
        x, y = ((point.reshape(-1, 2) - middle) / reach).T
        terms.append(np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], 1))
        ratios.append(np.log((cell.reshape(-1, 3).mean(-1) + 4)
                             / (piece.colour[0].reshape(-1, 3).mean(-1) + 4)))
        weights.append(np.sqrt(piece.weight[0].ravel()))
    weight = np.concatenate(weights)
    field, *_ = np.linalg.lstsq(np.concatenate(terms) * weight[:, None],
                                np.concatenate(ratios) * weight, rcond=None)
    return [Body(piece.colour * np.exp(term @ field).reshape(1, SAMPLES, SAMPLES, 1)
                 .astype(np.float32), piece.weight)
            for piece, term in zip(pieces, terms, strict=True)]


def distance_to(piece: Body, cell: np.ndarray) -> float:
    """`distance` of a body (one turn) to one cell (S × S × 3), under its own light correction,
    the grey patterns compared without their ramps."""
    scored = scores(piece, Bank(cell[None].astype(np.float32), (1.0, 1.0)), without_ramp=True)
    gain = light(scored.photo_mean, scored.picture_mean[:, 0])
    return float(distance(scored, gain, np.zeros(1, int), np.zeros(1, int))[0])
