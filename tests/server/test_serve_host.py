"""`python -m companion.serve --host H`: it prints the address it listens on, and a
tablet address with its QR code only where another device can reach it."""

from __future__ import annotations

import gc

import pytest

from companion import lan, serve


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.1.1"])
def test_a_loopback_host_prints_its_own_address_and_no_tablet_code(host, monkeypatch):
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["192.168.1.20"])
    printed = serve.listening_lines(host, 5000, "http")
    shown = f"[{host}]" if ":" in host else host
    assert f"On this machine: http://{shown}:5000/" in printed
    assert "no other device can open it" in printed
    assert "192.168.1.20" not in printed and "On the tablet" not in printed
    assert "█" not in printed and "camera" not in printed  # no QR code


def test_every_interface_prints_localhost_and_each_lan_address_with_a_code(monkeypatch):
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["10.0.0.7", "192.168.1.20"])
    printed = serve.listening_lines("0.0.0.0", 5000, "https").splitlines()
    assert printed[:3] == [
        "On this machine: https://localhost:5000/",
        "On the tablet (same network): https://10.0.0.7:5000/",
        "On the tablet (same network): https://192.168.1.20:5000/",
    ]
    assert printed[3] == "Or point the tablet's camera at this code:" and "█" in printed[4]


def test_one_address_prints_that_address_only(monkeypatch):
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["10.0.0.7", "192.168.1.20"])
    printed = serve.listening_lines("192.168.1.20", 8000, "http")
    assert "On the tablet (same network): http://192.168.1.20:8000/" in printed
    assert "10.0.0.7" not in printed and "localhost" not in printed


def test_main_prints_where_it_listens(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(serve, "serve", lambda app, **kwargs: None)
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["192.168.1.20"])
    monkeypatch.setenv("COMPANION_SQLALCHEMY_DATABASE_URI", f"sqlite:///{tmp_path / 'c.sqlite'}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "test")
    try:
        assert serve.main(["--host", "127.0.0.1", "--port", "5001"]) == 0
    finally:
        gc.unfreeze()
    out = capsys.readouterr().out
    assert "On this machine: http://127.0.0.1:5001/" in out and "192.168.1.20" not in out
