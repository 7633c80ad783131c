"""Jigsaw pieces on a table, found by colour and shape alone (no picture needed).

- The table is what the photo's border shows: a few Lab colours (k-means over a ring along the
  border; a colour rare there is a piece reaching the border and is dropped). A pixel is piece
  when it is far from every table colour and every blend of two (texture, shading and the
  table's own edges are blends), by a margin taken from how far the border's own pixels are
  (a textured table gets a wider margin). Holes are filled for the outline (a piece has none,
  so a table-coloured patch inside one is piece too) but kept in `bare`, where a gap closed in
  by two pieces that do not interlock shows as a hole. Where the grain finds a piece's print,
  a part found by colour alone with no print, the weave's grain and no cut outline is the
  cloth (a tartan's crossing, too rare along the border for a table colour; light on it).
- Glare and shadow on the table are no piece: a region of colours a table colour explains
  under more or less light (glare adds white, shade dims) whose outline against the table is
  mostly soft; a piece ends at its cut outline, a sharp edge, which light beside it does not
  cross.
- The pieces' orientation (modulo a quarter turn) comes from the outline's gradient directions:
  their straight shoulders and borders agree, the round tabs cancel out.
- Turned upright by that angle, a set of pieces is read from its row and column profiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

MASK_LONG_SIDE = 512  # pieces are segmented at this size: a cell is still 80+ pixels wide
TABLE_COLOURS = 8
RARE_COLOUR = 0.04  # a border colour rarer than this is a piece reaching the border, not table
LIGHTNESS_WEIGHT = 0.5  # uneven light and glare change the table's lightness more than its hue
LIGHTNESS_SLACK = 6.0  # (weighted Lab units)
QUANTUM = 1.5  # colours this close share one distance computation
LARGEST_SHARE = 0.2  # parts smaller than this share of the largest are specks or glare
TABLE_COLOURED = 0.9  # a part with this share of its pixels of the table's colours is print by
# its grain alone
SOLID = 0.65  # a piece (body, tabs and blanks) fills 0.75-0.9 of its convex hull, a fragment of
# one under light 0.7 and more
SEED = 7


@dataclass(frozen=True, eq=False)
class Pieces:
    """The pieces' mask (uint8 0/1, holes filled) at `factor` photo pixels per mask pixel, the
    same before filling (`bare`: a gap closed in by two pieces is a hole), and the pieces' angle
    (radians, modulo a quarter turn) in the photo; the table colours (weighted Lab, lab_of) and
    the margin beyond which a colour is piece, to read finer detail at another size; `smooth`
    marks what is piece by its grain whatever its colour (smooth_regions)."""
    mask: np.ndarray
    bare: np.ndarray
    factor: float
    angle: float
    table: np.ndarray | None = None
    margin: float = 0.0
    smooth: np.ndarray | None = None

    @property
    def area(self) -> int:
        return int(self.mask.sum())


def lab_of(image: np.ndarray) -> np.ndarray:
    """The image in Lab, lightly blurred, lightness weighted down (uneven light)."""
    return weighted_lab(cv2.GaussianBlur(image, (0, 0), 1.2))


def weighted_lab(image: np.ndarray) -> np.ndarray:
    """The image (BGR, uint8) in Lab, lightness weighted down (uneven light): the colours the
    segmentation measures by."""
    return cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32) \
        * np.float32([LIGHTNESS_WEIGHT, 1, 1])


def border_ring(image: np.ndarray) -> np.ndarray:
    """The pixels of a ring along the image's border (n × channels, or n for one channel)."""
    height, width = image.shape[:2]
    ring = max(3, min(height, width) // 25)
    channels = image.shape[2:]
    return np.concatenate([image[:ring].reshape(-1, *channels),
                           image[-ring:].reshape(-1, *channels),
                           image[:, :ring].reshape(-1, *channels),
                           image[:, -ring:].reshape(-1, *channels)])


CHUNK = 2048  # colours met with the table's at a time: their (n, table colours) planes then
# stay in the processor's cache (a whole photo's went to memory and back: up to twice as slow)


def _by_chunks(function, pixels: np.ndarray, *arguments) -> np.ndarray:
    """function(chunk, *arguments) of each CHUNK of `pixels` (n × 3), joined: for work done
    pixel by pixel, so the same to the bit as on all at once."""
    done = [function(pixels[start:start + CHUNK], *arguments)
            for start in range(0, len(pixels), CHUNK)]
    return np.concatenate(done) if done else np.zeros(0, np.float32)


def nearest_table(pixels: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Distance from each pixel to the nearest table colour or blend of two of them (the table's
    edges, a blurred texture and shading between its colours are blends), with some slack in
    lightness (uneven light)."""
    first, second = np.triu_indices(len(centres))
    start, run = centres[first], centres[second] - centres[first]
    return _by_chunks(_nearest_blend, pixels.reshape(-1, 3), start, run).reshape(
        pixels.shape[:-1])


def _nearest_blend(pixels: np.ndarray, start: np.ndarray, run: np.ndarray) -> np.ndarray:
    """nearest_table of pixels (n × 3) with the blends from `start` along `run` (m × 3)."""
    channels = _channels(pixels)
    offset = channels - start.T[:, None]
    along = np.clip(_dot(offset, run) / np.maximum((run ** 2).sum(-1), 1e-6), 0, 1)
    gap = offset  # its memory reused: `along` has read the offsets
    for channel in range(3):
        np.subtract(channels[channel], start[:, channel] + along * run[:, channel],
                    out=gap[channel])
    lightness = np.maximum(np.abs(gap[0]) - LIGHTNESS_SLACK, 0)
    # the root after the least: it is monotonic and exactly rounded, so the same to the bit
    return np.sqrt((lightness ** 2 + gap[1] ** 2 + gap[2] ** 2).min(-1))


def _channels(pixels: np.ndarray) -> np.ndarray:
    """The pixels (any shape ending in 3) as three channel planes (3, n, 1), to meet m colours
    in (n, m) planes: far less memory traffic than (n, m, 3) arrays reduced over their last axis."""
    return pixels.reshape(-1, 3).T[:, :, None]


def _dot(planes: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """(n, m) the dot products of channel `planes` (3, n, m or 1) with `colours` (m × 3), summed
    in channel order (as .sum(-1) over (n, m, 3), to the bit)."""
    return planes[0] * colours[:, 0] + planes[1] * colours[:, 1] + planes[2] * colours[:, 2]


BY_COUNTING = 2  # (codes' box over pixels) distinct codes are found by counting in a box this small


def _distinct_colours(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct colour codes (n × 3 ints, 0..511) of `codes` (any shape ending in 3), in
    order, and each pixel's row among them (the shape of `codes` without its last axis): many
    pixels share a colour, so what is computed per colour is computed once per distinct one."""
    flat = codes.reshape(-1, 3)
    low, high = (flat.min(0), flat.max(0)) if len(flat) else (np.zeros(3, np.int32),) * 2
    span = high - low + 1  # the codes' box: a photo's colours fill little of it
    key = ((flat[:, 0] - low[0]) * span[1] + flat[:, 1] - low[1]) * span[2] + flat[:, 2] - low[2]
    if span.prod() <= BY_COUNTING * len(key):
        # the distinct codes by counting, not sorting: 3 times as fast, the same result
        seen = np.bincount(key, minlength=int(span.prod())) > 0
        distinct, where = np.flatnonzero(seen), (np.cumsum(seen) - 1)[key]
    else:  # a box too large to count in, within a fixed memory bound
        distinct, where = np.unique(key, return_inverse=True)
    colours = np.stack([distinct // (span[1] * span[2]), distinct // span[2] % span[1],
                        distinct % span[2]], 1) + low
    return colours.astype(np.int32), where.reshape(codes.shape[:-1])


def _quantised(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """lab_of's colours quantised finely (QUANTUM), each distinct one once (_distinct_colours)."""
    return _distinct_colours(np.round(lab / QUANTUM).astype(np.int32))


def _table_distance(quantised: tuple[np.ndarray, np.ndarray], centres: np.ndarray) -> np.ndarray:
    """nearest_table for every pixel of an image's `quantised` colours, computed once per
    distinct colour."""
    colours, where = quantised
    return nearest_table(colours.astype(np.float32) * QUANTUM, centres)[where]


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """The mask with every region it encloses filled."""
    padded = np.pad(mask, 1).astype(np.uint8)
    outside = padded.copy()
    flood = np.zeros((padded.shape[0] + 2, padded.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, flood, (0, 0), 2)
    return (outside != 2)[1:-1, 1:-1].astype(np.uint8)


def orientation(mask: np.ndarray) -> float:
    """The angle of the outline's straight parts, modulo a quarter turn (radians, 0..π/2):
    the mean of the gradient directions taken four times round the circle, weighted by
    gradient strength."""
    smooth = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), 1.5)
    dx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)
    dy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    edge = (dx != 0) | (dy != 0)  # the blurred outline: a small share of the mask
    dx, dy = dx[edge], dy[edge]
    total = (np.hypot(dx, dy) * np.exp(4j * np.arctan2(dy, dx))).sum()
    return float(np.angle(total) / 4) % (np.pi / 2)


def find_pieces(photo: MaskPhoto, smallest: float = 0.002) -> Pieces:
    """Segment the pieces in a photo (mask_photo) with the table's colours from the photo's
    border ring. Parts smaller than `smallest` of the frame are dropped as specks."""
    border = border_ring(photo.lab)
    return segment(photo, border[:: max(1, len(border) // 3000)], smallest)


NOISE_SCALE = 0.5  # (photo pixels) detail finer than this is the camera's noise and JPEG's:
# it is on the pieces too, and on a dim or noisy photo it hides how much smoother print is
GRAIN_SCALE = 2.0  # (photo pixels) a cloth's weave or a wood's grain shows between the two
GRAIN_BLUR, SHARP_GRAIN_BLUR = 1.0, 0.7  # (mask pixels) grain is averaged over this: an edge
# of the print or the cut hides no more of a piece's smooth print than that
SMOOTHER = 0.7  # a region whose grain is below this share of the table's smoothest (its border
# ring's 5th percentile) is a printed piece: a cloth's weave shows everywhere, even under light
SMOOTH_REACH = 3  # (mask pixels) the grain of a piece's cut outline hides its edge: grown back
RIDGE = 1.2  # a piece's cut outline shows as grain over this many times the table's median all
# round it; glare and shade fade into the table's grain
CREST_REACH = 8  # (mask pixels) the most a region climbs towards its outline's crest: a strong
# edge's grain, over GRAIN_BLUR, keeps smooth print about three blurs from it
NOISE_KERNEL = np.float32([[1, -2, 1], [-2, 4, -2], [1, -2, 1]]) / 6  # a second difference both
# ways: blind to shading and broad print, it reads white noise at its own RMS (Immerkær)
NOISE_RATIO_BLUR = 3.0  # (mask pixels) the grain's share of noise is read over this
FLATTEST = 2  # (percentile) the photo's flattest part, a piece's plain print, holds only noise
EXCESS_BLUR = 2.0  # (mask pixels) the grain beyond noise is averaged over this: noise's
# own grain cancels out only over a few pixels
AT_NOISE = 0.7  # (share of the noise's grain) print's grain beyond the noise averages 0.3-0.55
# of it, a cloth's weave under glare 1 and more
LOUDEST = 1.15  # (noise RMS against the table's) print in shade reads 0.8-1.1 of the table's
# noise, glare 1.7-3: shade lowers noise, but the estimate wanders by a tenth
WEAVE = (25, 95)  # (percentiles of the border ring's grain) a cloth's own weave reads between
# these: a part smoother than most of the table (a flat piece on a polka cloth, whose smooth
# ground is rare and rough dot edges common) is no weave


def _fine_texture(work: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The photo's fine grain at mask size: the local RMS of its grey detail between NOISE_SCALE
    and GRAIN_SCALE, over GRAIN_BLUR and over SHARP_GRAIN_BLUR, and that grain beyond the
    camera's noise and the noise's loudness (_beyond_noise). A cloth's colours may be any
    piece's, but its weave is rougher than print."""
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY).astype(np.float32)
    detail = cv2.GaussianBlur(grey, (0, 0), NOISE_SCALE) \
        - cv2.GaussianBlur(grey, (0, 0), GRAIN_SCALE)
    power, _ = at_mask_size(detail * detail)
    texture, sharp = (np.sqrt(cv2.GaussianBlur(power, (0, 0), blur))
                      for blur in (GRAIN_BLUR, SHARP_GRAIN_BLUR))
    return texture, sharp, *_beyond_noise(grey, power)


def _beyond_noise(grey: np.ndarray, power: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The grain beyond what the camera's noise puts in its band, as a share of the noise's own
    grain there, and the noise's RMS against the table's (its border ring's median), at mask
    size (`power`: the grain's power at mask size). Noise is the same on print and cloth, but a
    shadow dims the weave and not the noise: in shade a cloth's grain falls towards the noise
    and a piece's print, which has only the noise, no longer reads much smoother; beyond the
    noise, print has none and the weave its own. The noise is read at each place (NOISE_KERNEL)
    and its share in the grain's band is that of the photo's flattest part."""
    residual = cv2.filter2D(grey, -1, NOISE_KERNEL)
    noise, _ = at_mask_size(residual * residual)
    wide = cv2.GaussianBlur(power, (0, 0), NOISE_RATIO_BLUR) \
        / np.maximum(cv2.GaussianBlur(noise, (0, 0), NOISE_RATIO_BLUR), 1e-6)
    noise = cv2.GaussianBlur(noise, (0, 0), EXCESS_BLUR)
    loudness = np.sqrt(noise / max(float(np.median(border_ring(noise))), 1e-6))
    noise *= float(np.percentile(wide, FLATTEST))
    excess = np.maximum(cv2.GaussianBlur(power, (0, 0), EXCESS_BLUR) - noise, 0)
    return np.sqrt(excess / np.maximum(noise, 1e-6)), loudness


def smooth_regions(texture: np.ndarray, sharp: np.ndarray, excess: np.ndarray,
                   loudness: np.ndarray) -> np.ndarray:
    """What the photo's grain marks as piece whatever its colour, at mask size (uint8 0/1):
    regions much smoother than the table's border (see SMOOTHER), grown over the grain their
    outline shows, and kept only when that outline is a ridge of grain most of the way round
    (RIDGE), then grown over what a sharper look shows as print and up the ridge to just short
    of its crest, the cut (_climb); specks dropped. Once per photo: every segmentation of it
    reuses them. `texture`, `sharp`, `excess` and `loudness` are the photo's grain and noise
    (_fine_texture): a region is smooth by its grain, or by its grain beyond the noise in shade
    (_at_noise)."""
    table = border_ring(texture)
    smooth = (texture < SMOOTHER * np.percentile(table, 5)).astype(np.uint8) \
        | _at_noise(excess, loudness)
    smooth = cv2.morphologyEx(smooth, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * SMOOTH_REACH + 1,) * 2)
    grown = cv2.dilate(smooth, reach)
    count, labels = cv2.connectedComponents(grown, connectivity=8)
    around = cv2.dilate(labels.astype(np.float32), reach).astype(np.int32)
    ring = (around > 0) & (grown == 0)
    ridge = np.bincount(around[ring], texture[ring] > RIDGE * np.median(table), minlength=count)
    outlined = 2 * ridge > np.bincount(around[ring], minlength=count)
    outlined[0] = False
    regions = outlined[labels].astype(np.uint8)
    # a tab's head, beyond its neck, is smooth only at a sharper look: what is smoother than
    # nearly all of the table at that look, and joined to a region, is print too
    print_like = (sharp < np.percentile(border_ring(sharp), 5)).astype(np.uint8) | regions
    count, labels = cv2.connectedComponents(print_like, connectivity=8)
    reached = np.zeros(count, bool)
    reached[labels[regions > 0]] = True
    reached[0] = False
    return _climb(reached[labels].astype(np.uint8), sharp)


def _at_noise(excess: np.ndarray, loudness: np.ndarray) -> np.ndarray:
    """Regions (uint8 0/1) whose grain beyond the noise (_beyond_noise) is below SMOOTHER of the
    table's smoothest (its border ring's 5th percentile) and, over the region, below AT_NOISE
    of the noise's own, with noise no louder than the table's (LOUDEST): print in shade. Glare
    on a cloth fades its weave too, but not to the noise; glare on glass or shiny print fades
    what grain there is as shade does, but its noise is no camera noise of the table's (it reads
    two or three times louder), and shade only lowers noise. None when the table's smoothest
    shows no more than AT_NOISE beyond the noise (a blurred photo, a plain cloth): then grain
    beyond the noise tells print from nothing."""
    table = float(np.percentile(border_ring(excess), 5))
    if table < AT_NOISE:
        return np.zeros(excess.shape, np.uint8)
    faint = (excess < SMOOTHER * table).astype(np.uint8)
    faint = cv2.morphologyEx(faint, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels = cv2.connectedComponents(faint, connectivity=8)
    area = np.maximum(np.bincount(labels.ravel(), minlength=count), 1)
    level, loud = (np.bincount(labels.ravel(), plane.ravel(), minlength=count) / area
                   for plane in (excess, loudness))
    plain = (level < AT_NOISE) & (loud <= LOUDEST)
    plain[0] = False
    return plain[labels].astype(np.uint8)


def _climb(regions: np.ndarray, texture: np.ndarray) -> np.ndarray:
    """The regions grown up the grain around them to just short of its crest (at most
    CREST_REACH): a pixel joins when its grain is at least that of every region pixel beside it
    and some pixel beside it outside them is higher still. Two pieces' cut is one thin line,
    its grain blurred into a ridge as wide as a tab's neck; the smooth parts on either side
    stop short of it by the blur's reach, and climbing their flanks they leave only the crest,
    where the cut is, between them. Beyond a piece's outline the grain falls again to the
    table's, which no region climbs down into."""
    regions = regions.copy()
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(CREST_REACH):
        beside = cv2.dilate(np.where(regions > 0, texture, -1).astype(np.float32), kernel)
        higher = cv2.dilate(np.where(regions > 0, -1, texture).astype(np.float32), kernel)
        climbing = (regions == 0) & (beside >= 0) & (texture >= beside) & (higher > texture)
        if not climbing.any():
            break
        regions[climbing] = 1
    return regions


def at_mask_size(work: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo reduced to MASK_LONG_SIDE, and the factor that reduced it."""
    factor = max(1.0, max(work.shape[:2]) / MASK_LONG_SIDE)
    small = cv2.resize(work, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA) \
        if factor > 1 else work
    return small, factor


@dataclass(frozen=True, eq=False)
class MaskPhoto:
    """A photo at mask size, prepared once for every segmentation of it (a count segments one
    photo many times, with the table sampled in different places): its colours (lab_of),
    photo pixels per mask pixel, what its grain marks as piece (smooth_regions), that grain
    (_fine_texture, over GRAIN_BLUR) and the grain beyond the noise (_beyond_noise)."""
    lab: np.ndarray
    factor: float
    smooth: np.ndarray
    grain: np.ndarray
    excess: np.ndarray

    @cached_property
    def quantised(self) -> tuple[np.ndarray, np.ndarray]:
        """Its colours quantised, each distinct one once (_quantised): sorting them took a
        sixth of a count's time when done for every segmentation."""
        return _quantised(self.lab)

    @cached_property
    def bgr(self) -> tuple[np.ndarray, np.ndarray]:
        """Its colours in BGR (8 bits, exact), each distinct one once (_distinct_colours)."""
        return _distinct_colours(np.round(_bgr_of(self.lab) * 255).astype(np.int32))

    @cached_property
    def edge(self) -> np.ndarray:
        """Its colour gradient (_edge)."""
        return _edge(self.lab)

    @cached_property
    def weave(self) -> tuple[float, float]:
        """The grain a cloth's own weave reads between (its border ring's WEAVE percentiles)."""
        smoothest, roughest = np.percentile(border_ring(self.grain), WEAVE)
        return float(smoothest), float(roughest)

    @cached_property
    def cuts(self) -> np.ndarray:
        """Its cuts: edges sharper than SOFT_EDGE and than the table's own (its border ring's
        TABLE_EDGES percentile) that are steps, much less sharp blurred. A small strong glare's
        flank is as steep, but as steep blurred, and must not part its core from its soft rim."""
        edge = self.edge
        return ((edge >= max(SOFT_EDGE, float(np.percentile(border_ring(edge), TABLE_EDGES))))
                & (_edge(cv2.GaussianBlur(self.lab, (0, 0), STEP_BLUR)) < STEP_SHARPNESS * edge))


def mask_photo(work: np.ndarray) -> MaskPhoto:
    """The photo (any size) reduced to MASK_LONG_SIDE and prepared for segmenting."""
    small, factor = at_mask_size(work)
    texture, sharp, excess, loudness = _fine_texture(work)
    return MaskPhoto(lab_of(small), factor, smooth_regions(texture, sharp, excess, loudness),
                     texture, excess)


def segment(photo: MaskPhoto, sample: np.ndarray, smallest: float = 0.002) -> Pieces:
    """The pieces of a photo (mask_photo), told from the table by the colours of `sample` (Lab
    pixels known to be table), and by their grain where the photo's `smooth` marks them."""
    cv2.setRNGSeed(SEED)
    _, labels, centres = cv2.kmeans(sample, TABLE_COLOURS, None,
                                    (cv2.TERM_CRITERIA_MAX_ITER + cv2.TERM_CRITERIA_EPS, 15, 0.5),
                                    1, cv2.KMEANS_PP_CENTERS)
    share = np.bincount(labels.ravel(), minlength=TABLE_COLOURS) / len(labels)
    table = share >= RARE_COLOUR
    distance = _table_distance(photo.quantised, centres[table])
    on_table = table[labels.ravel()]
    margin = max(10.0, 1.5 * float(np.percentile(nearest_table(sample[on_table], centres[table]),
                                                 99)))
    mask = (distance > margin).astype(np.uint8)
    mask[_light(photo, mask, centres[table], sample)] = 0
    mask |= photo.smooth
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = stats[:, cv2.CC_STAT_AREA]
    parts = area >= smallest * mask.size
    parts[0] = False  # the table
    printed = np.bincount(labels.ravel(), photo.smooth.ravel(), minlength=count) > 0
    twins = []
    if printed[parts].any():
        twins = _twins(photo.lab, labels, stats, parts & ~printed, margin)
        parts[[part for pair in twins for part in pair]] = False
        # where the grain finds a piece's print, a part not outlined by a cut most of the way
        # round is the cloth when found by colour alone, with no print in it, and with the
        # cloth's weave (WEAVE): a check of a colour the border crosses too rarely for a table
        # colour (a tartan's crossing), or light on the weave. Glare fades the weave smoother
        # than the table's, but never to the noise (AT_NOISE), as a piece's print is; so faded,
        # it is the cloth too when its colours are all the table's (TABLE_COLOURED), only its
        # smoothness had made it print, and it is no piece's shape (SOLID: the cloth between a
        # polka's dots)
        rim = (mask > cv2.erode(mask, np.ones((3, 3), np.uint8))).ravel()
        near_cut = cv2.dilate(photo.cuts.astype(np.uint8), np.ones((5, 5), np.uint8)).ravel()
        around = np.bincount(labels.ravel()[rim], minlength=count)
        cut = 2 * np.bincount(labels.ravel()[rim], near_cut[rim], minlength=count) > around
        table_coloured = np.bincount(labels.ravel(), (distance <= margin).ravel(),
                                     minlength=count) >= TABLE_COLOURED * area
        smoothest, roughest = photo.weave
        for part in np.flatnonzero(parts & ~cut & (~printed | table_coloured)):
            inside = labels == part
            grain = np.median(photo.grain[inside])
            faded = grain < smoothest and np.median(photo.excess[inside]) >= AT_NOISE
            woven = not printed[part] and smoothest <= grain <= roughest
            faded &= not printed[part] or _solidity(inside) < SOLID
            parts[part] = not (woven or faded)
    keep = parts & (area >= LARGEST_SHARE * area[parts].max(initial=0))
    bare = keep[labels].astype(np.uint8)  # by lookup table: np.isin sorts
    if twins:
        bare = _without_copies(bare, photo, labels, stats, centroids, twins, margin)
    specks = (parts & ~keep) | (area < smallest * mask.size)
    specks[0] = False
    bare |= _closed_by_cuts(bare, specks[labels], photo.cuts)
    mask = fill_holes(bare)
    return Pieces(mask, bare, photo.factor, orientation(mask) if mask.any() else 0.0,
                  centres[table], margin, photo.smooth)


def _closed_by_cuts(bare: np.ndarray, specks: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """The bays of `bare` that the cuts along its outline close, mostly filled by `specks`
    (parts of piece colours too small to be pieces), with the cut bands along them (uint8 0/1):
    print cut off a piece by a line of the table's colours (a dark ring round a disc of colour)
    and reaching its outline. The piece's cut outline runs on across it, so with the cuts that
    touch the pieces, the pieces enclose it. A blank or a gap between two pieces is open to the
    table (no cut runs across its mouth) and shows the table's colours, not a piece's; the
    cloth's own sharp edges away from the pieces close nothing. Holes `bare` encloses by itself
    are left open: between two pieces that do not interlock they are the gap."""
    count, labels = cv2.connectedComponents(cuts.astype(np.uint8), connectivity=8)
    touching = np.zeros(count, bool)
    touching[labels[cv2.dilate(bare, np.ones((3, 3), np.uint8)) > 0]] = True
    touching[0] = False
    bays = fill_holes(bare | touching[labels]) & (fill_holes(bare) == 0) & ~cuts
    count, labels = cv2.connectedComponents(bays, connectivity=4)
    closed = 2 * np.bincount(labels.ravel(), specks.ravel(), minlength=count) \
        > np.bincount(labels.ravel(), minlength=count)
    closed[0] = False
    closed = closed[labels].astype(np.uint8)
    # with the cut bands along it: its print's own edges (a ring's line) are print too
    return closed | (cv2.dilate(closed, np.ones((5, 5), np.uint8)) & cuts)


def _solidity(region: np.ndarray) -> float:
    """The region's area, holes filled, as a share of its convex hull's."""
    filled = fill_holes(region)
    outlines, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.contourArea(cv2.convexHull(np.concatenate(outlines)))
    return float(filled.sum() / max(hull, 1.0))


TWIN = 1.25  # two parts this alike in area, width and height (ratio) are one shape


def _twins(lab: np.ndarray, labels: np.ndarray, stats: np.ndarray, plain: np.ndarray,
           margin: float) -> list[tuple[int, int]]:
    """The pairs of `plain` parts (no print) alike in shape (TWIN) and colour (within `margin`):
    a cloth's pattern, which repeats its checks at a fixed pitch. The two pieces of a photo are
    no copies of each other, and print tells them from the cloth besides."""
    candidates = np.flatnonzero(plain)
    pixels = np.maximum(np.bincount(labels.ravel(), minlength=len(stats)), 1)
    colours = np.stack([np.bincount(labels.ravel(), lab[..., channel].ravel(),
                                    minlength=len(stats)) for channel in range(3)], 1)
    colours /= pixels[:, None]
    size = stats[candidates][:, [cv2.CC_STAT_AREA, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT]
                             ].astype(np.float64)
    colours = colours[candidates]
    # every pair at once: a busy cloth has hundreds of plain parts (at most 1 / `smallest`
    # of segment, so the pairs' arrays stay small)
    alike = np.all(np.maximum(size[:, None], size[None]) <= TWIN * np.minimum(size[:, None],
                                                                               size[None]), -1)
    alike &= np.sqrt(((colours[:, None] - colours[None]) ** 2).sum(-1)) < margin
    firsts, seconds = np.nonzero(np.triu(alike, 1))
    return [(int(candidates[first]), int(candidates[second]))
            for first, second in zip(firsts, seconds, strict=True)]


def _without_copies(bare: np.ndarray, photo: MaskPhoto, labels: np.ndarray, stats: np.ndarray,
                    centroids: np.ndarray, twins: list[tuple[int, int]],
                    margin: float) -> np.ndarray:
    """`bare` without the next copies of the cloth's `twins`: the pattern goes on beside and
    under the pieces at the pitch each pair of twins shows, so one moved back by the step from
    it to the other, or the other moved on by it, lands on the next check; where that lies on
    a piece, its pixels of the check's colour and no print are the check joined to it."""
    bare = bare.copy()
    height, width = bare.shape
    for one, other in twins:
        step = np.round(centroids[other] - centroids[one]).astype(int)
        for part, (dx, dy) in ((one, -step), (other, step)):
            x, y, w, h = stats[part, :4]
            x0, y0 = max(x + dx, 0), max(y + dy, 0)
            x1, y1 = min(x + dx + w, width), min(y + dy + h, height)
            if x1 <= x0 or y1 <= y0 or not bare[y0:y1, x0:x1].any():
                continue
            copy = labels[y0 - dy:y1 - dy, x0 - dx:x1 - dx] == part
            colour = photo.lab[y:y + h, x:x + w][labels[y:y + h, x:x + w] == part].mean(0)
            alike = np.linalg.norm(photo.lab[y0:y1, x0:x1] - colour, axis=-1) < margin
            # with its rim, where its colour blends with its neighbours'
            check = cv2.dilate((copy & alike).astype(np.uint8), np.ones((3, 3), np.uint8))
            bare[y0:y1, x0:x1][(check > 0) & (photo.smooth[y0:y1, x0:x1] == 0)] = 0
    return cv2.morphologyEx(bare, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


# Glare and shadow on the table. Lit surfaces reflect their own colour and the light's, white
# after white balance (dichromatic reflection): the table under glare or shade shows colours
# g·white + β·c for a table colour c. Pieces may show such colours too, so only a region that
# fades into the table is light: a piece ends at its cut outline, a sharp edge.
MOST_GLARE = 0.85  # the largest share of white a glare adds
SHADE = (0.35, 1.15)  # a table colour's brightness under shadow and lamp, against the border's
LIT_FLOOR = 0.04  # (BGR 0..1) colours this close to a lit table colour are explained by light
SOFT_EDGE = 1.5  # (weighted Lab units per pixel) a region whose outline is mostly softer than
# this fades into the table; pieces' outlines on the tuning photos are 1.9 and up, light 0.6-1.3
STEP_BLUR, STEP_SHARPNESS = 2.0, 0.9  # (mask pixels) blurred this much, a step's gradient falls
# below this share of its own (to 0.7 under a camera's blur of 2 pixels); light's stays
TABLE_EDGES = 98  # (percentile of the border ring's edges) a cut is sharper than the table's own
# edges (a checked cloth's squares), which light crosses


def _bgr_of(lab: np.ndarray) -> np.ndarray:
    """BGR colours (0..1) of colours in lab_of's units (any shape ending in 3)."""
    unweighted = np.clip(np.round(lab / np.float32([LIGHTNESS_WEIGHT, 1, 1])), 0, 255)
    flat = unweighted.astype(np.uint8).reshape(-1, 1, 3)
    return (cv2.cvtColor(flat, cv2.COLOR_Lab2BGR).astype(np.float32) / 255).reshape(lab.shape)


def _unlit(pixels: np.ndarray, table: np.ndarray) -> np.ndarray:
    """How far each BGR colour (n × 3, 0..1) is from the nearest table colour (m × 3) under any
    glare and shade: the residual of the least-squares fit g·white + β·c, g and β held to
    MOST_GLARE and SHADE (a slight ridge keeps a grey table, whose c is white's direction,
    solvable)."""
    return _by_chunks(_unlit_chunk, pixels, table)


def _unlit_chunk(pixels: np.ndarray, table: np.ndarray) -> np.ndarray:
    """_unlit of a few pixels."""
    channels = _channels(pixels)
    cc, wc, wp = (table * table).sum(-1), table.sum(-1), pixels.sum(-1)[:, None]
    cp = _dot(channels, table)
    ridge = 1e-3 * (3 + cc)
    glare = ((cc + ridge) * wp - wc * cp) / ((3 + ridge) * (cc + ridge) - wc ** 2)
    glare = np.clip(glare, 0, MOST_GLARE)
    rest = channels - glare
    body = np.clip(_dot(rest, table) / np.maximum(cc, 1e-6),
                   (1 - glare) * SHADE[0], (1 - glare) * SHADE[1])
    rest -= body * table.T[:, None]
    return np.sqrt((rest[0] ** 2 + rest[1] ** 2 + rest[2] ** 2).min(1))


def _edge(image: np.ndarray) -> np.ndarray:
    """Each pixel's colour gradient (the colour's units per pixel: Sobel reads a ramp 8 times
    its slope) of a three-channel float image."""
    return np.sqrt((cv2.Sobel(image, cv2.CV_32F, 1, 0) ** 2
                    + cv2.Sobel(image, cv2.CV_32F, 0, 1) ** 2).sum(-1)) / 8


def _light(photo: MaskPhoto, mask: np.ndarray, centres: np.ndarray,
           sample: np.ndarray) -> np.ndarray:
    """The parts of `mask` (pixels far from the table colours) that are the table under glare
    or shadow: connected regions of colours a lit table colour explains (as closely as the
    border's own pixels are explained), parted at sharp edges (cuts), whose outline against the
    table is mostly soft."""
    if not mask.any():
        return np.zeros(mask.shape, bool)
    table = _bgr_of(centres)
    tolerance = max(LIT_FLOOR, 2 * float(np.percentile(_unlit(_bgr_of(sample), table), 90)))
    colours, where = photo.bgr
    shown = where[mask > 0]
    # the colours the mask shows, each once, in order
    used = np.flatnonzero(np.bincount(shown, minlength=len(colours)))
    lit_colour = np.zeros(len(colours), bool)
    lit_colour[used] = _unlit(colours[used].astype(np.float32) / 255, table) < tolerance
    lit = np.zeros(mask.shape, np.uint8)
    lit[mask > 0] = lit_colour[shown]
    edge = photo.edge
    # light does not cross a cut: a sharp edge parts glare beside a piece from the piece's own
    # lit colours (its print, the rim its cut blends with the table); each part is judged alone
    count, labels = cv2.connectedComponents(lit & ~photo.cuts, connectivity=8)
    if count < 2:
        return np.zeros(mask.shape, bool)
    # the cut itself is outline of the part it bounds
    reach = cv2.dilate(labels.astype(np.float32), np.ones((5, 5), np.uint8)).astype(np.int32)
    outline = (mask > cv2.erode(mask, np.ones((3, 3), np.uint8))) & (lit > 0) & (reach > 0)
    around = np.bincount(reach[outline], minlength=count)
    soft = np.bincount(reach[outline], edge[outline] < SOFT_EDGE, minlength=count)
    light = 2 * soft > around  # the outline's median edge is soft
    light[0] = False
    return light[reach] & (lit > 0)


def upright(mask: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The mask turned by -angle onto a canvas that holds all of it, and the 2 × 3 affine
    that took mask coordinates there."""
    height, width = mask.shape
    side = int(np.ceil(np.hypot(height, width))) + 4
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), np.degrees(angle), 1.0)
    turn[:, 2] += (side - np.array([width, height])) / 2
    return cv2.warpAffine(mask, turn, (side, side), flags=cv2.INTER_NEAREST), turn


TYPICAL = 0.9  # (share of the width kept over a quarter of the profile) body, whatever tabs


def extent(profile: np.ndarray, share: float = 0.6, typical: bool = False) -> tuple[int, int]:
    """First and one-past-last index where the profile reaches `share` of its maximum: a piece's
    body, without tabs (narrower than a body) but with blanks (which only dent it). With
    `typical`, every place nearly as wide (TYPICAL) as the width the profile keeps over a
    quarter of its length counts too: where a tab on each long side of a pair lines up, the
    pair is body plus two tabs wide over a tab's width only, and a share of that can exceed
    the bodies' own width (a pair read short, a corner touch read as bodies in line)."""
    if profile.max() <= 0:
        return (0, 0)
    level = share * profile.max()
    if typical:
        level = min(level, TYPICAL * np.percentile(profile[profile > 0], 75))
    above = np.flatnonzero(profile >= level)
    return (int(above[0]), int(above[-1]) + 1)


@dataclass(frozen=True)
class Pair:
    """Two pieces read as lying end to end, upright: `centres` of the two bodies (photo
    pixels), body size `along` × `across` (photo pixels; `along` is the side the pieces are
    lined up on), `direction` from the first to the second body (unit, photo), and how well
    they join: `level` is how far the two bodies' sides are out of line (share of `across`),
    `seam` the share of the band along their common side covered by piece, and `narrowest` the
    outline's least width across the middle half of its length (share of `across`): two pieces
    that touch only by a tab or a corner, or a body half lost, narrow there to a neck."""
    centres: tuple[tuple[float, float], tuple[float, float]]
    along: float
    across: float
    direction: tuple[float, float]
    level: float
    seam: float
    narrowest: float


SEAM_DEPTH = 0.2  # half width of the seam band, in body lengths: inside it a joined pair is all
# piece, whatever the tabs (neighbouring sides' tabs start further from the corner)
SEAM_END = 0.06  # the band stops this far from the corners (the sides' shoulders wave a little)


def _seam_band(image: np.ndarray, pair: Pair, depth: float, scale: float = 1.0) -> np.ndarray:
    """The band along the pair's common side (corners left out), `depth` body lengths deep on
    both sides, sampled about a pixel apart from `image` (the photo at the pair's size, or
    `scale` times it): rows run along the side, columns across it from the first body to the
    second."""
    first, second = (np.array(c) for c in pair.centres)
    middle, along = (first + second) / 2, np.array(pair.direction)
    seam = np.array([-along[1], along[0]])
    positions = max(8, int(pair.across * (1 - 2 * SEAM_END)))
    depths = max(4, int(2 * depth * pair.along))
    t = ((np.arange(positions) + 0.5) / positions - 0.5) * (1 - 2 * SEAM_END) * pair.across
    u = ((np.arange(depths) + 0.5) / depths * 2 - 1) * depth * pair.along
    points = ((middle + t[:, None, None] * seam + u[None, :, None] * along) * scale).astype(
        np.float32)
    return cv2.remap(image, points[..., 0], points[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _seam_widths(image: np.ndarray, pieces: Pieces, pair: Pair) -> np.ndarray:
    """How wide the table shows across the seam band at each position along the common side,
    as shares of a body's length (up to 2 SEAM_DEPTH). Read on `image` (the photo at the
    pair's size), finer than the mask; where the grain was read, what is smooth as print is no
    table."""
    band = _seam_band(image, pair, SEAM_DEPTH)
    table = _table_distance(_quantised(lab_of(band)), pieces.table) < pieces.margin
    if pieces.smooth is not None:
        table &= _seam_band(pieces.smooth, pair, SEAM_DEPTH, 1 / pieces.factor) == 0
    return table.sum(1) * (2 * SEAM_DEPTH / band.shape[1])


SPREAD_LOW, SPREAD_HIGH = 10, 90  # percentiles of the seam's widths compared for unevenness


@dataclass(frozen=True)
class SeamGap:
    """How wide the table shows between a pair's two bodies across their common side, in body
    lengths (_seam_widths at each position along the side). `width` is the median: the mask's
    smoothing closes a gap of a pixel or two; a joined pair shows only its thin cut line.
    `unevenness` is the spread between the SPREAD_LOW and SPREAD_HIGH percentiles: two true
    neighbours pulled apart leave an even gap (each tab faces its own blank, so the outlines
    run parallel); pieces that do not interlock (turned, not neighbours, of another picture)
    but lie in line meet tab against tab or shoulder: the gap is narrow at a tab, wide beside
    it."""
    width: float
    unevenness: float


def seam_gap(image: np.ndarray, pieces: Pieces, pair: Pair) -> SeamGap:
    """The gap across the pair's common side, read on `image` (the photo at the pair's size);
    none without table colours to see it by."""
    if pieces.table is None or not len(pieces.table):
        return SeamGap(0.0, 0.0)
    widths = _seam_widths(image, pieces, pair)
    low, high = np.percentile(widths, (SPREAD_LOW, SPREAD_HIGH))
    return SeamGap(float(np.median(widths)), float(high - low))


CUT_DEPTH = 0.3  # the cut line is looked for this deep on both sides (body lengths): tabs reach
CUT_JUMP = 2  # pixels the cut line may move across the band from one position to the next


def seam_cut(image: np.ndarray, pair: Pair) -> tuple[float, float]:
    """How clearly a cut line runs along the whole common side: the median edge strength (grey
    levels per pixel) on the strongest path through the band from one corner to the other
    (dynamic programming, a few pixels' sway per step so it can follow tabs and blanks), and the
    band's median edge strength. Two pieces always show where they meet; one piece read as two
    (a part of it lost to a table of its colour) shows no such line."""
    band = cv2.GaussianBlur(_seam_band(image, pair, CUT_DEPTH).astype(np.float32), (0, 0), 1.0)
    edge = _edge(band)
    width = edge.shape[1]
    total, came_from = edge[0].copy(), np.zeros(edge.shape, np.int32)
    columns = np.arange(width)
    for row in range(1, len(edge)):
        best, source = np.full(width, -np.inf, np.float32), columns.copy()
        for step in range(-CUT_JUMP, CUT_JUMP + 1):
            start = np.clip(columns - step, 0, width - 1)
            better = total[start] > best
            best[better], source[better] = total[start][better], start[better]
        total, came_from[row] = best + edge[row], source
    path = [int(np.argmax(total))]
    for row in range(len(edge) - 1, 0, -1):
        path.append(int(came_from[row, path[-1]]))
    strength = edge[np.arange(len(edge)), path[::-1]]
    return float(np.median(strength)), float(np.median(edge))


def read_pair(pieces: Pieces) -> Pair | None:
    """The two bodies of a pair of pieces, taking the mask's long upright axis as the line
    they lie on; None when the mask has no such shape."""
    mask, turn = upright(pieces.mask, pieces.angle)
    bare, _ = upright(pieces.bare, pieces.angle)
    columns, rows = mask.sum(0).astype(np.float64), mask.sum(1).astype(np.float64)
    (x0, x1), (y0, y1) = extent(columns, typical=True), extent(rows, typical=True)
    transposed = y1 - y0 > x1 - x0
    if transposed:
        mask, bare, (x0, x1) = mask.T, bare.T, (y0, y1)
    if x1 - x0 < 8:
        return None
    middle = (x0 + x1) / 2
    halves = [mask[:, x0:int(middle)], mask[:, int(middle):x1]]
    spans = [extent(half.sum(1).astype(np.float64), typical=True) for half in halves]
    across = float(np.mean([bottom - top for top, bottom in spans]))
    along = (x1 - x0) / 2
    if across < 4:
        return None
    level = max(abs(spans[0][0] - spans[1][0]), abs(spans[0][1] - spans[1][1])) / across
    top, bottom = max(spans[0][0], spans[1][0]), min(spans[0][1], spans[1][1])
    band = bare[int(top + SEAM_END * across):int(np.ceil(bottom - SEAM_END * across)),
                int(middle - SEAM_DEPTH * along):int(np.ceil(middle + SEAM_DEPTH * along))]
    seam = float(band.mean()) if band.size else 0.0
    narrowest = _narrowest(bare.sum(0)) / across
    centres = [((x0 + middle) / 2, (top + bottom) / 2), ((middle + x1) / 2, (top + bottom) / 2)]
    if transposed:
        centres = [(y, x) for x, y in centres]
    back = cv2.invertAffineTransform(turn)
    photo = [tuple(float(v) * pieces.factor for v in back @ np.array([x, y, 1.0]))
             for x, y in centres]
    step = np.subtract(photo[1], photo[0])
    direction = step / max(np.linalg.norm(step), 1e-9)
    return Pair((photo[0], photo[1]), along * pieces.factor, across * pieces.factor,
                (float(direction[0]), float(direction[1])), level, seam, narrowest)


def _narrowest(profile: np.ndarray) -> float:
    """The least value of a width profile over the middle half of where it is non-zero (the
    middle of a pair of pieces, end tabs included: each body's own blanks dent it by less)."""
    support = np.flatnonzero(profile)
    start, stop = support[0], support[-1] + 1
    return float(profile[start + (stop - start) // 4:stop - (stop - start) // 4].min())


RECTANGLE_SHARE = 0.2  # a row or column of the rectangle with one piece of four still counts


def read_rectangle(pieces: Pieces) -> np.ndarray | None:
    """The four corners (photo pixels, clockwise on screen from the upright top-left) of the
    rectangle the pieces are laid in, from its straight outer border; None without one."""
    mask, turn = upright(pieces.mask, pieces.angle)
    (x0, x1) = extent(mask.sum(0).astype(np.float64), RECTANGLE_SHARE)
    (y0, y1) = extent(mask.sum(1).astype(np.float64), RECTANGLE_SHARE)
    if min(x1 - x0, y1 - y0) < 16:
        return None
    corners = np.float64([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]])
    return _straight_sides(pieces.mask, corners @ cv2.invertAffineTransform(turn).T) \
        * pieces.factor


SIDE_REACH = (0.3, 0.07, 0.035)  # shares of a side: outline points this near it are its own
SIDE_ENDS = 0.1  # share of a side at each end left out (a missing corner piece rounds it)
SIDE_POINTS = 12  # outline points a side needs to be fitted


def _straight_sides(mask: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The rectangle's corners (mask pixels) where its four straight outer sides meet, each
    side a line fitted to the outline points along it, starting from `corners`, the upright
    box the pieces fill. A tilted camera draws the rectangle as a quadrilateral, not a box;
    the sides are fitted again nearer and nearer, so that a missing border piece's notch and a
    turned piece's tabs fall out. A side with too few outline points stays where it was."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return corners
    points = np.concatenate(contours).reshape(-1, 2).astype(np.float64)
    # where the rectangle runs off the photo, its outline follows the photo's edge: straight,
    # and not the rectangle's side
    height, width = mask.shape
    inside = np.all((points > 1) & (points < np.array([width, height]) - 2), axis=1)
    points = points[inside]
    for reach in SIDE_REACH:
        lines = []
        for start, end in zip(corners, np.roll(corners, -1, axis=0), strict=True):
            length = max(float(np.linalg.norm(end - start)), 1e-6)
            direction = (end - start) / length
            along = (points - start) @ direction / length
            across = (points - start) @ np.array([-direction[1], direction[0]])
            near = (np.abs(across) < reach * length) & (along > SIDE_ENDS) \
                & (along < 1 - SIDE_ENDS)
            # a side with too few points of its own (off the photo) stays where it was
            lines.append(_straightest_line(points[near], length) if near.sum() >= SIDE_POINTS
                         else (start, direction))
        met = [_meeting(lines[k - 1], lines[k]) for k in range(4)]
        if any(point is None for point in met):
            return corners
        corners = np.array(met)
    return corners


SIDE_TRIES = 200  # point pairs tried for each side's line
ON_SIDE = 0.012  # share of a side: outline points this near a line are on it (at least 1.5 px)


def _straightest_line(points: np.ndarray, length: float) -> tuple[np.ndarray, np.ndarray]:
    """The line (a point, a direction) through the most of `points`, refitted to them: a
    straight side is many outline points in a line, and a glare patch or a stray piece joined
    to the outline beside it is curved or shorter (a least-squares line leans towards it)."""
    rng = np.random.default_rng(SEED)
    pairs = rng.integers(0, len(points), (SIDE_TRIES, 2))
    start, run = points[pairs[:, 0]], points[pairs[:, 1]] - points[pairs[:, 0]]
    norm = np.linalg.norm(run, axis=1)
    usable = norm > 0.1 * length
    start, run = start[usable], run[usable] / norm[usable, None]
    tolerance = max(1.5, ON_SIDE * length)
    if not len(start):
        on = np.ones(len(points), bool)
    else:
        offsets = np.abs((points[:, 0] - start[:, 0, None]) * run[:, 1, None]
                         - (points[:, 1] - start[:, 1, None]) * run[:, 0, None])
        on = offsets[np.argmax((offsets < tolerance).sum(1))] < tolerance
    vx, vy, x, y = cv2.fitLine(np.float32(points[on]), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x, y], np.float64), np.array([vx, vy], np.float64)


def _meeting(first: tuple[np.ndarray, np.ndarray],
             second: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    """Where two lines (a point, a direction) cross; None when they are nearly parallel."""
    (p, u), (q, v) = first, second
    determinant = u[0] * -v[1] + v[0] * u[1]
    if abs(determinant) < 0.2:
        return None
    t = ((q - p)[0] * -v[1] + v[0] * (q - p)[1]) / determinant
    return p + t * u
