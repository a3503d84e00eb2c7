"""Find and read every QR code in a photo: our locator, OpenCV's decoder.

The only module that imports cv2 and numpy. Each step below was chosen by its detection
rate in `python -m companion.vision.bench --ablation` (the README's benchmark section
has the figures):

1. Grey, then a local mean threshold (`cv2.adaptiveThreshold`, 31 px window at 720 rows).
   CLAHE first lowered the rate: not used.
2. Finder patterns by run lengths, as zxing does, but vectorised over whole rows:
   dark-light-dark-light-dark runs in the ratio 1:1:3:1:1 along rows and along columns
   (only dark cores of 2 pixels or more are measured: most runs are texture); where a
   row hit and a column hit cross is a finder. A finder tilted away is narrower one way
   than the other, so the two module sizes may differ by up to 2x.
3. Finder triples shaped like a code's corner (all at once in NumPy), ranked by shape
   and by how many runs saw their finders; each is tried at the estimated size and two
   versions either side, and the timing patterns (row and column 6, all sampled in one
   remap) pick the size and the order in which triples are read. Triples whose timing
   does not show face on are tried again in perspective: a tilted code's far finders
   are smaller, and their sizes give the foreshortening along each edge (`_grid`).
4. A homography from the three finder centres and the alignment pattern, looked for in
   the image resampled to module space, samples every module centre. When nothing
   reads, the finders' grid alone is tried: a look-alike can pull the alignment search
   off the real pattern.
5. Modules are sharpened against their neighbours and thresholded by the finder
   patterns' own dark and light, then locally for glare. The format information (two
   BCH-coded copies) is checked first, cheaply; only grids that pass are drawn as a
   clean code that `cv2.QRCodeDetector.decode` reads from the known corners: OpenCV
   does format, unmasking and Reed-Solomon.
6. Only while a candidate whose format information read did not decode (or nothing
   was found): the image at a third and a ninth of its size, for close-ups. A false
   candidate (finder-like shapes with no code) does not set this off. A second
   binarisation, a 2x upscale, or OpenCV's detectors there each added little and are off.

An upload (encoded bytes) whose longest side is longer than `Options.max_side` (a
phone's 12-40 megapixel photo) is decoded reduced first: a JPEG by libjpeg's own scaling
(`cv2.IMREAD_REDUCED_GRAYSCALE_2/4/8`), which never holds the full-size pixels, and the
scans above that need no more than that run on it. Only while those are stuck are the
full-size pixels decoded, and only up to FULL_PASS_PIXELS (16 MP): a larger photo's last
pass is at half or a quarter of its size instead. `DecodeResult.decoded` lists the
reductions at which the photo was decoded.
"""

from __future__ import annotations

import io
import math
import threading
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

from companion.vision.payload import DecodeResult, ScannedCode, identify

__all__ = [
    "DEFAULT",
    "MAX_PIXELS",
    "ImageError",
    "ImageTooLarge",
    "Options",
    "check_size",
    "decode",
    "decode_qr",
    "decode_stock",
    "read_image",
]

Gray: TypeAlias = NDArray[np.uint8]
Floats: TypeAlias = NDArray[np.float64]
Ints: TypeAlias = NDArray[np.int64]


MAX_PIXELS: Final = 40_000_000  # an encoded photo above this is refused before decoding
# The most pixels an upload is decoded and scanned at for its last, full-size pass; a
# larger photo's last pass is at the first of 1/2, 1/4, 1/8 of its size within this.
FULL_PASS_PIXELS: Final = 16_000_000
# Pillow's names of what libjpeg decodes (MPO: a phone's JPEG with a multi-picture index).
_JPEG: Final = frozenset({"JPEG", "MPO"})
# The reductions OpenCV decodes at (libjpeg scales a JPEG while decoding it).
_REDUCED_FLAGS: Final = {
    1: cv2.IMREAD_GRAYSCALE,
    2: cv2.IMREAD_REDUCED_GRAYSCALE_2,
    4: cv2.IMREAD_REDUCED_GRAYSCALE_4,
    8: cv2.IMREAD_REDUCED_GRAYSCALE_8,
}


class ImageError(ValueError):
    """Bytes OpenCV cannot read as an image, or an array that is not 8-bit pixels."""


class ImageTooLarge(ImageError):
    """An encoded photo whose header declares more than MAX_PIXELS pixels."""


@dataclass(frozen=True, slots=True)
class Options:
    """Pipeline settings; the defaults are what the benchmark chose (see bench --ablation)."""

    # Side of the adaptive threshold window in pixels at 720 rows (scaled with height),
    # and how much darker than the window mean a dark pixel is.
    block: int = 31
    offset: float = 3.0
    # Run-length tolerance, as a fraction of the module size, and the shortest finder
    # run (pixels across all five runs: below 10 it is mostly noise).
    tolerance: float = 0.6
    min_run: int = 10
    # Most finder candidates kept (by support) and finder triples tried per scan.
    max_finders: int = 60
    max_triples: int = 100
    # A triple is read only if its timing patterns correlate at least this well.
    min_timing: float = 0.4
    # Also try the two versions either side of the estimated one.
    version_retry: bool = True
    # Find the alignment pattern to correct perspective (else the finders' grid only),
    # and read on the finders' grid too when the alignment-corrected one fails.
    alignment: bool = True
    base_retry: bool = True
    # Also try each triple in the perspective its finders' sizes suggest (tilted codes).
    perspective: bool = True
    # Push each module away from its neighbours' mean before thresholding (deblur).
    sharpen: bool = True
    # Also threshold modules against their neighbourhood, for glare across a code.
    local_threshold: bool = True
    # Fallbacks, each run only while a candidate with good timing failed to read (or
    # nothing was found): further binarisations (block, offset); the whole image upscaled
    # twice; OpenCV's own detector ("plain": QRCodeDetector, "aruco": QRCodeDetectorAruco).
    retry: tuple[tuple[int, float], ...] = ()
    # Photos longer than this are scanned shrunk first (by a whole factor), then at full
    # size while stuck; then at these downscale factors, where close-ups read.
    max_side: int = 2000
    pyramid: tuple[int, ...] = (3, 9)
    upscale: bool = False
    stock: Literal["", "plain", "aruco"] = ""
    # Equalise contrast locally (CLAHE) before everything else.
    clahe: bool = False


