"""A real Chromium reads sticker photos on the standalone /scan page.

The same Debian chromium and fixtures as the game test: every request stays on this
server and none is refused.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from companion import services
from companion.sim import make_setup
from companion.vision import stickers
from tests.browser import test_play_in_browser as play
from tests.vision.images import small_png

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
    page.locator("#found .outcome", has_text=MARKUP).wait_for()
    assert page.locator("#found a[href=x]").count() == 0


# -- the purchase page: feedback for photos, and the live camera (issues 18 and 20) ---------


def two_player_game(app) -> int:
    """A stored two-player base game; its id."""
    catalog = app.extensions["catalog"]
    with app.app_context():
        return services.create_game(make_setup(catalog, "2p", None, 1), catalog)


def sticker_photo(card_id: str, copy: int, base_url: str) -> bytes:
    sticker = stickers.Sticker(card_id, copy, card_id)
    return stickers.sticker_png(sticker, base_url)


def outcome_in_view(page, text: str) -> None:
    """The outcome line with `text` shows, inside the viewport (no scrolling needed)."""
    line = page.locator("#offers .outcome", has_text=text)
    line.wait_for()
    box = line.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"], box


def send_photo(page, png: bytes) -> None:
    page.locator("form.scan-upload input[name=image]").set_input_files(
        {"name": "photo.png", "mimeType": "image/png", "buffer": png}
    )


def test_every_photo_outcome_and_the_purchase_show_on_the_purchase_page(app, page, base_url):
    game_id = two_player_game(app)
    page.goto(f"{base_url}/games/{game_id}/buy")
    photo = sticker_photo("foldspace", 2, base_url)
    send_photo(page, photo)
    outcome_in_view(page, "Read: Foldspace #2")
    send_photo(page, photo)
    outcome_in_view(page, "Foldspace #2 was read a moment ago: ignored.")
    send_photo(page, small_png())
    outcome_in_view(page, "No code found in that photo")
    image = stickers.sticker_image(stickers.qr_matrix("hello there"), module_px=8)
    png = io.BytesIO()
    image.save(png, format="PNG")
    send_photo(page, png.getvalue())
    outcome_in_view(page, "Not one of our stickers: hello there")
    send_photo(page, sticker_photo("foldspace", 3, base_url))
    page.locator("#offers button", has_text="Bought by").first.click()
    outcome_in_view(page, "Recorded: Foldspace #3 now belongs to")


def fake_camera_video(path, png: bytes, frames: int = 3) -> None:
    """A Y4M video of the photo `png` (grey, 1280x720) for Chromium's fake camera."""
    image = Image.open(io.BytesIO(png)).convert("L")
    canvas = Image.new("L", (1280, 720), 150)
    canvas.paste(image.resize((300, 300)), (490, 210))
    chroma = bytes([128]) * (640 * 360 * 2)
    with open(path, "wb") as out:
        out.write(b"YUV4MPEG2 W1280 H720 F5:1 Ip A1:1 C420jpeg\n")
        for _ in range(frames):
            out.write(b"FRAME\n" + canvas.tobytes() + chroma)


def camera_browser(playwright: Any, video: Path) -> Any:
    """Chromium whose camera shows the Y4M video `video`."""
    return playwright.chromium.launch(
        executable_path=play.CHROMIUM,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )


def test_the_live_camera_offers_the_card_once_and_frames_the_code(app, base_url, tmp_path):
    from playwright.sync_api import sync_playwright

    game_id = two_player_game(app)
    video = tmp_path / "camera.y4m"
    fake_camera_video(video, sticker_photo("the_spice_must_flow", 7, base_url))
    frames: list[int] = []
    with sync_playwright() as p:
        browser = camera_browser(p, video)
        tab = browser.new_page(viewport={"width": 1280, "height": 800})
        scan_url = f"/games/{game_id}/scan"

        def sent(request) -> None:
            if request.url.endswith(scan_url):
                frames.append(len(request.post_data_buffer or b""))

        tab.on("request", sent)
        tab.goto(f"{base_url}/games/{game_id}/buy")
        tab.locator("[data-camera-start]").click()
        tab.locator("#offers .outcome", has_text="Read: The Spice Must Flow #7").wait_for()
        tab.wait_for_timeout(1500)  # more frames of the same sticker
        offers = tab.locator("#offers .offer", has_text="The Spice Must Flow").count()
        overlay = tab.locator(".camera canvas.code-frame")
        drawn = overlay.count() == 1 and overlay.bounding_box() is not None
        browser.close()
    assert offers == 1  # offered once, though every frame shows it
    assert len(frames) >= 3  # frames kept coming, one after each answer
    assert drawn


def test_the_live_camera_of_a_deleted_games_page_says_so_and_records_nothing(
    app, base_url, tmp_path
):
    """Issue 17, finding 5: each frame names the game its page showed; a new game that got
    the deleted one's id is not written into, and the camera's answer says why."""
    from playwright.sync_api import sync_playwright

    from tests.db.ids import give_id_again

    game_id = two_player_game(app)
    video = tmp_path / "camera.y4m"
    fake_camera_video(video, sticker_photo("the_spice_must_flow", 7, base_url))
    with sync_playwright() as p:
        browser = camera_browser(p, video)
        tab = browser.new_page(viewport={"width": 1280, "height": 800})
        tab.goto(f"{base_url}/games/{game_id}/buy")
        with app.app_context():  # meanwhile, on another device
            services.delete_game(game_id)
        give_id_again(app, game_id)
        assert two_player_game(app) == game_id
        tab.locator("[data-camera-start]").click()
        tab.locator(".other-game", has_text="its address now shows another game").wait_for()
        browser.close()
    with app.app_context():
        from companion.db import db
        from companion.db.models import StickerRead

        assert db.session.query(StickerRead).count() == 0
