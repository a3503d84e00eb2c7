"""Sticker sheets: one QR per physical copy, in SVG and PNG, that read back as the card."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image, ImageDraw

from companion.cards import load_catalog
from companion.rules.catalog import Catalog
from companion.vision import qr
from companion.vision.payload import CardRef, DecodeResult, known_copies
from companion.vision.stickers import (
    STICKER_KINDS,
    Sticker,
    catalog_stickers,
    layout,
    qr_matrix,
    sheet_png,
    sticker_png,
    sticker_svg,
)

BASE = "http://192.168.1.20:5000"
LONG = Sticker("guild_chief_administrator", 1, "Guild Chief Administrator")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(sets=("base", "ix"))


def render_svg(svg: str, px_per_mm: float) -> Image.Image:
    """Draw our sticker SVG (white rect, one path of unit squares under a scale) to pixels."""
    root = ET.fromstring(svg)
    ns = {"s": "http://www.w3.org/2000/svg"}
    width = float(root.attrib["width"].removesuffix("mm"))
    height = float(root.attrib["height"].removesuffix("mm"))
    group = root.find("s:g", ns)
    path = root.find("s:g/s:path", ns)
    assert group is not None and path is not None
    scale_match = re.fullmatch(r"scale\(([\d.]+)\)", group.attrib["transform"])
    assert scale_match is not None
    unit = float(scale_match.group(1)) * px_per_mm
    margin = 20  # white paper around the sticker
    image = Image.new("L", (round(width * px_per_mm) + 2 * margin,) * 2, 255)
    draw = ImageDraw.Draw(image)
    for x, y, n in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", path.attrib["d"]):
        x0, y0 = margin + int(x) * unit, margin + int(y) * unit
        draw.rectangle((x0, y0, x0 + int(n) * unit - 1, y0 + unit - 1), fill=0)
    assert height > width  # the label strip sits under the code
    return image


def png_image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def payloads(result: DecodeResult) -> list[str]:
    return sorted(c.payload for c in result.codes)


def test_codes_are_never_micro_qr_even_for_short_payloads():
    assert len(qr_matrix("a")) == 21
    assert len(qr_matrix("http://h/c/x/1")) >= 21


def test_default_sticker_code_is_15_to_20_mm_for_our_urls():
    for url in ("http://192.168.1.20:5000/c/guild_chief_administrator/10", "http://h/c/x/1"):
        size = layout(qr_matrix(url))
        assert 10 <= size.code_mm <= 20
        assert size.width_mm == pytest.approx(size.code_mm + 2 * 2 * size.module_mm)


def test_svg_is_sized_in_millimetres_and_names_the_card():
    svg = sticker_svg(LONG, BASE)
    root = ET.fromstring(svg)
    assert root.attrib["width"].endswith("mm")
    assert "Guild Chief Administrator #1" in svg
    assert 'textLength="' in svg  # long names squeezed to the sticker width


def test_svg_escapes_names():
    svg = sticker_svg(Sticker("x", 1, "<Tom & Jerry>"), BASE)
    ET.fromstring(svg)
    assert "&lt;Tom &amp; Jerry&gt;" in svg


@pytest.mark.parametrize("error", ["M", "Q"])
def test_svg_sticker_decodes_back_to_its_card(error):
    svg = sticker_svg(LONG, BASE, error=error)
    result = qr.decode(render_svg(svg, px_per_mm=6))
    assert [c.card for c in result.codes] == [CardRef("guild_chief_administrator", 1)]


def test_png_sticker_decodes_back_to_its_card():
    data = sticker_png(Sticker("spice_hunter", 1, "Spice Hunter"), BASE, dpi=300)
    image = png_image(data)
    assert image.format == "PNG"
    assert image.info["dpi"][0] == pytest.approx(300, abs=1)
    result = qr.decode(data)
    assert [(c.card_id, c.copy) for c in result.codes] == [("spice_hunter", 1)]


def test_sheet_png_holds_every_sticker_and_each_reads(catalog):
    stickers = catalog_stickers(catalog, "tech")[:12]
    pages = sheet_png(stickers, BASE, page="letter", dpi=200)
    assert len(pages) == 1
    page = png_image(pages[0])
    assert page.size == (round(215.9 / 25.4 * 200), round(279.4 / 25.4 * 200))
    result = qr.decode(pages[0], known_copies(catalog))
    assert sorted(c.card for c in result.codes if c.card) == sorted(
        CardRef(s.card_id, s.copy) for s in stickers
    )
    assert not result.unknown


def test_sheet_png_starts_a_new_page_when_full():
    stickers = [Sticker("x", n, "X") for n in range(1, 121)]
    pages = sheet_png(stickers, BASE, dpi=100)
    assert len(pages) >= 2
    assert sheet_png([], BASE) == []


@pytest.mark.parametrize("kind", STICKER_KINDS)
def test_catalog_gives_one_sticker_per_physical_copy(catalog, kind):
    stickers = catalog_stickers(catalog, kind)
    assert stickers
    assert len(set(stickers)) == len(stickers)
    known = known_copies(catalog)
    for s in stickers:
        assert 1 <= s.copy <= known[s.card_id]
    if kind == "reserve":
        spice = [s.copy for s in stickers if s.card_id == "the_spice_must_flow"]
        assert spice == list(range(1, 11))


def test_catalog_stickers_filter_by_set(catalog):
    base = catalog_stickers(catalog, "tech", sets=("base",))
    assert base == []
    ix = catalog_stickers(catalog, "imperium", sets=("ix",))
    assert ix and all(catalog.cards[s.card_id].set == "ix" for s in ix)
