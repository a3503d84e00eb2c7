"""Photo-like test images of QR stickers on cards, made at test time from a seed.

Shared by tests/vision and `companion.vision.bench`, so there are no binary fixtures.
Pillow only (no OpenCV, no numpy), and every random choice comes from the seed: the same
seed always draws the same picture, pixel for pixel.

A scene is built like a photo is taken: cards with stickers lie on a textured table
(`_table`, `_card`), a camera sees the table through a homography (`_camera`), and then
the picture gets glare, low light, blur, sensor noise and JPEG compression.
"""

from __future__ import annotations

import hashlib
import io
import math
import random
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Final, Literal

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps

from companion.vision.stickers import DEFAULT_QUIET, ErrorLevel, qr_matrix, sticker_image

__all__ = [
    "FOREIGN_PAYLOADS",
    "HOSTS",
    "KINDS",
    "SAMPLE_CARDS",
    "SIZES",
    "Kind",
    "PlacedCode",
    "Scene",
    "make_scene",
    "scenes",
]

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
Kind = Literal["perspective", "rotation", "blur", "noise", "low_light", "glare", "small"]
KINDS: Final[tuple[Kind, ...]] = (
    "perspective",
    "rotation",
    "blur",
    "noise",
    "low_light",
    "glare",
    "small",
)
SIZES: Final[tuple[tuple[int, int], ...]] = ((1280, 720), (1920, 1080))
# Each distortion's chance in a random scene (bench); tests force the kinds they need.
_ODDS: Final[dict[Kind, float]] = {
    "perspective": 0.5,
    "rotation": 0.5,
    "blur": 0.35,
    "noise": 0.4,
    "low_light": 0.3,
    "glare": 0.3,
    "small": 0.3,
}
# Real card ids (base and Rise of Ix) with their copies: short and long ids, so payloads
# span QR versions 3 to 5.
SAMPLE_CARDS: Final[tuple[tuple[str, int], ...]] = (
    ("arrakis_recruiter", 2),
    ("guild_chief_administrator", 1),
    ("the_spice_must_flow", 10),
    ("arrakis_liaison", 8),
    ("foldspace", 6),
    ("dune_the_desert_planet", 8),
    ("kwisatz_haderach", 1),
    ("spice_hunter", 1),
    ("bene_gesserit_sister", 3),
    ("water_peddlers_union", 1),
    ("secret_of_the_sisterhood", 1),
    ("paul_atreides", 1),
    ("holtzman_engine", 1),
    ("battle_for_imperial_basin", 1),
)
HOSTS: Final[tuple[str, ...]] = (
    "http://192.168.1.20:5000",
    "https://dune.local:8443",
    "http://10.0.0.7:8000",
    "http://companion.lan",
    "https://192.168.178.34:5443",
)
# Codes a player might have on the table that are not ours; decoders must read them too.
FOREIGN_PAYLOADS: Final[tuple[str, ...]] = (
    "https://example.com/menu?table=4",
    "WIFI:S:HomeNet;T:WPA;P:correct-horse;;",
    "https://boardgamegeek.com/boardgame/316554",
    "Dune Imperium promo 2024",
    "http://192.168.1.20:5000/c/not_a_card/1",
    "http://192.168.1.20:5000/c/arrakis_recruiter/0",
)
_CARD_MM: Final = (63.0, 88.0)
_PITCH: Final = {"normal": (2.6, 5.5), "small": (1.9, 2.5)}
# No code is placed where the camera would see it at under this many pixels per module:
# neither decoder can read it, so it would only dilute the benchmark.
_MIN_PITCH: Final = 1.7


@dataclass(frozen=True, slots=True)
class PlacedCode:
    """One code in a scene: its payload and where its modules are in the image.

    `corners` go round the code from its top-left module (as printed) clockwise, in
    pixels with pixel centres at whole numbers (OpenCV's convention); `module_px` is the
    camera's pixels per module there (the square root of its area over `modules`).
    """

    payload: str
    corners: Quad
    module_px: float
    error: ErrorLevel
    modules: int

    @property
    def center(self) -> Point:
        return (
            sum(p[0] for p in self.corners) / 4,
            sum(p[1] for p in self.corners) / 4,
        )


