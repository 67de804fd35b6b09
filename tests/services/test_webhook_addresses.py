"""Where webhooks may post: public addresses only, judged by the IPv4 address an IPv6
address carries, and checked on the very address the delivery connects to.

No test here uses the internet: host names are answered by a resolver of the test's own
(`outbound.lookup`), and a "public" address is connected, underneath, to a receiver on
127.0.0.1 (`outbound._connect`), after the check has passed.
"""

from __future__ import annotations

import ipaddress
import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from league.extensions import db
from league.i18n import in_language
from league.models import League, User, Webhook, WebhookDelivery
from league.services import outbound, webhooks
from league.services.errors import RuleViolation
from league.services.unit_of_work import unit_of_work
from league.services.webhooks import WebhookSettings
from tests.factories import make_league, make_user
from tests.receiver import Receiver, receiver

#: IPv6 addresses that lead to an IPv4 address of this server or a private network.
CARRYING_PRIVATE_IPV4 = [
    "64:ff9b::127.0.0.1",  # NAT64 (RFC 6052) to loopback
    "64:ff9b::10.0.0.1",  # NAT64 to a private network
    "64:ff9b::169.254.169.254",  # NAT64 to the cloud metadata service
    "::ffff:0:127.0.0.1",  # IPv4-translated (RFC 2765)
    "::127.0.0.1",  # IPv4-compatible (RFC 4291, deprecated)
    "2002:7f00:1::",  # 6to4 (RFC 3056) of 127.0.0.1
    "2002:a9fe:a9fe::",  # 6to4 of 169.254.169.254
    "::ffff:10.0.0.1",  # IPv4-mapped
    "64:ff9b:1:7f00:0:100::",  # RFC 8215's local NAT64 prefix, as a /48, to 127.0.0.1
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, whose client is 127.0.0.1
]
#: A public address (example.com's, once): connected to a local receiver underneath.
PUBLIC = "93.184.215.14"
EVENTS = ("team.created",)


@pytest.fixture
def hooks_app(app: Flask) -> Flask:
    app.config.update(ALLOW_PRIVATE_WEBHOOKS=False, WEBHOOK_DISPATCH="inline")
    return app


