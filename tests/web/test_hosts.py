"""Issue 17, finding 9: a Host header that is no host name gets a 400, never a 500 (the
app builds its links and the stickers' addresses from it)."""

from __future__ import annotations

import pytest

from companion.web.hosts import valid_host

ROUTES = ("/", "/print", "/cards", "/games/new", "/scan", "/games/1")
ODD = ("a" * 300, "a?b", "a b", "", "[::1", "x:99999", "é.local", "a..b", "host:port")


@pytest.mark.parametrize("host", ODD)
def test_a_host_that_is_no_host_name_gets_a_400(client, host):
    for route in ROUTES:
        response = client.get(route, headers={"Host": host})
        assert response.status_code == 400, (host, route)


@pytest.mark.parametrize("host", ["localhost", "192.168.1.20:5000", "[::1]:5000", "table.local."])
def test_real_hosts_are_served(client, host):
    assert client.get("/", headers={"Host": host}).status_code == 200
    assert client.get("/print", headers={"Host": host}).status_code == 200


def test_the_longest_dns_name_with_a_port_is_a_host():
    name = ".".join(["a" * 63] * 3 + ["a" * 61])  # 253 characters
    assert valid_host(name + ":65535")
    assert not valid_host(name + "a:65535")