@dataclass(frozen=True, slots=True)
class Scene:
    """A generated photo (decoded from `jpeg`) and the codes truly in it."""

    seed: int
    size: tuple[int, int]
    kinds: frozenset[Kind]
    codes: tuple[PlacedCode, ...]
    jpeg: bytes
    image: Image.Image


# --- geometry -------------------------------------------------------------------------


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting for a small dense system."""
    n = len(rhs)
    m = [[*row, rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _homography(src: Sequence[Point], dst: Sequence[Point]) -> tuple[float, ...]:
    """The 8 coefficients (h33 = 1) of the homography taking `src` to `dst`."""
    a: list[list[float]] = []
    b: list[float] = []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b.append(v)
    return tuple(_solve(a, b))


def _apply(homography: Sequence[float], point: Point) -> Point:
    x, y = point
    w = homography[6] * x + homography[7] * y + 1
    return (
        (homography[0] * x + homography[1] * y + homography[2]) / w,
        (homography[3] * x + homography[4] * y + homography[5]) / w,
    )


def _rotate(point: Point, angle: float, about: Point = (0.0, 0.0)) -> Point:
    c, s = math.cos(angle), math.sin(angle)
    x, y = point[0] - about[0], point[1] - about[1]
    return (about[0] + c * x - s * y, about[1] + s * x + c * y)


def _place(point: Point, size: tuple[int, int], angle: float, centre: Point) -> Point:
    """A point of a card image once the card lies turned by `angle` at `centre`."""
    q = _rotate((point[0] - size[0] / 2, point[1] - size[1] / 2), angle)
    return (q[0] + centre[0], q[1] + centre[1])


def _separated(first: Sequence[Point], second: Sequence[Point]) -> bool:
    """True when two convex polygons do not overlap (separating axis theorem)."""
    for poly in (first, second):
        for i, p in enumerate(poly):
            q = poly[(i + 1) % len(poly)]
            nx, ny = q[1] - p[1], p[0] - q[0]
            pa = [nx * x + ny * y for x, y in first]
            pb = [nx * x + ny * y for x, y in second]
            if max(pa) < min(pb) or max(pb) < min(pa):
                return True
    return False


def _grow(quad: Sequence[Point], by: float) -> list[Point]:
    cx = sum(p[0] for p in quad) / len(quad)
    cy = sum(p[1] for p in quad) / len(quad)
    out: list[Point] = []
    for x, y in quad:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + (x - cx) * by / d, y + (y - cy) * by / d))
    return out


def _area(quad: Sequence[Point]) -> float:
    return abs(
        sum(quad[i][0] * quad[(i + 1) % 4][1] - quad[(i + 1) % 4][0] * quad[i][1] for i in range(4))
        / 2
    )


# --- pixels ---------------------------------------------------------------------------


def _noise(rng: random.Random, size: tuple[int, int], sigma: float | None = None) -> Image.Image:
    """Seeded noise, uniform 0..255 or (with `sigma`) Gaussian around 128."""
    seed = rng.getrandbits(128).to_bytes(16, "big")
    image = Image.frombytes("L", size, hashlib.shake_256(seed).digest(size[0] * size[1]))
    if sigma is None:
        return image
    normal = NormalDist(128, sigma)
    lut = [min(255, max(0, round(normal.inv_cdf((i + 0.5) / 256)))) for i in range(256)]
    return image.point(lut)


def _blotches(
    rng: random.Random, size: tuple[int, int], cell: int, stretch: int = 1
) -> Image.Image:
    """Smooth random blotches about `cell` pixels wide (`stretch` > 1 draws grain)."""
    small = (max(2, size[0] // (cell * stretch)), max(2, size[1] * stretch // cell))
    return ImageOps.autocontrast(_noise(rng, small).resize(size, Image.Resampling.BICUBIC))


def _color(rng: random.Random, lo: int, hi: int) -> tuple[int, int, int]:
    return (rng.randint(lo, hi), rng.randint(lo, hi), rng.randint(lo, hi))


_TABLES: Final = (
    ((70, 40, 20), (170, 110, 60), 8),  # wood
    ((10, 50, 25), (40, 110, 60), 1),  # felt
    ((60, 60, 65), (150, 150, 155), 1),  # slate
    ((170, 165, 150), (235, 230, 220), 1),  # tablecloth
    ((20, 20, 25), (70, 65, 70), 1),  # dark mat
)


def _table(rng: random.Random, size: tuple[int, int]) -> Image.Image:
    dark, light, stretch = rng.choice(_TABLES)
    grain = _blotches(rng, size, rng.randint(20, 60), stretch)
    coarse = _blotches(rng, size, rng.randint(150, 400))
    tone = Image.blend(grain, coarse, 0.4)
    table = ImageOps.colorize(tone, dark, light)
    return ImageChops.add(table, _noise(rng, size, 6).convert("RGB"), 1.0, -128)


def _card(
    rng: random.Random, scale: float, payload: str, error: ErrorLevel, code_mm: float
) -> tuple[Image.Image, Quad, float]:
    """A card face (RGBA, `scale` px per mm) with a sticker; its code's corners and pitch."""
    w, h = round(_CARD_MM[0] * scale), round(_CARD_MM[1] * scale)
    face = ImageOps.colorize(
        _blotches(rng, (w, h), max(4, w // 6)), _color(rng, 20, 90), _color(rng, 120, 230)
    )
    draw = ImageDraw.Draw(face)
    # Art: shapes with hard edges, some of them square, to give detectors false leads.
    for _ in range(rng.randint(4, 12)):
        x0, y0 = rng.uniform(-0.2, 1) * w, rng.uniform(-0.2, 1) * h
        x1, y1 = x0 + rng.uniform(0.05, 0.5) * w, y0 + rng.uniform(0.05, 0.4) * h
        fill = _color(rng, 0, 255)
        if rng.random() < 0.5:
            draw.ellipse((x0, y0, x1, y1), fill=fill)
        else:
            draw.rectangle((x0, y0, x1, y1), fill=fill)
    draw.rectangle((0, 0, w - 1, round(9 * scale)), fill=_color(rng, 10, 60))
    for i in range(rng.randint(2, 5)):
        y = h - (8 + 4 * i) * scale
        draw.rectangle((5 * scale, y, rng.uniform(0.3, 0.9) * w, y + 1.6 * scale), fill=(25,) * 3)
    border = max(1, round(2.5 * scale))
    draw.rectangle((0, 0, w - 1, h - 1), outline=_color(rng, 0, 40), width=border)

    matrix = qr_matrix(payload, error)
    n = len(matrix)
    pitch = code_mm / n * scale
    hi = max(4, math.ceil(pitch * 3))
    paper, ink = rng.randint(225, 255), rng.randint(0, 45)
    sticker = sticker_image(matrix, hi, DEFAULT_QUIET, "Sticker #1", hi / 0.5, ink, paper)
    side = round(sticker.width * pitch / hi)
    sticker = sticker.resize(
        (side, round(sticker.height * pitch / hi)), Image.Resampling.LANCZOS
    ).convert("RGB")
    pitch = side / (n + 2 * DEFAULT_QUIET)
    # Stickers go in a corner or the middle of the sleeve, where they hide little text.
    margin = 3 * scale
    sx = rng.choice((margin, (w - sticker.width) / 2, w - sticker.width - margin))
    sy = rng.choice((margin + 9 * scale, (h - sticker.height) / 2, h - sticker.height - margin))
    sx, sy = round(sx), round(sy)
    face.paste(sticker, (sx, sy))
    q0 = DEFAULT_QUIET * pitch
    x0, y0, x1, y1 = sx + q0, sy + q0, sx + q0 + n * pitch, sy + q0 + n * pitch
    corners: Quad = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))

    alpha = Image.new("L", (w, h), 0)
    ImageDraw.Draw(alpha).rounded_rectangle((0, 0, w - 1, h - 1), radius=3 * scale, fill=255)
    face.putalpha(alpha)
    return face, corners, pitch


