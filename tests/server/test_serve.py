"""`python -m companion.serve`: what it does before it serves."""

from __future__ import annotations

import gc
import sys
from typing import Any

import pytest
from flask import Flask

from companion import lan, serve


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
    assert lan.lan_addresses() == ["10.0.0.7", "192.168.1.20"]


def test_the_command_line_defaults_to_waitress_on_port_5000():
    args = serve.parse_arguments([])
    assert (args.host, args.port, args.threads) == ("0.0.0.0", 5000, 8)
    assert not args.https and args.workers is None and args.cert is None
    assert not serve.uses_gunicorn(args)


def test_https_and_workers_are_served_by_gunicorn(tmp_path):
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    args = serve.parse_arguments(
        ["--https", "--cert", str(cert), "--key", str(key), "--workers", "3", "--threads", "4"]
    )
    assert args.https and args.workers == 3 and args.threads == 4
    assert (args.cert, args.key) == (cert, key)
    assert serve.uses_gunicorn(args)
    assert serve.uses_gunicorn(serve.parse_arguments(["--workers", "2"]))
    assert serve.uses_gunicorn(serve.parse_arguments(["--https"]))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "0"], "0 is not above zero"),
        (["--threads", "-1"], "-1 is not above zero"),
        (["--workers", "two"], "invalid positive value"),
        (["--https", "--cert", "c.pem"], "--cert and --key go together"),
        (["--cert", "c.pem", "--key", "k.pem"], "--cert and --key need --https"),
    ],
)
def test_bad_options_exit_with_a_clear_message(argv, message, capsys):
    with pytest.raises(SystemExit) as exited:
        serve.parse_arguments(argv)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


def test_gunicorn_is_refused_on_windows_with_a_clear_message(monkeypatch, capsys):
    monkeypatch.setattr(sys, "platform", "win32")
    with pytest.raises(SystemExit):
        serve.parse_arguments(["--https"])
    assert "Linux and macOS only" in capsys.readouterr().err
    assert not serve.parse_arguments([]).https  # plain HTTP (waitress) still serves


def test_https_mode_makes_the_session_cookie_secure_and_serves_the_given_certificate(
    tmp_path, monkeypatch
):
    from companion import serve_gunicorn

    seen: dict[str, Any] = {}

    def fake_gunicorn(app: Flask, plan: serve_gunicorn.GunicornPlan) -> None:
        seen["secure"] = app.config["SESSION_COOKIE_SECURE"]
        seen["plan"] = plan

    monkeypatch.setattr(serve_gunicorn, "serve_with_gunicorn", fake_gunicorn)
    monkeypatch.setenv("COMPANION_SQLALCHEMY_DATABASE_URI", f"sqlite:///{tmp_path / 'c.sqlite'}")
    monkeypatch.setenv("COMPANION_SECRET_KEY", "test")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    argv = ["--https", "--cert", str(cert), "--key", str(key), "--host", "127.0.0.1"]
    try:
        assert serve.main([*argv, "--port", "0"]) == 0
    finally:
        gc.unfreeze()
    plan = seen["plan"]
    assert seen["secure"] is True
    assert (plan.tls, plan.workers, plan.threads) == ((cert, key), 1, 8)
    options = plan.options()
    assert options["worker_class"] == "gthread"
    assert (options["certfile"], options["keyfile"]) == (str(cert), str(key))
    assert options["bind"] == ["127.0.0.1:0"]
    assert (plan.handshake_seconds, plan.read_seconds) == (5.0, 30.0)


def test_gunicorn_keeps_connections_alive_longer_than_the_polls_interval():
    from companion import create_app
    from companion.serve_gunicorn import GunicornPlan

    plan = GunicornPlan(
        host="::",
        port=5000,
        workers=2,
        threads=8,
        keepalive_seconds=serve.KEEPALIVE_SECONDS,
        graceful_stop_seconds=serve.GRACEFUL_STOP_SECONDS,
        handshake_seconds=serve.HANDSHAKE_SECONDS,
        read_seconds=serve.READ_SECONDS,
    )
    options = plan.options()
    app = create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    poll_seconds = app.config["LIVE_POLL_MS"] / 1000
    assert options["keepalive"] > 10 * poll_seconds
    assert options["bind"] == ["[::]:5000"]
    assert options["workers"] == 2 and "certfile" not in options