DEFAULT: Final = Options()
# Finder module sizes seen along rows and along columns agree within this factor: a
# finder tilted 50 degrees away is 1.6 times narrower one way than the other.
_AGREE: Final = 2.0
# A code's corner: the cosine of the angle at the top-left finder and the ratio of the
# two sides stay within these even under strong perspective.
_MAX_COS: Final = 0.6
_MAX_RATIO: Final = 1.7
_MIN_ALIGN: Final = 0.3  # normalised correlation that counts as an alignment pattern
_CLEAN_PX: Final = 3  # pixels per module in the redrawn code OpenCV decodes
_QUIET: Final = 4
# Triples are ranked by shape error plus this over the root of their weakest finder's
# support: a finder seen by few runs is more likely noise.
_SUPPORT_WEIGHT: Final = 2.0


# --- input ----------------------------------------------------------------------------


def check_size(data: bytes | bytearray | memoryview) -> tuple[int, int]:
    """Width and height from an encoded photo's header, read without decoding its pixels.

    Raises ImageTooLarge above MAX_PIXELS and ImageError for what Pillow cannot identify.
    """
    width, height, _format = _header(data)
    return width, height


def _header(data: bytes | bytearray | memoryview) -> tuple[int, int, str]:
    """Width, height and format (Pillow's name: JPEG, PNG...) of an encoded photo."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(bytes(data))) as header:
                width, height = header.size
                kind = str(header.format)
    except Image.DecompressionBombError as exc:
        raise ImageTooLarge("the header declares too many pixels") from exc
    except Exception as exc:  # Pillow's plugins raise many kinds on junk headers
        raise ImageError("not an image Pillow can identify") from exc
    if width * height > MAX_PIXELS:
        raise ImageTooLarge(f"{width}x{height} is over {MAX_PIXELS} pixels")
    return width, height, kind


def _imdecode(data: bytes | bytearray | memoryview, reduce: int = 1) -> Gray:
    """Encoded bytes as grey pixels, `reduce` times smaller each way (1, 2, 4 or 8)."""
    buf = np.frombuffer(data, np.uint8)
    try:
        gray = cv2.imdecode(buf, _REDUCED_FLAGS[reduce]) if buf.size else None
    except cv2.error as exc:
        raise ImageError("OpenCV failed to decode the image") from exc
    if gray is None:
        raise ImageError("not an image OpenCV can read")
    return np.asarray(gray, np.uint8)


def _decode_bytes(data: bytes | bytearray | memoryview) -> Gray:
    """Encoded bytes as grey pixels, once the header says they are not too many."""
    check_size(data)
    return _imdecode(data)


def read_image(image: bytes | Gray | Image.Image) -> Gray:
    """A grey image from encoded bytes (JPEG, PNG...), a Pillow image, or a pixel array.

    Arrays may be grey, or colour with 3 or 4 channels in either RGB or BGR order: the
    grey weights shift a little between the two, which does not matter for decoding.
    Encoded bytes are checked against MAX_PIXELS (`check_size`) before decoding.
    """
    if isinstance(image, bytes | bytearray | memoryview):
        return _decode_bytes(image)
    if isinstance(image, Image.Image):
        try:
            image = np.asarray(image.convert("L") if image.mode not in ("L", "RGB") else image)
        except (OSError, ValueError) as exc:  # a lazily loaded file that turns out broken
            raise ImageError("Pillow failed to load the image") from exc
    arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise ImageError(f"expected uint8 pixels, got {arr.dtype}")
    if arr.ndim == 2:
        return arr
    if arr.ndim == 3 and arr.shape[2] == 3:
        return np.asarray(cv2.cvtColor(arr, cv2.COLOR_BGR2GRAY), np.uint8)
    if arr.ndim == 3 and arr.shape[2] == 4:
        return np.asarray(cv2.cvtColor(arr, cv2.COLOR_BGRA2GRAY), np.uint8)
    raise ImageError(f"unsupported image shape {arr.shape}")


# --- finder patterns ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Finders:
    x: Floats
    y: Floats
    module: Floats
    support: Ints


def _finder_runs(binary: Gray, tolerance: float, min_run: int) -> tuple[Ints, Floats, Floats]:
    """Rows through finder patterns: (row, core centre x, module size)."""
    h, w = binary.shape
    padded = np.zeros((h, w + 2), np.uint8)
    padded[:, 1:-1] = binary
    # Positions are raveled over rows of w + 1 edges. Every row starts and ends light, so
    # edges pair up: a dark run starts at each even edge and ends at the next one.
    edges = np.flatnonzero(padded[:, 1:] != padded[:, :-1])
    s, e = edges[0::2], edges[1::2]
    if s.size < 3:
        return np.zeros(0, np.int64), np.zeros(0), np.zeros(0)
    # Most dark runs are one or two pixels of texture: a core (3 modules) of at least
    # 2 pixels and at least three quarters of each neighbouring light run is needed for
    # any 1:1:3:1:1 within the tolerance, so only those are measured further.
    core = e[1:-1] - s[1:-1]
    idx = np.flatnonzero(core >= 2) + 1  # index of the core's dark run
    s0, e0, s1, e1, s2, e2 = s[idx - 1], e[idx - 1], s[idx], e[idx], s[idx + 1], e[idx + 1]
    l0, l1, l2, l3, l4 = e0 - s0, s1 - e0, e1 - s1, s2 - e1, e2 - s2
    total = l0 + l1 + l2 + l3 + l4
    # |run - module| < tolerance * module, with module = total / 7, in integers.
    v = total * tolerance
    ok = (total >= min_run) & (np.abs(7 * l2 - 3 * total) < 3 * v)
    for run in (l0, l1, l3, l4):
        ok &= np.abs(7 * run - total) < v
    hit = np.flatnonzero(ok)
    row = s0[hit] // (w + 1)
    same = row == (e2[hit] - 1) // (w + 1)
    hit, row = hit[same], row[same]
    centre = (s1[hit] + e1[hit] - 1) / 2.0 - row * (w + 1)
    return row, centre, total[hit] / 7.0


def _finders(binary: Gray, tolerance: float, min_run: int) -> _Finders:
    """Finder pattern centres: where a 1:1:3:1:1 row and a 1:1:3:1:1 column cross."""
    empty = _Finders(np.zeros(0), np.zeros(0), np.zeros(0), np.zeros(0, np.int64))
    hy, hx, hm = _finder_runs(binary, tolerance, min_run)
    vx, vy, vm = _finder_runs(np.ascontiguousarray(binary.T), tolerance, min_run)
    if hy.size == 0 or vx.size == 0:
        return empty
    h, w = binary.shape
    hxi = np.clip(np.round(hx).astype(np.int64), 0, w - 1)
    vyi = np.clip(np.round(vy).astype(np.int64), 0, h - 1)
    rows = np.zeros((h, w), np.uint8)
    cols = np.zeros((h, w), np.uint8)
    rows[hy, hxi] = 1
    cols[vyi, vx] = 1
    # Row hits line up down a finder's core and column hits across it: they cross at the
    # centre, give or take a pixel of noise.
    near = np.ones((3, 3), np.uint8)
    both = np.asarray(cv2.dilate(rows, near), np.uint8) & np.asarray(
        cv2.dilate(cols, near), np.uint8
    )
    count, labels = cv2.connectedComponents(both, connectivity=8)
    if count <= 1:
        return empty
    if count > 65535:
        return empty
    # Every hit within a few pixels of a crossing votes for its position and module size.
    spread = cv2.dilate(labels.astype(np.uint16), np.ones((7, 7), np.uint8))
    hl = spread[hy, hxi].astype(np.int64)
    vl = spread[vyi, vx].astype(np.int64)
    hn = np.bincount(hl, minlength=count)
    vn = np.bincount(vl, minlength=count)
    keep = np.flatnonzero((hn > 0) & (vn > 0))
    keep = keep[keep > 0]
    if keep.size == 0:
        return empty
    x = np.bincount(hl, weights=hx, minlength=count)[keep] / hn[keep]
    y = np.bincount(vl, weights=vy, minlength=count)[keep] / vn[keep]
    mh = np.bincount(hl, weights=hm, minlength=count)[keep] / hn[keep]
    mv = np.bincount(vl, weights=vm, minlength=count)[keep] / vn[keep]
    support = (hn + vn)[keep]
    good = (mh < _AGREE * mv) & (mv < _AGREE * mh)
    return _Finders(x[good], y[good], ((mh + mv) / 2)[good], support[good].astype(np.int64))


# --- grouping -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Triple:
    tl: int
    tr: int
    bl: int


@dataclass(frozen=True, slots=True)
class _Candidates:
    """Finder triples with one code size and one perspective each: indices into
    _Finders, sizes, and the foreshortening along the top and the left edge (see _grid).
    """

    tl: Ints
    tr: Ints
    bl: Ints
    size: Ints
    across: Floats
    down: Floats


def _triples(finders: _Finders, keep: int, limit: int) -> tuple[Ints, Ints, Ints, Floats]:
    """Finder triples shaped like a QR code's corner, best first: tl, tr, bl, size guess."""
    n = finders.x.size
    none = np.zeros(0, np.int64)
    if n < 3:
        return none, none, none, np.zeros(0)
    if n > keep:
        # Keep the best supported. A real finder is crossed by about 3 modules' worth of
        # rows and columns, so support grows with module size; noise makes tiny ones.
        index = np.argsort(-finders.support, kind="stable")[:keep]
        n = keep
    else:
        index = np.arange(n)
    x, y, module = finders.x[index], finders.y[index], finders.module[index]
    support = finders.support[index].astype(np.float64)
    dx = x[None, :] - x[:, None]  # [a, b]: vector a -> b
    dy = y[None, :] - y[:, None]
    dist = np.hypot(dx, dy)
    with np.errstate(divide="ignore", invalid="ignore"):
        # Runs cross a finder turned by angle r at 7 / max(|cos r|, |sin r|) modules, so
        # the run-length module is too big by that factor; r is the direction a -> b.
        turn = np.maximum(np.abs(dx), np.abs(dy)) / dist
        apart = dist / ((module[:, None] + module[None, :]) / 2 * turn)
    mratio = module[:, None] / module[None, :]
    # Pairs that can be two finders of one code: 11 to 170 modules apart (versions 1-40).
    pair = (apart > 10) & (apart < 175) & (mratio < 1.6) & (mratio > 1 / 1.6)
    # Every (a, b, c) where a pairs with both b and c, in the order of a, then b, then c:
    # b is the top-right finder, c the bottom-left (c is b turned 90 degrees clockwise).
    pa, pb = np.nonzero(pair)
    counts = np.bincount(pa, minlength=n)
    per = counts[pa]
    ab = np.repeat(np.arange(pa.size), per)
    offset = np.arange(ab.size) - np.repeat(np.cumsum(per) - per, per)
    a, b = pa[ab], pb[ab]
    c = pb[(np.cumsum(counts) - counts)[a] + offset]
    bx, by, bd = dx[a, b], dy[a, b], dist[a, b]
    cx, cy, cd = dx[a, c], dy[a, c], dist[a, c]
    cos = (bx * cx + by * cy) / (bd * cd)
    ratio = bd / cd
    ok = (bx * cy - by * cx > 0) & (np.abs(cos) < _MAX_COS)
    ok &= (ratio < _MAX_RATIO) & (ratio > 1 / _MAX_RATIO) & pair[b, c]
    if not ok.any():
        return none, none, none, np.zeros(0)
    a, b, c, cos, ratio = a[ok], b[ok], c[ok], cos[ok], ratio[ok]
    mods = np.stack([module[a], module[b], module[c]])
    sup = np.minimum(np.minimum(support[a], support[b]), support[c])
    errors = (
        np.abs(np.log(ratio))
        + np.abs(cos)
        + np.log(mods.max(axis=0) / mods.min(axis=0))
        + _SUPPORT_WEIGHT / np.sqrt(sup)
    )
    order = np.argsort(errors, kind="stable")[:limit]
    spans = (apart[a, b] + apart[a, c]) / 2
    return index[a][order], index[b][order], index[c][order], spans[order] + 7