def _lut(fn: Callable[[float], float]) -> list[int]:
    """A lookup table applying `fn` to every grey level of each of the three channels."""
    return [min(255, max(0, round(fn(v)))) for v in range(256)] * 3


# --- scenes ---------------------------------------------------------------------------


def _camera(
    rng: random.Random, size: tuple[int, int], strong: bool
) -> tuple[tuple[float, ...], tuple[int, int]]:
    """Where the camera's frame falls on the table: output->table homography, table size."""
    w, h = size
    ratio = rng.uniform(1.3, 1.8) if strong else rng.uniform(1.0, 1.08)
    jitter = (0.06 if strong else 0.02) * w
    far, near = w * ratio, w
    depth = h * (1 + ratio) / 2
    shift = rng.uniform(-0.15, 0.15) * w if strong else 0.0
    quad = [
        (-far / 2 + shift, 0.0),
        (far / 2 + shift, 0.0),
        (near / 2, depth),
        (-near / 2, depth),
    ]
    if rng.random() < 0.5:  # the near side at the top of the frame instead
        quad = [(x, depth - y) for x, y in (quad[3], quad[2], quad[1], quad[0])]
    quad = [(x + rng.uniform(-jitter, jitter), y + rng.uniform(-jitter, jitter)) for x, y in quad]
    min_x, min_y = min(p[0] for p in quad), min(p[1] for p in quad)
    quad = [(x - min_x, y - min_y) for x, y in quad]
    table = (math.ceil(max(p[0] for p in quad)) + 1, math.ceil(max(p[1] for p in quad)) + 1)
    frame = [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))]
    return _homography(frame, quad), table