class Network:
    """The test's DNS (answers per host, in turn) and the connections really made."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.answers: dict[str, list[list[str]]] = {}
        self.connected: list[tuple[str, ...]] = []
        self.looked_up: list[str] = []
        #: Where connections to public addresses really go (a local receiver).
        self.underneath: tuple[str, int] | None = None
        real_lookup, real_connect = outbound.lookup, outbound._connect

        def lookup(host: str, port: int) -> list[outbound.Address]:
            self.looked_up.append(host)
            if host not in self.answers:
                return real_lookup(host, port)  # an address literal: no DNS involved
            queue = self.answers[host]
            answer = queue.pop(0) if len(queue) > 1 else queue[0]
            return [(socket.AF_INET, (ip, port)) for ip in answer]

        def connect(
            addresses: tuple[outbound.Address, ...], timeout: float | None
        ) -> socket.socket:
            self.connected.append(tuple(str(sockaddr[0]) for _, sockaddr in addresses))
            if self.underneath is None:
                return real_connect(addresses, timeout)
            return real_connect(((socket.AF_INET, self.underneath),), timeout)

        monkeypatch.setattr(outbound, "lookup", lookup)
        monkeypatch.setattr(outbound, "_connect", connect)


@pytest.fixture
def network(hooks_app: Flask, monkeypatch: pytest.MonkeyPatch) -> Network:
    return Network(monkeypatch)


def _commissioner() -> tuple[User, League]:
    boss = make_user("boss")
    return boss, make_league(boss)


def _register(boss: User, league: League, url: str) -> Webhook:
    with unit_of_work() as session:
        return webhooks.create_webhook(session, boss, league.id, WebhookSettings(url, EVENTS))


def _emit(league: League) -> WebhookDelivery:
    """A team.created event, delivered at once (inline); its delivery as recorded."""
    with unit_of_work() as session:
        webhooks.emit(session, league.id, "team.created", {"team": {"id": 1, "name": "Reavers"}})
    db.session.expire_all()
    return db.session.scalars(db.select(WebhookDelivery)).one()


@pytest.mark.parametrize("address", CARRYING_PRIVATE_IPV4)
def test_ipv6_addresses_carrying_a_private_ipv4_address_are_refused(address: str) -> None:
    assert not outbound.is_public(address)


@pytest.mark.parametrize(
    "address",
    [
        PUBLIC,
        "2606:2800:21f:cb07:6820:80da:af6b:8b2c",  # a plain global IPv6 address
        "64:ff9b::93.184.215.14",  # NAT64 to a public address
        "2002:5db8:d70e::",  # 6to4 of 93.184.215.14
        "2001:0:4136:e378:8000:63bf:a247:28f1",  # Teredo: server and client public
    ],
)
def test_addresses_leading_to_public_ipv4_addresses_are_accepted(address: str) -> None:
    assert outbound.is_public(address)


def test_each_reading_of_the_local_nat64_prefix_must_be_public() -> None:
    # RFC 6052 with RFC 8215's 64:ff9b:1::/48, octet 8 always skipped: a /48 prefix
    # puts the IPv4 address in octets 6, 7, 9, 10 (8.8.8.8 here), a /56 in 7, 9, 10, 11
    # (8.8.8.0), a /64 in 9 to 12 (8.8.0.0), a /96 in the last four (0.0.0.0).
    ip = ipaddress.IPv6Address("64:ff9b:1:808:8:800::")
    assert [str(v4) for v4 in outbound.carried_ipv4(ip) or []] == [
        "8.8.8.8",
        "8.8.8.0",
        "8.8.0.0",
        "0.0.0.0",  # noqa: S104  (an address read, not bound)
    ]
    assert not outbound.is_public(str(ip))  # the /96 reading is 0.0.0.0


@pytest.mark.parametrize("address", CARRYING_PRIVATE_IPV4)
def test_they_are_refused_at_registration(hooks_app: Flask, address: str) -> None:
    boss, league = _commissioner()
    with pytest.raises(RuleViolation) as refused:
        _register(boss, league, f"http://[{address}]:8080/hook")
    assert refused.value.field == "url"
    assert "points to this server or a private network" in refused.value.message
    assert db.session.scalars(db.select(Webhook)).all() == []


@pytest.mark.parametrize("address", CARRYING_PRIVATE_IPV4)
def test_they_are_refused_at_delivery_without_connecting(
    hooks_app: Flask, network: Network, address: str
) -> None:
    boss, league = _commissioner()
    hooks_app.config["ALLOW_PRIVATE_WEBHOOKS"] = True  # registered on a LAN league...
    _register(boss, league, f"http://[{address}]:8080/hook")
    hooks_app.config["ALLOW_PRIVATE_WEBHOOKS"] = False  # ...the setting since removed
    delivery = _emit(league)
    assert (delivery.status, delivery.response_code) == ("retrying", None)
    assert "points to this server or a private network" in (delivery.error or "")
    assert network.connected == []


def test_a_name_pointing_at_this_server_after_registration_is_not_connected_to(
    network: Network,
) -> None:
    boss, league = _commissioner()
    with receiver() as listening:
        port = int(listening.url.rsplit(":", 1)[1].split("/")[0])
        # Public when registered; this server a moment later (DNS rebinding).
        network.answers["hooks.example"] = [[PUBLIC], ["127.0.0.1"]]
        _register(boss, league, f"http://hooks.example:{port}/hook")
        delivery = _emit(league)
        assert listening.received == []
    assert network.connected == []
    assert delivery.status == "retrying"
    assert delivery.error == (
        "hooks.example points to this server or a private network; "
        "webhooks only post to public addresses."
    )


def test_one_private_address_among_public_ones_is_refused_at_delivery(
    network: Network,
) -> None:
    boss, league = _commissioner()
    network.answers["hooks.example"] = [[PUBLIC], [PUBLIC, "10.0.0.7"]]
    _register(boss, league, "http://hooks.example/hook")
    delivery = _emit(league)
    assert "private network" in (delivery.error or "")
    assert network.connected == []


def test_a_public_host_name_gets_the_delivery_at_the_address_checked(
    network: Network,
) -> None:
    boss, league = _commissioner()
    with receiver() as listening:
        port = int(listening.url.rsplit(":", 1)[1].split("/")[0])
        network.underneath = ("127.0.0.1", port)
        network.answers["hooks.example"] = [[PUBLIC]]
        hook = _register(boss, league, f"http://hooks.example:{port}/hook/\u00e9?channel=7")
        delivery = _emit(league)
        [received] = listening.received
    assert (delivery.status, delivery.response_code) == ("delivered", 204)
    # One look-up at registration, one for the attempt, and one connection, to the
    # address that attempt checked.
    assert network.looked_up == ["hooks.example", "hooks.example"]
    assert network.connected == [(PUBLIC,)]
    assert received.path == "/hook/%C3%A9?channel=7"  # the request line is ASCII
    assert received.headers["Host"] == f"hooks.example:{port}"
    assert received.headers["X-League-Signature"] == webhooks.signature(hook.secret, received.body)


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    """A self-signed certificate for hooks.example (and its key)."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command makes the test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    command = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    command += ["-keyout", str(key), "-out", str(cert), "-subj", "/CN=hooks.example"]
    command += ["-addext", "subjectAltName=DNS:hooks.example"]
    subprocess.run(  # noqa: S603  (fixed arguments)
        command,
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.fixture
def tls_receiver(
    network: Network, certificate: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Receiver, list[str | None]]]:
    """An HTTPS receiver for hooks.example, trusted by the delivery; the server names
    the clients asked for."""
    cert, key = certificate
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(cert, key)
    asked: list[str | None] = []
    server.sni_callback = lambda _sock, name, _context: asked.append(name)
    client = ssl.create_default_context(cafile=str(cert))
    monkeypatch.setattr(outbound, "tls_context", lambda: client)
    with receiver(server) as listening:
        port = int(listening.url.rsplit(":", 1)[1].split("/")[0])
        network.underneath = ("127.0.0.1", port)
        yield listening, asked


