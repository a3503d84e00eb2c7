"""QR stickers for card sleeves: one per physical copy, as SVG (for print) or PNG.

Pure: the `qrcode` package encodes, this module draws, so every size is exact in
millimetres. No Flask and no OpenCV; the sheet page itself (CSS `@page`) is the web
layer's.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw, ImageFont

from companion.rules.catalog import Catalog
from companion.vision.payload import DECKS_IN_BOX, build_payload

__all__ = [
    "PAGES_MM",
    "STICKER_KINDS",
    "ErrorLevel",
    "Layout",
    "Matrix",
    "Sticker",
    "StickerKind",
    "catalog_stickers",
    "layout",
    "qr_matrix",
    "sheet_png",
    "sticker_image",
    "sticker_png",
    "sticker_svg",
]

ErrorLevel = Literal["L", "M", "Q", "H"]
StickerKind = Literal["imperium", "reserve", "starter", "intrigue", "conflict", "leader", "tech"]
STICKER_KINDS: Final[tuple[StickerKind, ...]] = (
    "imperium",
    "reserve",
    "starter",
    "intrigue",
    "conflict",
    "leader",
    "tech",
)
PAGES_MM: Final = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
Matrix = tuple[tuple[bool, ...], ...]

# 0.5 mm modules put a version 3-4 code (29-33 modules: our URLs with a LAN host) at
# 15-17 mm, which fits a card corner or sleeve; a phone reads it from 20-30 cm.
DEFAULT_MODULE_MM: Final = 0.5
# Two modules of quiet zone instead of the standard four keep stickers small; OpenCV and
# zxing-cpp both decode that reliably (tests/vision measure it on generated photos).
DEFAULT_QUIET: Final = 2
_LABEL_FONT_MM: Final = 1.6
_LABEL_GAP_MM: Final = 0.4
_INK: Final = "#000"
_EC: Final = {"L": 1, "M": 0, "Q": 3, "H": 2}  # qrcode.constants.ERROR_CORRECT_*


@dataclass(frozen=True, slots=True)
class Sticker:
    """What one sticker names: a card, which copy, and the name printed under the code."""

    card_id: str
    copy: int
    name: str

    @property
    def label(self) -> str:
        return f"{self.name} #{self.copy}"


@dataclass(frozen=True, slots=True)
class Layout:
    """Sizes of one sticker in millimetres: the code, its quiet zone, the label strip."""

    modules: int
    module_mm: float
    quiet: int
    label_mm: float

    @property
    def code_mm(self) -> float:
        return self.modules * self.module_mm

    @property
    def width_mm(self) -> float:
        return (self.modules + 2 * self.quiet) * self.module_mm

    @property
    def height_mm(self) -> float:
        return self.width_mm + self.label_mm


@lru_cache(maxsize=2048)
def qr_matrix(payload: str, error: ErrorLevel = "M") -> Matrix:
    """The smallest QR code (never Micro QR) for `payload`: True is a dark module."""
    import qrcode  # type: ignore[import-untyped, unused-ignore]

    code = qrcode.QRCode(error_correction=_EC[error], border=0)
    code.add_data(payload)
    code.make(fit=True)
    return tuple(tuple(bool(v) for v in row) for row in code.get_matrix())


def layout(
    matrix: Matrix,
    module_mm: float = DEFAULT_MODULE_MM,
    quiet: int = DEFAULT_QUIET,
    label: bool = True,
) -> Layout:
    """How big a sticker for this code is."""
    label_mm = _LABEL_FONT_MM + _LABEL_GAP_MM if label else 0.0
    return Layout(len(matrix), module_mm, quiet, label_mm)


def qr_path(matrix: Matrix, quiet: int) -> str:
    """An SVG path of the dark modules, one unit per module, shifted by the quiet zone."""
    return "".join(f"M{x + quiet} {y + quiet}h{n}v1h-{n}z" for y, x, n in _runs(matrix))


def _runs(matrix: Matrix) -> Iterable[tuple[int, int, int]]:
    """Horizontal runs of dark modules as (row, first column, length)."""
    for y, row in enumerate(matrix):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                yield y, start, x - start
            else:
                x += 1


def _fmt(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def sticker_svg(
    sticker: Sticker,
    base_url: str,
    module_mm: float = DEFAULT_MODULE_MM,
    error: ErrorLevel = "M",
    quiet: int = DEFAULT_QUIET,
    label: bool = True,
) -> str:
    """One sticker as a standalone `<svg>` sized in millimetres, code above its label."""
    matrix = qr_matrix(build_payload(base_url, sticker.card_id, sticker.copy), error)
    size = layout(matrix, module_mm, quiet, label)
    w, h = size.width_mm, size.height_mm
    # The viewBox counts modules so the path stays integral; the label has its own scale.
    path = qr_path(matrix, quiet)
    total = size.modules + 2 * quiet
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(w)}mm" height="{_fmt(h)}mm"'
        f' viewBox="0 0 {_fmt(w)} {_fmt(h)}" class="qr-sticker">',
        f"<title>{escape(sticker.label)}</title>",
        f'<rect width="{_fmt(w)}" height="{_fmt(h)}" fill="#fff"/>',
        f'<g transform="scale({_fmt(w / total)})">'
        f'<path d="{path}" fill="{_INK}" shape-rendering="crispEdges"/></g>',
    ]
    if label:
        font = _LABEL_FONT_MM
        fit = ""
        # Roughly 0.55 em per character in a sans face; squeeze long names to the width.
        if len(sticker.label) * 0.55 * font > w - 2 * module_mm:
            fit = f' textLength="{_fmt(w - 2 * module_mm)}" lengthAdjust="spacingAndGlyphs"'
        parts.append(
            f'<text x="{_fmt(w / 2)}" y="{_fmt(w + font * 0.85)}" font-size="{_fmt(font)}"'
            f' font-family="sans-serif" text-anchor="middle" fill="{_INK}"{fit}>'
            f"{escape(sticker.label)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _font(px: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=max(6.0, px))


def sticker_image(
    matrix: Matrix,
    module_px: int,
    quiet: int = DEFAULT_QUIET,
    text: str | None = None,
    px_per_mm: float | None = None,
    ink: int = 0,
    paper: int = 255,
) -> Image.Image:
    """A grayscale sticker at `module_px` pixels per module, with `text` under the code."""
    if px_per_mm is None:
        px_per_mm = module_px / DEFAULT_MODULE_MM
    n = len(matrix)
    total = n + 2 * quiet
    bits = bytes(ink if v else paper for row in matrix for v in row)
    code = Image.frombytes("L", (n, n), bits).resize(
        (n * module_px, n * module_px), Image.Resampling.NEAREST
    )
    side = total * module_px
    label_px = 0 if text is None else math.ceil((_LABEL_FONT_MM + _LABEL_GAP_MM) * px_per_mm)
    image = Image.new("L", (side, side + label_px), paper)
    image.paste(code, (quiet * module_px, quiet * module_px))
    if text is not None:
        draw = ImageDraw.Draw(image)
        room = side - 2 * module_px
        # Shrink the print a little, then shorten the name; the copy number always stays.
        for scale in (1.0, 0.9, 0.8, 0.7):
            font = _font(_LABEL_FONT_MM * px_per_mm * scale)
            if draw.textlength(text, font=font) <= room:
                break
        name, sep, copy = text.rpartition(" #")
        while draw.textlength(text, font=font) > room and len(name) > 1:
            name = name[:-1]
            text = f"{name.rstrip()}…{sep}{copy}"
        draw.text((side / 2, side + label_px / 2), text, fill=ink, font=font, anchor="mm")
    return image


def _png(image: Image.Image, dpi: float | None = None) -> bytes:
    out = io.BytesIO()
    if dpi is None:
        image.save(out, format="PNG", optimize=True)
    else:
        image.save(out, format="PNG", optimize=True, dpi=(dpi, dpi))
    return out.getvalue()


def _module_px(module_mm: float, dpi: int) -> int:
    # Whole pixels per module keep every module the same width on paper.
    return max(1, round(module_mm * dpi / 25.4))


def sticker_png(
    sticker: Sticker,
    base_url: str,
    module_mm: float = DEFAULT_MODULE_MM,
    dpi: int = 300,
    error: ErrorLevel = "M",
    quiet: int = DEFAULT_QUIET,
) -> bytes:
    """One sticker as a PNG at `dpi`, modules rounded to whole pixels."""
    matrix = qr_matrix(build_payload(base_url, sticker.card_id, sticker.copy), error)
    image = sticker_image(matrix, _module_px(module_mm, dpi), quiet, sticker.label, dpi / 25.4)
    return _png(image, dpi)


def sheet_png(
    stickers: Sequence[Sticker],
    base_url: str,
    page: Literal["a4", "letter"] = "a4",
    module_mm: float = DEFAULT_MODULE_MM,
    dpi: int = 300,
    error: ErrorLevel = "M",
    margin_mm: float = 10.0,
    gap_mm: float = 3.0,
) -> list[bytes]:
    """Sheets of stickers as PNG pages, filled row by row; empty list for no stickers."""
    module_px = _module_px(module_mm, dpi)
    px_per_mm = dpi / 25.4
    images = [
        sticker_image(
            qr_matrix(build_payload(base_url, s.card_id, s.copy), error),
            module_px,
            DEFAULT_QUIET,
            s.label,
            px_per_mm,
        )
        for s in stickers
    ]
    page_w, page_h = (round(v * px_per_mm) for v in PAGES_MM[page])
    margin, gap = round(margin_mm * px_per_mm), round(gap_mm * px_per_mm)
    pages: list[bytes] = []
    sheet: Image.Image | None = None
    x = y = row_h = 0
    for image in images:
        if sheet is not None and x + image.width > page_w - margin:
            x, y, row_h = margin, y + row_h + gap, 0
        if sheet is None or y + image.height > page_h - margin:
            if sheet is not None:
                pages.append(_png(sheet, dpi))
            sheet = Image.new("L", (page_w, page_h), 255)
            x, y, row_h = margin, margin, 0
        sheet.paste(image, (x, y))
        x += image.width + gap
        row_h = max(row_h, image.height)
    if sheet is not None:
        pages.append(_png(sheet, dpi))
    return pages


def catalog_stickers(
    catalog: Catalog, kind: StickerKind, sets: Sequence[str] | None = None
) -> list[Sticker]:
    """One sticker per physical copy of every card of `kind` (in `sets`, default all)."""

    def wanted(card_set: str) -> bool:
        return sets is None or card_set in sets

    out: list[Sticker] = []
    if kind in ("imperium", "reserve", "starter"):
        for card in catalog.cards.values():
            if card.kind == kind and wanted(card.set):
                copies = card.copies * (DECKS_IN_BOX if card.per_player else 1)
                out.extend(Sticker(card.id, n, card.name) for n in range(1, copies + 1))
    elif kind == "intrigue":
        for intrigue in catalog.intrigue.values():
            if wanted(intrigue.set):
                out.extend(
                    Sticker(intrigue.id, n, intrigue.name) for n in range(1, intrigue.copies + 1)
                )
    else:
        # Conflict cards, leaders and Tech tiles are one of a kind.
        singles: list[tuple[str, str, str]] = []
        if kind == "conflict":
            singles = [(c.id, c.name, c.set) for c in catalog.conflicts.values()]
        elif kind == "leader":
            singles = [(c.id, c.name, c.set) for c in catalog.leaders.values()]
        elif kind == "tech":
            singles = [(c.id, c.name, c.set) for c in catalog.tech.values()]
        out.extend(Sticker(i, 1, name) for i, name, s in singles if wanted(s))
    return out