def _payload(rng: random.Random) -> str:
    if rng.random() < 0.06:
        return rng.choice(FOREIGN_PAYLOADS)
    card, copies = rng.choice(SAMPLE_CARDS)
    return f"{rng.choice(HOSTS)}/c/{card}/{rng.randint(1, copies)}"


def _pick_kinds(rng: random.Random) -> frozenset[Kind]:
    return frozenset(k for k in KINDS if rng.random() < _ODDS[k])


def make_scene(
    seed: int,
    size: tuple[int, int] = SIZES[0],
    count: int | None = None,
    kinds: Collection[Kind] | None = None,
    payloads: Sequence[str] | None = None,
    error: ErrorLevel | None = None,
) -> Scene:
    """Draw one photo of `count` (default 1-6) stickered cards with these distortions.

    `kinds=None` draws the distortions at random; otherwise exactly those are strong and
    the others mild. `payloads` fixes what the codes say (and their number).
    """
    rng = random.Random(seed)
    chosen = _pick_kinds(rng) if kinds is None else frozenset(kinds)
    if payloads is not None:
        count = len(payloads)
    elif count is None:
        count = rng.randint(1, 6)
    w, h = size
    res = h / 720

    to_table, table_size = _camera(rng, size, "perspective" in chosen)
    frame = [(0.0, 0.0), (float(w), 0.0), (float(w), float(h)), (0.0, float(h))]
    to_frame = _homography([_apply(to_table, p) for p in frame], frame)
    table = _table(rng, table_size)

    lo, hi = _PITCH["small" if "small" in chosen else "normal"]
    pitch_goal = rng.uniform(lo, hi)
    # Table pixels per mm giving `pitch_goal` camera pixels per module for a 17.5 mm
    # version 4 code at the middle of the frame.
    centre = _apply(to_table, (w / 2, h / 2))
    local = math.dist(centre, _apply(to_table, (w / 2 + 1, h / 2)))
    scale = pitch_goal * local / (17.5 / 33)

    codes: list[PlacedCode] = []
    keep_clear: list[list[Point]] = []
    for i in range(count):
        payload = payloads[i] if payloads is not None else _payload(rng)
        level: ErrorLevel = error or ("Q" if rng.random() < 0.3 else "M")
        code_mm = 15.0 if "small" in chosen else rng.uniform(15.0, 20.0)
        face, code, pitch = _card(rng, scale, payload, level, code_mm)
        modules = len(qr_matrix(payload, level))
        cw, ch = face.size
        for _ in range(200):
            if "rotation" in chosen:
                angle = rng.uniform(0, 2 * math.pi)
            else:
                angle = math.radians(rng.uniform(-12, 12))
            # Aim the code itself at a random spot of the frame; the card follows.
            target = _apply(to_table, (rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, 0.95) * h))
            cc = ((code[0][0] + code[2][0]) / 2, (code[0][1] + code[2][1]) / 2)
            offset = _rotate((cc[0] - cw / 2, cc[1] - ch / 2), angle)
            centre = (target[0] - offset[0], target[1] - offset[1])

            outline = [
                _place(p, face.size, angle, centre) for p in ((0, 0), (cw, 0), (cw, ch), (0, ch))
            ]
            in_table = [_place(p, face.size, angle, centre) for p in code]
            seen = [_apply(to_frame, p) for p in in_table]
            module_px = math.sqrt(_area(seen)) / modules
            margin = (DEFAULT_QUIET + 1) * module_px
            inside = all(margin <= x <= w - margin and margin <= y <= h - margin for x, y in seen)
            if not inside or module_px < _MIN_PITCH:
                continue
            if not all(_separated(outline, other) for other in keep_clear):
                continue
            break
        else:
            continue  # no room left for this card: the scene has fewer codes
        x0 = math.floor(min(p[0] for p in outline))
        y0 = math.floor(min(p[1] for p in outline))
        x1 = math.ceil(max(p[0] for p in outline))
        y1 = math.ceil(max(p[1] for p in outline))
        # Table pixel -> card pixel, for Image.transform.
        c, s = math.cos(-angle), math.sin(-angle)
        ox, oy = x0 - centre[0], y0 - centre[1]
        coeffs = (c, -s, c * ox - s * oy + cw / 2, s, c, s * ox + c * oy + ch / 2)
        warped = face.transform(
            (x1 - x0, y1 - y0), Image.Transform.AFFINE, coeffs, Image.Resampling.BICUBIC
        )
        table.paste(warped, (x0, y0), warped)
        keep_clear.append(_grow(in_table, pitch * (DEFAULT_QUIET + 1)))
        # Pillow puts pixel centres at +0.5; OpenCV (and `corners`) at whole numbers.
        corners = tuple((x - 0.5, y - 0.5) for x, y in seen)
        assert len(corners) == 4
        codes.append(PlacedCode(payload, corners, module_px, level, modules))

    image = table.transform(size, Image.Transform.PERSPECTIVE, to_table, Image.Resampling.BICUBIC)

    if "low_light" in chosen:
        gamma, gain = rng.uniform(1.5, 2.4), rng.uniform(0.35, 0.6)
    else:
        gamma, gain = rng.uniform(0.9, 1.1), rng.uniform(0.9, 1.0)
    image = image.point(_lut(lambda v: 255 * gain * (v / 255) ** gamma))

    if "glare" in chosen:
        mask = Image.new("L", size, 0)
        draw = ImageDraw.Draw(mask)
        for i in range(rng.randint(1, 2)):
            if i == 0 and codes:
                # Light reflected off a sleeve: over or right beside one of the codes.
                cx, cy = rng.choice(codes).center
                reach = 20 * max(c.module_px for c in codes)
                cx += rng.uniform(-0.4, 0.4) * reach
                cy += rng.uniform(-0.4, 0.4) * reach
            else:
                cx, cy = rng.uniform(0, w), rng.uniform(0, h)
                reach = rng.uniform(0.1, 0.3) * h
            rx, ry = reach * rng.uniform(0.5, 1.2), reach * rng.uniform(0.3, 0.8)
            draw.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=rng.randint(150, 235))
        mask = mask.filter(ImageFilter.GaussianBlur(rng.uniform(0.15, 0.35) * h / 4))
        image = Image.composite(Image.new("RGB", size, (255, 255, 250)), image, mask)

    if "blur" in chosen:
        radius = rng.uniform(0.35, 0.6) * min(c.module_px for c in codes) if codes else 1.0
    else:
        radius = rng.uniform(0.2, 0.5) * res
    image = image.filter(ImageFilter.GaussianBlur(radius))

    sigma = rng.uniform(6, 14) if "noise" in chosen else rng.uniform(1.5, 3)
    noise = Image.merge("RGB", [_noise(rng, size, sigma) for _ in range(3)])
    image = ImageChops.add(image, noise, 1.0, -128)

    out = io.BytesIO()
    image.save(out, format="JPEG", quality=rng.randint(72, 92))
    jpeg = out.getvalue()
    image = Image.open(io.BytesIO(jpeg)).convert("RGB")
    return Scene(seed, size, chosen, tuple(codes), jpeg, image)


def scenes(count: int, seed: int = 0) -> Iterator[Scene]:
    """`n` random scenes for the benchmark, alternating 1280x720 and 1920x1080."""
    for i in range(count):
        yield make_scene(seed * 1_000_003 + i, SIZES[i % len(SIZES)])