# A tilted code's finders differ in size: the far one is smaller. Where the finders'
# module sizes differ by more than this, each triple is also tried with that perspective.
_MIN_TILT: Final = 0.06
_MAX_TILT: Final = 1.6  # the largest foreshortening along one edge believed
_CLEAR_TIMING: Final = 0.75  # a triple whose timing scores this face on is not tilted


def _foreshortening(finders: _Finders, near: Ints, far: Ints) -> Floats:
    """sqrt(module at `near` / module at `far`), bounded: 1 for a code seen face on."""
    ratio = np.sqrt(finders.module[near] / finders.module[far])
    return np.asarray(np.clip(ratio, 1 / _MAX_TILT, _MAX_TILT), np.float64)


def _candidates(finders: _Finders, options: Options) -> _Candidates:
    """Each triple, seen face on, with its estimated size and, with `version_retry`, two
    either side."""
    tl, tr, bl, estimate = _triples(finders, options.max_finders, options.max_triples)
    version = np.clip(np.round((estimate - 17) / 4), 1, 40).astype(np.int64)
    steps = (0, -1, 1, -2, 2) if options.version_retry else (0,)
    sizes = np.stack([17 + 4 * (version + d) for d in steps], 1).ravel()
    keep = (sizes >= 21) & (sizes <= 177)
    rep = len(steps)
    flat = np.ones(int(keep.sum()))
    return _Candidates(
        np.repeat(tl, rep)[keep],
        np.repeat(tr, rep)[keep],
        np.repeat(bl, rep)[keep],
        sizes[keep],
        flat,
        flat,
    )


