"""A real Chromium reads sticker photos on the standalone /scan page.

The same Debian chromium and fixtures as the game test: every request stays on this
server and none is refused.
"""

from __future__ import annotations

import io

from companion.vision import stickers
from tests.browser import test_play_in_browser as play

pytestmark = play.pytestmark
app = play.app
base_url = play.base_url
page = play.page

MARKUP = "<a href=x>Tap</a>"


def choose_photo(page, base_url: str, png: bytes) -> None:
    """Open /scan and choose `png` as the photo: the page sends it at once."""
    page.goto(f"{base_url}/scan")
    page.locator("input[name=image]").set_input_files(
        {"name": "photo.png", "mimeType": "image/png", "buffer": png}
    )


def test_a_sticker_photo_shows_the_cards_name(page, base_url):
    sticker = stickers.Sticker("the_spice_must_flow", 1, "The Spice Must Flow")
    choose_photo(page, base_url, stickers.sticker_png(sticker, base_url))
    found = page.locator("#found a.button", has_text="The Spice Must Flow #1")
    found.wait_for()
    assert page.locator("h1").inner_text() == "Scan a card's sticker"  # the page, not JSON
    assert '"codes"' not in page.content()


def test_markup_in_a_code_shows_as_text(page, base_url):
    image = stickers.sticker_image(stickers.qr_matrix(MARKUP), module_px=8)
    png = io.BytesIO()
    image.save(png, format="PNG")
    choose_photo(page, base_url, png.getvalue())
    page.locator("#found p.muted", has_text=MARKUP).wait_for()
    assert page.locator("#found a[href=x]").count() == 0
