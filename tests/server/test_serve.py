"""`python -m companion.serve`: what it does before it serves."""

from __future__ import annotations

import gc
from typing import Any

from companion import serve


def test_the_server_freezes_the_start_up_heap_before_it_serves(tmp_path, monkeypatch):
    seen: dict[str, Any] = {}

    def fake_serve(app: Any, **kwargs: Any) -> None:
        seen["frozen"] = gc.get_freeze_count()
        seen["kwargs"] = kwargs

    monkeypatch.setattr(serve, "serve", fake_serve)
    monkeypatch.setenv("COMPANION_SQLALCHEMY_DATABASE_URI", f"sqlite:///{tmp_path / 'c.sqlite'}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "test")
    gc.unfreeze()
    try:
        assert serve.main(["--host", "127.0.0.1", "--port", "0"]) == 0
    finally:
        gc.unfreeze()  # the other tests run with a normal heap
    assert seen["frozen"] > 0
    assert seen["kwargs"]["threads"] == 8


def test_the_tablet_address_comes_from_the_network_interfaces(monkeypatch):
    """Issue 17, finding 11: the host name resolves to 127.0.1.1 on Debian and Ubuntu, so
    the addresses come from the interfaces: loopback and link-local ones left out."""
    import socket
    from types import SimpleNamespace

    import psutil

    def address(family: int, value: str) -> SimpleNamespace:
        return SimpleNamespace(family=family, address=value)

    interfaces = {
        "lo": [address(socket.AF_INET, "127.0.0.1"), address(socket.AF_INET6, "::1")],
        "wlan0": [address(socket.AF_INET, "192.168.1.20"), address(socket.AF_INET6, "fe80::1")],
        "eth0": [address(socket.AF_INET, "169.254.3.4"), address(socket.AF_INET, "10.0.0.7")],
        "docker0": [],
    }
    monkeypatch.setattr(psutil, "net_if_addrs", lambda: interfaces)
    assert serve.lan_addresses() == ["10.0.0.7", "192.168.1.20"]