def _tilted(finders: _Finders, flat: _Candidates, scores: Floats) -> _Candidates:
    """The candidates again in the perspective their finders' sizes suggest, for the
    triples whose timing did not show clearly face on and whose finders differ in size."""
    triple = np.stack([flat.tl, flat.tr, flat.bl], 1)
    _, which = np.unique(triple, axis=0, return_inverse=True)
    which = which.ravel()
    best = np.full(int(which.max(initial=-1)) + 1, -np.inf)
    np.maximum.at(best, which, scores)
    across = _foreshortening(finders, flat.tl, flat.tr)
    down = _foreshortening(finders, flat.tl, flat.bl)
    tilt = np.maximum(np.abs(across - 1), np.abs(down - 1))
    pick = np.flatnonzero((best[which] < _CLEAR_TIMING) & (tilt > _MIN_TILT))
    return _Candidates(
        flat.tl[pick], flat.tr[pick], flat.bl[pick], flat.size[pick], across[pick], down[pick]
    )


def _joined(first: _Candidates, second: _Candidates) -> _Candidates:
    return _Candidates(
        *(
            np.concatenate([getattr(first, name), getattr(second, name)])
            for name in ("tl", "tr", "bl", "size", "across", "down")
        )
    )


def _grid(
    finders: _Finders, triple: _Triple, size: int, across: float = 1.0, down: float = 1.0
) -> NDArray[np.float64]:
    """Module coordinates -> image pixels, from the three finder centres and the
    foreshortening along the top edge (`across`) and the left edge (`down`).

    In (s, t) modules from the top-left finder's centre, a pixel is
    tl + (s a + t b) / (1 + g s + t h): a plane seen in perspective. The finder centres
    fix a and b; g and h make the module size shrink by across**2 (down**2) from the
    top-left finder to the top-right (bottom-left) one. across = down = 1 is affine.
    """
    span = size - 7
    tl = np.array([finders.x[triple.tl], finders.y[triple.tl]])
    a = (np.array([finders.x[triple.tr], finders.y[triple.tr]]) - tl) * across / span
    b = (np.array([finders.x[triple.bl], finders.y[triple.bl]]) - tl) * down / span
    g, h = (across - 1) / span, (down - 1) / span
    from_tl = np.array(
        [
            [a[0] + tl[0] * g, b[0] + tl[0] * h, tl[0]],
            [a[1] + tl[1] * g, b[1] + tl[1] * h, tl[1]],
            [g, h, 1.0],
        ]
    )
    shift = np.array([[1.0, 0, -3.5], [0, 1.0, -3.5], [0, 0, 1.0]])
    return np.asarray(from_tl @ shift, np.float64)


