"""The server's LAN address as a QR code, in the terminal and on the home page (issue 17:
"LAN address ... printed with a QR code of the address in the terminal and on the home
page, so the tablet can open it by camera"). Each code is read back with OpenCV."""

from __future__ import annotations

import re

import cv2
import numpy as np

from companion import lan

URL = "http://192.168.1.20:5000/"


def read_code(dark: np.ndarray) -> str:
    """The text of the one QR code in a boolean image (True = dark), scaled up for OpenCV."""
    small = np.where(dark, 0, 255).astype(np.uint8)
    pixels = cv2.resize(small, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    text, _points, _code = cv2.QRCodeDetector().detectAndDecode(pixels)
    return str(text)


def test_the_terminal_code_reads_back_as_the_address():
    # A terminal shows the glyphs light on dark: a full block is two light modules.
    halves = {"█": (False, False), "▀": (False, True), "▄": (True, False), " ": (True, True)}
    rows = lan.terminal_qr(URL).splitlines()
    dark = [[halves[c][half] for c in row] for row in rows for half in (0, 1)]
    assert len({len(r) for r in dark}) == 1
    assert read_code(np.array(dark)) == URL


def test_the_home_page_shows_the_address_and_its_code(client, monkeypatch):
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["192.168.1.20"])
    page = client.get("/", base_url="http://localhost:5000").get_data(as_text=True)
    assert "<strong>http://192.168.1.20:5000/</strong>" in page
    box = re.search(r'class="address-qr"[^>]*viewBox="0 0 (\d+) \1"', page)
    drawn = re.search(r'<path d="([^"]+)" fill="#000"/>', page)
    assert box is not None and drawn is not None
    size, path = int(box.group(1)), drawn.group(1)
    dark = np.zeros((size, size), dtype=bool)
    for x, y, n in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", path):
        dark[int(y), int(x) : int(x) + int(n)] = True
    assert read_code(dark) == URL


def test_no_lan_address_no_code(client, monkeypatch):
    monkeypatch.setattr(lan, "lan_addresses", lambda: [])
    assert "address-qr" not in client.get("/").get_data(as_text=True)


def test_a_server_on_loopback_offers_no_tablet_address(app, client, monkeypatch):
    """`companion.serve --host 127.0.0.1`: no other device can open it, so no code."""
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["192.168.1.20"])
    for host in ("127.0.0.1", "localhost", "::1"):
        monkeypatch.setitem(app.config, "SERVE_HOST", host)
        assert "address-qr" not in client.get("/").get_data(as_text=True)
    # On one address, that address (not another interface's).
    monkeypatch.setitem(app.config, "SERVE_HOST", "10.0.0.7")
    page = client.get("/", base_url="http://10.0.0.7:5000").get_data(as_text=True)
    assert "<strong>http://10.0.0.7:5000/</strong>" in page and "192.168.1.20" not in page
