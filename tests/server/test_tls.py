"""companion.tls: the self-signed certificate of the HTTPS mode."""

from __future__ import annotations

from companion.tls import ensure_certificate


def test_the_certificate_names_loopback_and_is_made_once(tmp_path):
    cert, key = ensure_certificate(tmp_path, ["192.168.1.20"])
    made = cert.read_bytes()
    assert ensure_certificate(tmp_path, ["192.168.1.20"]) == (cert, key)
    assert cert.read_bytes() == made  # kept: the tablet trusts this one
    assert key.stat().st_mode & 0o777 == 0o600
