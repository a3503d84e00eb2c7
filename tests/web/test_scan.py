"""Sticker sheets, POST /scan and the purchase flow in a game (issue 5)."""

from __future__ import annotations

import html
import io
import json
import re
from datetime import timedelta

import cv2
import pytest
import qrcode  # type: ignore[import-untyped, unused-ignore]
from PIL import Image

from companion import services, vision
from companion.vision.stickers import catalog_stickers
from tests import database
from tests.vision.images import bomb_png, refuse_decoding, small_png

HOST = "http://192.168.1.20:5000"


def qr_png(*payloads: str, size: tuple[int, int] = (1280, 720)) -> bytes:
    """A photo-like image with one clean QR code per payload, side by side."""
    canvas = Image.new("RGB", size, (180, 160, 130))
    x = 40
    for text in payloads:
        code = qrcode.make(text, box_size=6, border=4).convert("RGB")
        canvas.paste(code, (x, 120))
        x += code.width + 60
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    return out.getvalue()


def upload(data: bytes, **fields: str) -> dict[str, object]:
    return {"image": (io.BytesIO(data), "photo.png"), **fields}


def test_a_sticker_sheet_has_one_code_per_physical_copy(game, client):
    response = client.get("/print?kind=reserve&set=base&paper=letter")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    expected = len(catalog_stickers(game.catalog, "reserve", ("base",)))
    assert expected == 24  # 8 Arrakis Liaison, 10 The Spice Must Flow, 6 Foldspace
    assert body.count("<svg") == expected
    assert "paper-letter" in body


def test_a_bad_sheet_request_is_refused_without_a_500(client):
    assert client.get("/print?kind=spaceships").status_code == 422
    assert client.get("/print?paper=a3").status_code == 422


