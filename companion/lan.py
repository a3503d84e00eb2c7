"""This machine's address on the local network, and a QR code of it for the tablet's camera."""

from __future__ import annotations

import ipaddress
import socket

import psutil

from companion.vision.stickers import qr_matrix, qr_path


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that other devices on the network can reach: every
    interface's, but loopback and link-local ones. (The host name's address is no guide:
    Debian and Ubuntu map it to 127.0.1.1.)"""
    found = {
        address.address
        for addresses in psutil.net_if_addrs().values()
        for address in addresses
        if address.family == socket.AF_INET
    }
    return sorted(a for a in found if not a.startswith(("127.", "169.254.")))


# The hosts that mean "every interface" to a server.
EVERY_INTERFACE = frozenset({"", "0.0.0.0", "::"})


def is_loopback(host: str) -> bool:
    """True for a host only this machine can reach: localhost, 127.x.x.x, ::1."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def reachable_addresses(host: str | None) -> list[str]:
    """The addresses another device on the network can open a server listening on `host`
    at: every LAN address for every interface (or an unknown host), none for loopback,
    else the host itself."""
    if host is None or host in EVERY_INTERFACE:
        return lan_addresses()
    if is_loopback(host):
        return []
    return [host]


def url_of(scheme: str, host: str, port: int | None) -> str:
    """The address of a server on `host` and `port`, an IPv6 host in brackets."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{scheme}://{host}{f':{port}' if port else ''}/"


def terminal_qr(url: str) -> str:
    """`url` as a QR code in text for a terminal: two half-block characters per module
    pair, light on dark as terminals show it, with a quiet zone a phone's camera reads."""
    matrix = qr_matrix(url, "L")
    quiet = 2
    width = len(matrix) + 2 * quiet
    rows = [[False] * width for _ in range(quiet)]
    rows += [[False] * quiet + list(row) + [False] * quiet for row in matrix]
    rows += [[False] * width for _ in range(quiet + 1)]  # +1: an even count of rows
    glyphs = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
    return "\n".join(
        "".join(glyphs[(top, bottom)] for top, bottom in zip(rows[y], rows[y + 1], strict=True))
        for y in range(0, len(rows) - 1, 2)
    )


def svg_qr(url: str) -> tuple[int, str]:
    """`url` as a QR code for an inline <svg>: its size in modules (quiet zone included)
    and the path of its dark modules."""
    matrix = qr_matrix(url, "M")
    quiet = 2
    return len(matrix) + 2 * quiet, qr_path(matrix, quiet)