def test_over_https_the_host_name_is_kept_for_the_certificate(
    network: Network, tls_receiver: tuple[Receiver, list[str | None]]
) -> None:
    listening, asked = tls_receiver
    port = int(listening.url.rsplit(":", 1)[1].split("/")[0])
    network.answers["hooks.example"] = [[PUBLIC]]
    boss, league = _commissioner()
    _register(boss, league, f"https://hooks.example:{port}/hook")
    delivery = _emit(league)
    assert (delivery.status, delivery.response_code) == ("delivered", 204)
    assert network.connected == [(PUBLIC,)]
    assert asked == ["hooks.example"]  # TLS server name: the URL's host, not the address
    assert listening.received[0].headers["Host"] == f"hooks.example:{port}"


def test_over_https_a_certificate_for_another_name_is_refused(
    network: Network, tls_receiver: tuple[Receiver, list[str | None]]
) -> None:
    listening, asked = tls_receiver
    port = int(listening.url.rsplit(":", 1)[1].split("/")[0])
    network.answers["other.example"] = [[PUBLIC]]
    boss, league = _commissioner()
    _register(boss, league, f"https://other.example:{port}/hook")
    delivery = _emit(league)
    assert listening.received == []
    assert asked == ["other.example"]
    assert delivery.status == "retrying"
    assert "CERTIFICATE_VERIFY_FAILED" in (delivery.error or "")


def test_a_refusal_is_in_the_readers_language_and_recorded_in_english(
    hooks_app: Flask, network: Network
) -> None:
    boss, league = _commissioner()
    with in_language("fr"), pytest.raises(RuleViolation) as refused:
        _register(boss, league, "http://[::127.0.0.1]/hook")
    assert refused.value.message == (
        "::127.0.0.1 désigne ce serveur ou un réseau privé ; "
        "les webhooks n'envoient qu'à des adresses publiques."
    )
    hooks_app.config["ALLOW_PRIVATE_WEBHOOKS"] = True
    _register(boss, league, "http://[::127.0.0.1]/hook")
    hooks_app.config["ALLOW_PRIVATE_WEBHOOKS"] = False
    with in_language("fr"):  # whoever caused the event: a delivery's errors are English
        delivery = _emit(league)
    assert delivery.error == (
        "::127.0.0.1 points to this server or a private network; "
        "webhooks only post to public addresses."
    )


def test_a_redirect_is_not_followed(hooks_app: Flask) -> None:
    # A redirect could lead anywhere the check never saw: it is a failed attempt.
    hooks_app.config["ALLOW_PRIVATE_WEBHOOKS"] = True
    boss, league = _commissioner()
    with receiver() as listening, receiver() as elsewhere:
        listening.statuses, listening.location = [302], elsewhere.url
        _register(boss, league, listening.url)
        delivery = _emit(league)
        assert elsewhere.received == []
    assert len(listening.received) == 1
    assert (delivery.status, delivery.response_code) == ("retrying", 302)
    assert delivery.error == "The receiver answered 302."