def test_a_sticker_downloads_as_png_and_unknown_copies_are_404(client):
    response = client.get("/print/the_spice_must_flow/10.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.data.startswith(b"\x89PNG")
    assert client.get("/print/the_spice_must_flow/11.png").status_code == 404
    assert client.get("/print/no_such_card/1.png").status_code == 404


def test_scan_answers_json_with_every_code_in_the_photo(client):
    photo = qr_png(f"{HOST}/c/the_spice_must_flow/3", f"{HOST}/c/foldspace/2", "hello there")
    response = client.post("/scan", data=upload(photo), headers={"Accept": "application/json"})
    assert response.status_code == 200
    data = response.get_json()
    found = {(c["card_id"], c["copy"]) for c in data["codes"]}
    assert found == {("the_spice_must_flow", 3), ("foldspace", 2)}
    assert {c["name"] for c in data["codes"]} == {"The Spice Must Flow", "Foldspace"}
    assert data["unknown"] == ["hello there"]


def test_scan_answers_an_html_fragment_to_htmx(client):
    photo = qr_png(f"{HOST}/c/the_spice_must_flow/3")
    response = client.post("/scan", data=upload(photo), headers={"HX-Request": "true"})
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'id="found"' in body and "<html" not in body
    assert "The Spice Must Flow #3" in body


def test_scan_refuses_junk_and_missing_photos_with_a_message(client):
    junk = client.post(
        "/scan", data=upload(b"not an image"), headers={"Accept": "application/json"}
    )
    assert junk.status_code == 422 and "not a photo" in junk.get_json()["error"]
    missing = client.post("/scan", data={}, headers={"Accept": "application/json"})
    assert missing.status_code == 422


def test_a_scanned_card_is_offered_to_the_players_and_bought(game, client):
    game_id = game.new_2p()
    photo = qr_png(f"{HOST}/c/the_spice_must_flow/4")
    offer = client.post(f"/games/{game_id}/scan", data=upload(photo, created=game.stamp(game_id)))
    body = offer.get_data(as_text=True)
    assert offer.status_code == 200
    assert "Bought by" in body and "+1 Victory Point" in body  # the Acquire reminder
    bought = client.post(
        f"/games/{game_id}/buy",
        data=buy_form(game, game_id, "p2", "the_spice_must_flow", 4),
    )
    assert bought.status_code == 303
    state = game.state(game_id, fresh=True)
    assert state.owner("the_spice_must_flow", 4) == "p2"
    assert state.house("p2").vp == 1
    assert "The Spice Must Flow" in game.page(game_id)  # listed on the table screen


def test_the_same_sticker_read_again_at_once_is_ignored(game, client):
    game_id = game.new_2p()
    photo = qr_png(f"{HOST}/c/the_spice_must_flow/5")
    first = client.post(
        f"/games/{game_id}/scan", data=upload(photo, live="1", created=game.stamp(game_id))
    )
    again = client.post(
        f"/games/{game_id}/scan", data=upload(photo, live="1", created=game.stamp(game_id))
    )
    assert first.status_code == 200
    assert again.status_code == 204
    # Both answers say where the code is, for the live camera's frame around it.
    for answer in (first, again):
        where = json.loads(answer.headers["X-Scan-Codes"])
        assert where["size"] == [1280, 720]
        ((x0, y0), _, (x2, y2), _) = where["corners"][0]
        # qr_png pastes the code (4 quiet modules of 6 px) at (40, 120).
        assert abs(x0 - 64) < 6 and abs(y0 - 144) < 6 and x2 > x0 and y2 > y0


def test_a_copy_owned_by_another_player_asks_before_moving(game, client):
    game_id = game.new_2p()
    client.post(
        f"/games/{game_id}/buy",
        data=buy_form(game, game_id, "p1", "the_spice_must_flow", 1),
    )
    refused = client.post(
        f"/games/{game_id}/buy",
        data=buy_form(game, game_id, "p2", "the_spice_must_flow", 1),
    )
    assert refused.status_code == 422
    assert "confirm to move" in refused.get_data(as_text=True)
    assert "Move it from" in refused.get_data(as_text=True)
    moved = client.post(
        f"/games/{game_id}/buy",
        data=buy_form(game, game_id, "p2", "the_spice_must_flow", 1) | {"move": "on"},
    )
    assert moved.status_code == 303
    assert game.state(game_id, fresh=True).owner("the_spice_must_flow", 1) == "p2"


def test_a_stale_purchase_is_refused_and_applied_once(game, client):
    game_id = game.new_2p()
    form = buy_form(game, game_id, "p1", "the_spice_must_flow", 2)
    assert client.post(f"/games/{game_id}/buy", data=form).status_code == 303
    assert client.post(f"/games/{game_id}/buy", data=form).status_code == 409
    assert game.state(game_id, fresh=True).house("p1").vp == 1


def test_the_manual_search_offers_the_first_free_copy(game, client):
    game_id = game.new_2p()
    client.post(
        f"/games/{game_id}/buy",
        data=buy_form(game, game_id, "p1", "the_spice_must_flow", 1),
    )
    body = client.get(f"/games/{game_id}/buy?q=spice+must").get_data(as_text=True)
    assert 'name="copy" value="2"' in body


def test_scanning_for_an_unknown_game_is_404(client):
    photo = qr_png(f"{HOST}/c/the_spice_must_flow/1")
    assert client.post("/games/999/scan", data=upload(photo)).status_code == 404
    assert client.post("/games/999/buy", data={"house": "p1"}).status_code == 404
    assert client.get("/games/999/buy").status_code == 404


# -- what the page answers: HTML unless JSON is asked for by name ---------------------------

MARKUP = "<a href=x>Tap</a>"
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_htmx_gets_html_even_when_it_accepts_anything(client):
    photo = qr_png(f"{HOST}/c/the_spice_must_flow/3")
    response = client.post(
        "/scan", data=upload(photo), headers={"HX-Request": "true", "Accept": "*/*"}
    )
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert 'id="found"' in body and "The Spice Must Flow #3" in body


@pytest.mark.parametrize("accept", ["*/*", BROWSER_ACCEPT, "application/json;q=0.5, text/html"])
def test_a_plain_form_post_gets_the_page_unless_json_is_preferred_by_name(client, accept):
    response = client.post("/scan", data=upload(small_png()), headers={"Accept": accept})
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert "<html" in response.get_data(as_text=True)


def test_json_asked_for_with_htmx_still_gets_html(client):
    response = client.post(
        "/scan",
        data=upload(small_png()),
        headers={"HX-Request": "true", "Accept": "application/json"},
    )
    assert response.mimetype == "text/html"


def test_markup_in_a_code_is_shown_as_text_on_the_scan_page(client):
    response = client.post(
        "/scan", data=upload(qr_png(MARKUP)), headers={"HX-Request": "true", "Accept": "*/*"}
    )
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "&lt;a href=x&gt;Tap&lt;/a&gt;" in body
    assert "<a href=x>" not in body


def test_markup_in_a_code_is_shown_as_text_on_the_purchase_page(game, client):
    game_id = game.new_2p()
    response = client.post(
        f"/games/{game_id}/scan",
        data=upload(qr_png(MARKUP), created=game.stamp(game_id)),
        headers={"HX-Request": "true"},
    )
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "&lt;a href=x&gt;Tap&lt;/a&gt;" in body
    assert "<a href=x>" not in body


# -- upload limits ------------------------------------------------------------------------


@pytest.fixture
def no_decoding(monkeypatch):
    """OpenCV's decoder, replaced by one that fails the test if it is ever called."""
    monkeypatch.setattr(cv2, "imdecode", refuse_decoding)


def test_a_pixel_bomb_is_refused_before_decoding(client, no_decoding):
    bomb = upload(bomb_png(30_000))
    response = client.post("/scan", data=bomb, headers={"Accept": "application/json"})
    assert response.status_code == 422
    assert "too many pixels (40 megapixels at most)" in response.get_json()["error"]


def test_a_pixel_bomb_is_refused_in_a_game_too(game, client, no_decoding):
    game_id = game.new_2p()
    response = client.post(
        f"/games/{game_id}/scan", data=upload(bomb_png(60_000, rows=1), created=game.stamp(game_id))
    )
    assert response.status_code == 422
    assert "too many pixels" in response.get_data(as_text=True)


def test_a_corrupt_png_is_refused_with_a_message(client):
    data = bytearray(small_png())
    start = data.index(b"IDAT") + 4
    data[start : start + 16] = b"\xff" * 16
    response = client.post("/scan", data=upload(bytes(data)), headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "not a photo we can read" in response.get_data(as_text=True)


def test_a_body_over_the_content_limit_is_refused_with_413(app, client):
    limit = app.config["MAX_CONTENT_LENGTH"]
    assert limit > 12 * 1024 * 1024  # a 12 MB photo and its form still fit
    body = b"--x\r\nContent-Disposition: form-data; name=image; filename=a.png\r\n\r\n"
    body += b"\0" * limit  # raw bytes: the test client spools a dict this large to a file
    response = client.post("/scan", data=body, content_type="multipart/form-data; boundary=x")
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)


def test_a_photo_that_finds_every_slot_taken_is_answered_503(client, monkeypatch):
    monkeypatch.setattr(vision, "DECODE_WAIT_SECONDS", 0.01)
    held = [vision._slots.acquire(blocking=False) for _ in range(vision.DECODE_SLOTS)]
    try:
        response = client.post("/scan", data=upload(small_png()), headers={"HX-Request": "true"})
    finally:
        for _ in held:
            vision._slots.release()
    assert response.status_code == 503
    assert "try again in a moment" in response.get_data(as_text=True)


# -- feedback for every scan and purchase outcome (issue 20) --------------------------------


def outcome_lines(body: str) -> list[str]:
    """The texts of the outcome lines at the top of a scan or purchase answer."""
    lines = re.findall(r'class="outcome[^"]*">([^<]*)<', body)
    return [html.unescape(re.sub(r"\s+", " ", t).strip()) for t in lines]


def buy_form(game, game_id: int, house: str, card: str, copy: int) -> dict[str, str]:
    """The purchase form's fields, at the game's current version."""
    version = str(game.version(game_id))
    stamp = game.stamp(game_id)
    return {"house": house, "card": card, "copy": str(copy), "version": version, "created": stamp}


def test_a_recognised_card_is_announced_above_its_offer(game, client):
    game_id = game.new_2p()
    photo = qr_png(f"{HOST}/c/the_spice_must_flow/6")
    body = client.post(
        f"/games/{game_id}/scan", data=upload(photo, created=game.stamp(game_id))
    ).get_data(as_text=True)
    assert outcome_lines(body) == ["Read: The Spice Must Flow #6"]
    assert body.index("Read: The Spice Must Flow #6") < body.index("Bought by")


def test_an_unknown_code_and_a_photo_without_codes_say_so_on_the_purchase_page(game, client):
    game_id = game.new_2p()
    unknown = client.post(
        f"/games/{game_id}/scan", data=upload(qr_png("hello there"), created=game.stamp(game_id))
    )
    assert outcome_lines(unknown.get_data(as_text=True)) == ["Not one of our stickers: hello there"]
    empty = client.post(
        f"/games/{game_id}/scan", data=upload(qr_png(), created=game.stamp(game_id))
    )
    assert empty.status_code == 200
    assert outcome_lines(empty.get_data(as_text=True)) == [
        "No code found in that photo. Try closer, with more light, and without glare."
    ]


def test_a_photo_of_the_same_sticker_within_5_seconds_says_it_was_ignored(game, client):
    game_id = game.new_2p()
    photo = qr_png(f"{HOST}/c/foldspace/3")
    client.post(f"/games/{game_id}/scan", data=upload(photo, created=game.stamp(game_id)))
    again = client.post(
        f"/games/{game_id}/scan", data=upload(photo, created=game.stamp(game_id))
    ).get_data(as_text=True)
    assert outcome_lines(again) == ["Foldspace #3 was read a moment ago: ignored."]
    assert "Bought by" not in again  # not offered a second time


def test_a_copy_someone_owns_is_announced_with_the_owner(game, client):
    game_id = game.new_2p()
    client.post(f"/games/{game_id}/buy", data=buy_form(game, game_id, "p1", "foldspace", 5))
    body = client.post(
        f"/games/{game_id}/scan",
        data=upload(qr_png(f"{HOST}/c/foldspace/5"), created=game.stamp(game_id)),
    ).get_data(as_text=True)
    assert outcome_lines(body) == ["Foldspace #5 already belongs to Ann."]
    assert "Move it from Ann to Ben" in body


def test_a_card_not_bought_in_this_game_says_so(game, client):
    game_id = game.new_2p()
    body = client.post(
        f"/games/{game_id}/scan",
        data=upload(qr_png(f"{HOST}/c/paul_atreides/1"), created=game.stamp(game_id)),
    ).get_data(as_text=True)
    assert outcome_lines(body) == ["Paul Atreides isn't bought in this game."]


def test_a_recorded_purchase_is_confirmed_with_or_without_htmx(game, client):
    game_id = game.new_2p()
    form = buy_form(game, game_id, "p2", "foldspace", 1)
    htmx = client.post(f"/games/{game_id}/buy", data=form, headers={"HX-Request": "true"})
    assert outcome_lines(htmx.get_data(as_text=True)) == [
        "Recorded: Foldspace #1 now belongs to Ben."
    ]
    form = buy_form(game, game_id, "p2", "foldspace", 2)
    plain = client.post(f"/games/{game_id}/buy", data=form, follow_redirects=True)
    assert outcome_lines(plain.get_data(as_text=True)) == [
        "Recorded: Foldspace #2 now belongs to Ben."
    ]
    # The confirmation is read from the game: a made-up one shows nothing.
    assert (
        outcome_lines(client.get(f"/games/{game_id}/buy?bought=foldspace/3").get_data(as_text=True))
        == []
    )
    assert client.get(f"/games/{game_id}/buy?bought=foldspace/x").status_code == 200


def test_the_scan_page_says_what_each_photo_gave(client):
    headers = {"HX-Request": "true"}
    photo = qr_png(f"{HOST}/c/the_spice_must_flow/3", "hello there")
    read = client.post("/scan", data=upload(photo), headers=headers).get_data(as_text=True)
    assert outcome_lines(read) == [
        "Read: The Spice Must Flow #3",
        "Not one of our stickers: hello there",
    ]
    empty = client.post("/scan", data=upload(qr_png()), headers=headers).get_data(as_text=True)
    assert outcome_lines(empty) == [
        "No code found in that photo. Try closer, with more light, and without glare."
    ]


# -- the repeat-scan filter lives in the database (issue 17, finding 10) -------------------


def test_the_same_sticker_is_offered_again_once_5_seconds_have_passed(game, client, monkeypatch):
    from companion.db import models, repository

    game_id = game.new_2p()
    photo = qr_png(f"{HOST}/c/foldspace/6")
    start = models.utc_now()
    clock = {"now": start}
    monkeypatch.setattr(repository, "utc_now", lambda: clock["now"])

    def offered() -> bool:
        answer = client.post(
            f"/games/{game_id}/scan", data=upload(photo, live="1", created=game.stamp(game_id))
        )
        return bool(answer.status_code == 200)

    assert offered()
    clock["now"] = start + timedelta(seconds=4)
    assert not offered()  # and this read starts the 5 seconds again
    clock["now"] = start + timedelta(seconds=8)
    assert not offered()
    clock["now"] = start + timedelta(seconds=13.5)
    assert offered()


def test_two_server_processes_share_the_repeat_filter(tmp_path):
    """Two apps on one database file, as two gunicorn workers: a sticker one of them
    just read is ignored by the other."""
    from tests.web.conftest import TWO_PLAYER_FORM, dispose, make_app

    url = database.file_uri(tmp_path / "shared.sqlite")
    first, second = make_app(SQLALCHEMY_DATABASE_URI=url), make_app(SQLALCHEMY_DATABASE_URI=url)
    try:
        created = first.test_client().post("/games", data=TWO_PLAYER_FORM)
        game_id = int(created.headers["Location"].rsplit("/", 2)[-2])
        photo = qr_png(f"{HOST}/c/foldspace/1")
        path = f"/games/{game_id}/scan"
        with first.app_context():
            stamp = services.load(game_id, first.extensions["catalog"]).created
        one = first.test_client().post(path, data=upload(photo, live="1", created=stamp))
        other = second.test_client().post(path, data=upload(photo, live="1", created=stamp))
        assert (one.status_code, other.status_code) == (200, 204)
        later = upload(qr_png(f"{HOST}/c/foldspace/2"), created=stamp)
        elsewhere = second.test_client().post(path, data=later)
        assert "Read: Foldspace #2" in elsewhere.get_data(as_text=True)
    finally:
        dispose(first)
        dispose(second)