def _bilinear(gray: Gray, xs: Floats, ys: Floats) -> Floats:
    """Grey at many points at once (one `cv2.remap`; maps are at most 32767 wide)."""
    n = xs.size
    width = 4096
    rows = max(1, -(-n // width))
    mx = np.zeros(rows * width, np.float32)
    my = np.zeros(rows * width, np.float32)
    mx[:n], my[:n] = xs, ys
    values = cv2.remap(
        gray,
        mx.reshape(rows, width),
        my.reshape(rows, width),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(values, np.float64).ravel()[:n]


def _timing_scores(gray: Gray, finders: _Finders, candidates: _Candidates) -> Floats:
    """For each candidate: how well row 6 and column 6 alternate dark and light.

    About 1 when they do; a wrong size or a false triple scores near 0. Every candidate
    is sampled at once.
    """
    n = candidates.size.size
    if n == 0:
        return np.zeros(0)
    size = candidates.size.astype(np.float64)
    tl = np.stack([finders.x[candidates.tl], finders.y[candidates.tl]], 1)
    span = (size - 7)[:, None]  # modules between the finder centres
    across, down = candidates.across[:, None], candidates.down[:, None]
    u = (np.stack([finders.x[candidates.tr], finders.y[candidates.tr]], 1) - tl) * across / span
    v = (np.stack([finders.x[candidates.bl], finders.y[candidates.bl]], 1) - tl) * down / span
    g, h = (across - 1) / span, (down - 1) / span  # as in _grid
    # Timing modules 8 .. size - 9 of row 6 and of column 6; even ones are dark.
    lengths = candidates.size - 16
    total = int(lengths.sum())
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    owner = np.repeat(np.arange(n), lengths)
    k = np.arange(total) - starts[owner]
    step = k + 8.5 - 3.5
    # Along row 6 a point is (start + step * ahead) / (weight + step * slope), in
    # homogeneous coordinates (see _grid); column 6 likewise with u and v swapped.
    xs, ys = [], []
    for ahead, side, slope, bend in ((u, v, g, h), (v, u, h, g)):
        weight = 1 + 3.0 * bend
        start = tl * weight + 3.0 * side
        ahead = tl * slope + ahead
        denominator = weight[owner, 0] + step * slope[owner, 0]
        xs.append((start[owner, 0] + step * ahead[owner, 0]) / denominator)
        ys.append((start[owner, 1] + step * ahead[owner, 1]) / denominator)
    values = _bilinear(gray, np.concatenate(xs), np.concatenate(ys))
    e = np.tile(np.where(k % 2 == 0, -1.0, 1.0), 2)
    count = np.tile(lengths, 2).astype(np.float64)
    at = np.concatenate([starts, starts + total])
    mean = np.add.reduceat(values, at) / count
    var = np.maximum(np.add.reduceat(values * values, at) / count - mean**2, 1e-9)
    cov = (np.add.reduceat(values * e, at) - mean * np.add.reduceat(e, at)) / count
    corr = cov / np.sqrt(var)
    return np.asarray((corr[:n] + corr[n:]) / 2, np.float64)


# --- sampling -------------------------------------------------------------------------


_ALIGN_PX: Final = 4  # pixels per module where the alignment pattern is looked for
_ALIGN_REACH: Final = 3  # modules from the affine guess


def _alignment_template() -> NDArray[np.float32]:
    """The 5x5-module alignment pattern inside one light module, at _ALIGN_PX."""
    cells = np.ones((7, 7), np.float32)
    cells[1:6, 1:6] = 0
    cells[2:5, 2:5] = 1
    cells[3, 3] = 0
    return np.repeat(np.repeat(cells, _ALIGN_PX, axis=0), _ALIGN_PX, axis=1)


_TEMPLATE: Final = _alignment_template()


def _find_alignment(
    gray: Gray, affine: NDArray[np.float64], corner: float
) -> tuple[float, float] | None:
    """The alignment pattern centre (module coordinates) near (corner, corner), or None.

    The affine guess is off by up to a few modules under perspective. The search runs on
    the image resampled to module space, so rotation and scale do not matter.
    """
    px = _ALIGN_PX
    half = 3.5 + _ALIGN_REACH  # modules from the guess to the window edge
    side = round(2 * half * px)
    # Window pixel (u, v) is module point (corner - half + (u + 0.5) / px, ...).
    origin = corner - half + 0.5 / px
    to_modules = np.array([[1 / px, 0, origin], [0, 1 / px, origin], [0, 0, 1]])
    window = _resample(gray, affine @ to_modules, side).astype(np.float32)
    scores = cv2.matchTemplate(window, _TEMPLATE, cv2.TM_CCOEFF_NORMED)
    # Prefer matches near the guess: the data modules hold look-alikes further out.
    n = scores.shape[0]
    d = np.hypot(*np.meshgrid(np.arange(n) - (n - 1) / 2, np.arange(n) - (n - 1) / 2))
    scores = scores - 0.05 * d / px
    _, best, _, (bx, by) = cv2.minMaxLoc(scores)
    if best < _MIN_ALIGN:
        return None
    # Sub-pixel peak: a parabola through the best score and its neighbours, each way.
    fx, fy = float(bx), float(by)
    if 0 < bx < n - 1:
        left, mid, right = scores[by, bx - 1], scores[by, bx], scores[by, bx + 1]
        den = left - 2 * mid + right
        fx += 0.5 * (left - right) / den if den < 0 else 0.0
    if 0 < by < n - 1:
        up, mid, down = scores[by - 1, bx], scores[by, bx], scores[by + 1, bx]
        den = up - 2 * mid + down
        fy += 0.5 * (up - down) / den if den < 0 else 0.0
    centre = (_TEMPLATE.shape[0] - 1) / 2
    return (corner - half + (fx + centre + 0.5) / px, corner - half + (fy + centre + 0.5) / px)


def _homography(
    gray: Gray,
    h: NDArray[np.float64],
    finders: _Finders,
    triple: _Triple,
    size: int,
    alignment: bool,
) -> NDArray[np.float64]:
    """Module coordinates (0..size) -> image pixels: the finders' affine grid `h`,
    corrected by the alignment pattern when one is found (else `h` itself)."""
    if not alignment or size < 25:
        return h
    corner = size - 6.5
    found = _find_alignment(gray, h, corner)
    if found is None:
        return h
    at = h @ np.array([found[0], found[1], 1.0])
    at = at / at[2]
    src = np.array([[3.5, 3.5], [size - 3.5, 3.5], [3.5, size - 3.5], [corner, corner]])
    dst = np.array(
        [[finders.x[i], finders.y[i]] for i in (triple.tl, triple.tr, triple.bl)] + [[at[0], at[1]]]
    )
    return np.asarray(
        cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)), np.float64
    )


def _sample(gray: Gray, homography: NDArray[np.float64], size: int) -> Floats:
    """Grey at the centre of every module (bilinear), as a size x size array."""
    # Output pixel (u, v) is module point (u + 0.5, v + 0.5). Centre points beat module
    # means: blur mixes less of the neighbours in there.
    centre = np.array([[1.0, 0, 0.5], [0, 1.0, 0.5], [0, 0, 1]])
    return np.asarray(_resample(gray, homography @ centre, size), np.float64)


def _resample(gray: NDArray[Any], to_image: NDArray[np.float64], side: int) -> NDArray[Any]:
    """The `side` x `side` image whose pixel (u, v) is `gray` at `to_image` @ (u, v, 1),
    interpolated, with the edge repeated beyond the image."""
    resampled: NDArray[Any] = cv2.warpPerspective(
        gray,
        to_image,
        (side, side),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return resampled


def _finder_mask(size: int) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Where the three finder patterns are dark and where they are light (separators too)."""
    one = np.zeros((7, 7), bool)
    one[0, :] = one[6, :] = one[:, 0] = one[:, 6] = True
    one[2:5, 2:5] = True
    dark = np.zeros((size, size), bool)
    known = np.zeros((size, size), bool)
    for y, x in ((0, 0), (0, size - 7), (size - 7, 0)):
        dark[y : y + 7, x : x + 7] = one
        known[y : y + 7, x : x + 7] = True
    return dark, known & ~dark


def _thresholds(cells: Floats, options: Options) -> Iterator[NDArray[np.bool_]]:
    """Dark modules, by a few thresholds, the most successful first."""
    size = cells.shape[0]
    dark, light = _finder_mask(size)
    lo, hi = float(np.median(cells[dark])), float(np.median(cells[light]))
    if hi - lo < 4:
        return
    mid = (lo + hi) / 2
    values = cells
    if options.sharpen:
        # Blur greys a lone module towards its neighbours: push each back from their mean.
        values = 2 * cells - cv2.blur(cells, (3, 3), borderType=cv2.BORDER_REFLECT)
    yield values < mid
    if options.local_threshold:
        # Glare or shade across the code: compare with the surrounding modules instead.
        k = 2 * round(size / 6) + 1
        yield values < cv2.blur(values, (k, k), borderType=cv2.BORDER_REFLECT)
    if options.sharpen:
        yield cells < mid


# One detector per thread: a detector keeps state between calls, and the web server
# decodes on several threads.
_LOCAL: Final = threading.local()


def _decoder() -> cv2.QRCodeDetector:
    detector = getattr(_LOCAL, "detector", None)
    if detector is None:
        detector = _LOCAL.detector = cv2.QRCodeDetector()
    assert isinstance(detector, cv2.QRCodeDetector)
    return detector


def _bch_format_codes() -> NDArray[np.int64]:
    """The 32 valid 15-bit format words (error level and mask, BCH(15,5), masked)."""
    words = []
    for data in range(32):
        remainder = data << 10
        for bit in range(14, 9, -1):
            if remainder & (1 << bit):
                remainder ^= 0x537 << (bit - 10)
        words.append(((data << 10) | remainder) ^ 0x5412)
    return np.array(words, np.int64)


_FORMAT_CODES: Final = _bch_format_codes()
_FORMAT_WEIGHTS: Final = 1 << np.arange(14, -1, -1)


def _format_words(bits: NDArray[np.bool_]) -> tuple[int, int]:
    """The two copies of the format information, most significant bit first."""
    n = bits.shape[0]
    first = [bits[8, x] for x in (0, 1, 2, 3, 4, 5, 7, 8)] + [
        bits[y, 8] for y in (7, 5, 4, 3, 2, 1, 0)
    ]
    second = [bits[y, 8] for y in range(n - 1, n - 8, -1)] + [bits[8, x] for x in range(n - 8, n)]
    return (
        int(np.dot(np.array(first, np.int64), _FORMAT_WEIGHTS)),
        int(np.dot(np.array(second, np.int64), _FORMAT_WEIGHTS)),
    )


def _format_readable(bits: NDArray[np.bool_]) -> bool:
    """Whether the format information looks real: one copy within a bit of a valid word,
    or both copies nearest the same valid word, each within 3 bits.

    A cheap test before OpenCV's full decode: random modules (a wrong candidate or a
    wrong size) pass it a few times in a hundred.
    """
    nearest: list[tuple[int, int]] = []
    for word in _format_words(bits):
        distance = [bin(word ^ int(code)).count("1") for code in _FORMAT_CODES]
        best = min(distance)
        if best <= 1:
            return True
        nearest.append((best, distance.index(best)))
    (d1, w1), (d2, w2) = nearest
    return w1 == w2 and max(d1, d2) <= 3


def _read_modules(bits: NDArray[np.bool_]) -> str:
    """Payload of a clean module grid (True dark), or "" when OpenCV cannot read it."""
    size = bits.shape[0]
    clean = np.full((size + 2 * _QUIET, size + 2 * _QUIET), 255, np.uint8)
    clean[_QUIET:-_QUIET, _QUIET:-_QUIET] = np.where(bits, 0, 255)
    clean = np.repeat(np.repeat(clean, _CLEAN_PX, axis=0), _CLEAN_PX, axis=1)
    a, b = _QUIET * _CLEAN_PX, (_QUIET + size) * _CLEAN_PX
    corners = np.array([[[a, a], [b, a], [b, b], [a, b]]], np.float32)
    text, _ = _decoder().decode(clean, corners)
    return str(text)


# --- the pipeline ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Read:
    payload: str
    corners: tuple[tuple[float, float], ...]
    finders: tuple[int, int, int]


def _read(
    gray: Gray,
    finders: _Finders,
    triple: _Triple,
    size: int,
    base: NDArray[np.float64],
    options: Options,
) -> tuple[_Read | None, bool]:
    """Sample, threshold and decode one candidate code of known size on the finders'
    grid `base` (see _grid), corrected by the alignment pattern.

    Also says whether the candidate looked like a code (its format information read)
    when it did not decode. When the alignment pattern moved the grid and nothing read,
    `base` itself is tried too: a look-alike in the data can pull the alignment search
    off the real pattern.
    """
    grids = [_homography(gray, base, finders, triple, size, options.alignment)]
    if grids[0] is not base and options.base_retry:
        grids.append(base)
    plausible = False
    for h in grids:
        cells = _sample(gray, h, size)
        for bits in _thresholds(cells, options):
            if not _format_readable(bits):
                continue
            plausible = True
            text = _read_modules(bits)
            if text:
                quad = np.array([[[0, 0], [size, 0], [size, size], [0, size]]], np.float64)
                pts = cv2.perspectiveTransform(quad, h)[0]
                corners = tuple((float(x), float(y)) for x, y in pts)
                return _Read(text, corners, (triple.tl, triple.tr, triple.bl)), True
    return None, plausible


def _binarize(gray: Gray, block: int, offset: float) -> Gray:
    # The window grows with the photo (a 1080p photo of the same table has bigger
    # modules) but never shrinks below `block`: a small image is usually a close crop.
    block = max(block, round(block * gray.shape[0] / 720)) | 1
    return np.asarray(
        cv2.adaptiveThreshold(
            gray, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, offset
        ),
        np.uint8,
    )


def _scan(gray: Gray, block: int, offset: float, options: Options) -> tuple[list[_Read], int]:
    """Codes read with one binarisation, and how many good candidates failed to read."""
    f = _finders(_binarize(gray, block, offset), options.tolerance, options.min_run)
    c = _candidates(f, options)
    scores = _timing_scores(gray, f, c)
    if options.perspective and scores.size:
        tilted = _tilted(f, c, scores)
        c = _joined(c, tilted)
        scores = np.concatenate([scores, _timing_scores(gray, f, tilted)])
    # The best size and perspective of each triple, then triples by how clearly their
    # timing shows.
    best: dict[_Triple, tuple[float, int]] = {}
    for at in np.flatnonzero(scores >= options.min_timing).tolist():
        t = _Triple(int(c.tl[at]), int(c.tr[at]), int(c.bl[at]))
        if t not in best or scores[at] > best[t][0]:
            best[t] = (float(scores[at]), at)
    reads: list[_Read] = []
    used: set[int] = set()
    failed = 0
    for t, (_, i) in sorted(best.items(), key=lambda item: -item[1][0]):
        if used & {t.tl, t.tr, t.bl}:
            continue
        size = int(c.size[i])
        base = _grid(f, t, size, float(c.across[i]), float(c.down[i]))
        read, plausible = _read(gray, f, t, size, base, options)
        if read is None:
            failed += plausible
        else:
            reads.append(read)
            used.update(read.finders)
    return reads, failed


def _center(corners: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return (sum(p[0] for p in corners) / 4, sum(p[1] for p in corners) / 4)


def _merge(found: list[_Read], more: list[_Read]) -> None:
    """Add reads of codes not yet found (same text, centre within half a code)."""
    for read in more:
        cx, cy = _center(read.corners)
        span = math.dist(read.corners[0], read.corners[2]) / 2
        if not any(
            r.payload == read.payload and math.dist(_center(r.corners), (cx, cy)) < span
            for r in found
        ):
            found.append(read)


def _stock(gray: Gray, which: str) -> list[_Read]:
    """Codes OpenCV's own detector finds (a fallback the benchmark can measure)."""
    detector: cv2.QRCodeDetector | cv2.QRCodeDetectorAruco
    detector = cv2.QRCodeDetectorAruco() if which == "aruco" else cv2.QRCodeDetector()
    ok, texts, points, _ = detector.detectAndDecodeMulti(gray)
    if not ok or points is None:
        return []
    return [
        _Read(str(text), tuple((float(x), float(y)) for x, y in quad), (-1, -1, -1))
        for text, quad in zip(texts, points, strict=True)
        if text
    ]


def _scaled(reads: list[_Read], by: float) -> list[_Read]:
    """Reads from an image scaled by 1 / `by`, in the original's pixels."""
    if by == 1:
        return reads
    return [
        _Read(
            r.payload,
            tuple(((x + 0.5) * by - 0.5, (y + 0.5) * by - 0.5) for x, y in r.corners),
            r.finders,
        )
        for r in reads
    ]


def _shrink(gray: Gray, factor: float) -> Gray:
    if factor == 1:
        return gray
    return np.asarray(
        cv2.resize(gray, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA),
        np.uint8,
    )


def _levels(shape: tuple[int, ...], options: Options, full: int = 1) -> list[int]:
    """Downscale factors to scan at, in turn: large photos start smaller, then go as sharp
    as `full` allows (1 = full size; an upload over FULL_PASS_PIXELS stops at 2 or 4)."""
    first = max(1, math.ceil(max(shape) / options.max_side))
    levels = [first] + ([full] if full < first else [])
    # Modules much wider than the threshold window (a close-up) read at lower scale.
    levels += [f for f in options.pyramid if f > first and min(shape) // f >= 64]
    return levels


class _Photo:
    """The photo's pixels at the reductions decoded so far: an upload's are decoded only
    as the passes need them (`reduce` = how many times smaller each way)."""

    def __init__(
        self, image: bytes | bytearray | memoryview | Gray | Image.Image, clahe: bool = False
    ) -> None:
        self._data: bytes | bytearray | memoryview | None = None
        self._clahe = clahe
        self.pixels: dict[int, Gray] = {}
        if isinstance(image, bytes | bytearray | memoryview):
            width, height, kind = _header(image)
            self._data, self._jpeg = image, kind in _JPEG
            self.shape: tuple[int, int] = (height, width)
        else:
            gray = read_image(image)
            self.shape = (gray.shape[0], gray.shape[1])
            self._keep(1, gray)

    def _keep(self, reduce: int, gray: Gray) -> Gray:
        (h, w), (height, width) = gray.shape, self.shape
        if h != w and height != width and (h > w) != (height > width):
            self.shape = (width, height)  # turned upright by its EXIF orientation
        if self._clahe:  # equalised before anything else
            gray = np.asarray(cv2.createCLAHE(2.0, (8, 8)).apply(gray), np.uint8)
        self.pixels[reduce] = gray
        return gray

    @property
    def decoded(self) -> tuple[int, ...]:
        return tuple(self.pixels)

    def at_most(self, factor: float) -> tuple[Gray, int]:
        """The smallest pixels already decoded, or decodable, that are at least as sharp as
        the photo reduced `factor` times: (pixels, their reduction)."""
        ready = [r for r in self.pixels if r <= factor]
        if ready:
            return self.pixels[max(ready)], max(ready)
        assert self._data is not None  # an array's full size is kept from the start
        # Only libjpeg decodes reduced without the full-size pixels; other formats are
        # decoded whole once (OpenCV would decode them whole for a reduction too).
        reduce = max(r for r in _REDUCED_FLAGS if r <= factor) if self._jpeg else 1
        return self._keep(reduce, _imdecode(self._data, reduce)), reduce

    def largest_pass(self) -> int:
        """The reduction of the largest scan allowed for this photo (1 = full size, 2 =
        half...): full size up to FULL_PASS_PIXELS (MAX_PIXELS, refused above, fits at a
        quarter)."""
        if self._data is None:
            return 1
        pixels = self.shape[0] * self.shape[1]
        return next(r for r in _REDUCED_FLAGS if pixels <= FULL_PASS_PIXELS * r * r)


def decode(
    image: bytes | Gray | Image.Image,
    known: Mapping[str, int] | None = None,
    options: Options = DEFAULT,
) -> DecodeResult:
    """Every QR code in a photo: payload, the card it names (given `known`), corners.

    `image` is encoded bytes (JPEG, PNG, WebP...), a Pillow image or a pixel array.
    `known` maps card ids to their copies (`payload.known_copies`); without it any
    well-formed sticker URL counts as a card. Codes that name no card are kept, with
    `card=None`. Raises ImageError for what is not an 8-bit image. Encoded bytes are
    decoded reduced as far as the first scans allow (see the module's docstring).
    """
    photo = _Photo(image, options.clahe)
    found: list[_Read] = []
    failed = 0

    # Later steps run only while something looked like a code but did not read, or
    # nothing was found at all.
    def stuck() -> bool:
        return failed > 0 or not found

    for i, factor in enumerate(_levels(photo.shape, options, photo.largest_pass())):
        if i and not stuck():
            break
        gray, reduce = photo.at_most(factor)
        more, failed = _scan(_shrink(gray, factor / reduce), options.block, options.offset, options)
        _merge(found, _scaled(more, factor))
    # The fallbacks below work on the sharpest pixels decoded.
    reduce = min(photo.decoded)
    gray = photo.pixels[reduce]
    for block, offset in options.retry:
        if not stuck():
            break
        more, failed = _scan(gray, block, offset, options)
        _merge(found, _scaled(more, reduce))
    if options.upscale and stuck():
        big = np.asarray(
            cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC), np.uint8
        )
        more, failed = _scan(big, options.block, options.offset, options)
        _merge(found, _scaled(more, reduce / 2))
    if options.stock and stuck():
        _merge(found, _scaled(_stock(gray, options.stock), reduce))
    codes = tuple(ScannedCode(r.payload, identify(r.payload, known), r.corners) for r in found)
    return DecodeResult(codes, photo.shape[1], photo.shape[0], photo.decoded)


def decode_stock(
    image: bytes | Gray | Image.Image,
    which: Literal["plain", "aruco"] = "plain",
    known: Mapping[str, int] | None = None,
) -> DecodeResult:
    """OpenCV's own multi-code detector alone: the baseline the benchmark compares with."""
    gray = read_image(image)
    codes = tuple(
        ScannedCode(r.payload, identify(r.payload, known), r.corners) for r in _stock(gray, which)
    )
    return DecodeResult(codes, gray.shape[1], gray.shape[0])


def decode_qr(image: bytes) -> str | None:
    """The first payload found in an encoded photo, or None."""
    result = decode(image)
    return result.codes[0].payload if result.codes else None
