"""Posting to an address a person gave (webhooks): only to public addresses, and only to
the address that was checked.

`resolve(url)` looks the host up once and checks every address it has; `post` then
connects to one of those very addresses, with the URL's host name kept for the `Host`
header and for TLS (the server name sent and the name the certificate must carry). A
name that answered a public address when it was checked cannot send the connection to
this server a moment later (DNS rebinding): there is no second look-up.

An IPv6 address that carries an IPv4 address (NAT64, IPv4-compatible, -mapped and
-translated, 6to4, Teredo) reaches that IPv4 address, so it is judged by it.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import string
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from league.i18n import gettext

#: An address to connect to, as `socket.getaddrinfo` gives it: (family, sockaddr), the
#: sockaddr's first item the IP address.
Address = tuple[socket.AddressFamily, tuple[Any, ...]]

_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
#: RFC 8215's prefix for a network's own translators, of a length we cannot know.
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")
_IPV4_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
_IPV4_TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")
#: The IPv4 address sits in the last 32 bits of these.
_LAST_32_BITS = (_NAT64, _IPV4_COMPATIBLE, _IPV4_MAPPED, _IPV4_TRANSLATED)
#: What a request target keeps as it is (letters and digits are always kept).
_ASCII = string.punctuation


class Refused(Exception):
    """The URL may not be posted to; the message says why, for the person who gave it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class Destination:
    """A URL looked up and checked: where to connect, and what to tell the server."""

    scheme: str
    #: The URL's host (IDNA-encoded): the Host header and the TLS server name.
    host: str
    port: int
    #: The path and query to request.
    target: str
    #: Every address the host had when it was looked up, each of them checked.
    addresses: tuple[Address, ...]


def carried_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address] | None:
    """The IPv4 addresses an IPv6 address leads to (None: it leads to itself)."""
    if any(ip in network for network in _LAST_32_BITS):
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    if ip in _NAT64_LOCAL:
        # RFC 6052: with a /48, /56 or /64 prefix the address follows it, skipping
        # octet 8; with a /96 it is the last four octets. Every reading must be public.
        octets = ip.packed
        return [
            ipaddress.IPv4Address(bytes([octets[i] for i in range(start, 16) if i != 8][:4]))
            for start in (6, 7, 9)
        ] + [ipaddress.IPv4Address(octets[12:])]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)  # the Teredo server and the client behind its NAT
    return None


def is_public(address: str) -> bool:
    """Whether a connection to `address` leaves for the internet: not this server, not a
    private, link-local, shared, reserved or multicast network."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 scope (%eth0) is no part
    if isinstance(ip, ipaddress.IPv6Address):
        carried = carried_ipv4(ip)
        if carried is not None:
            return all(v4.is_global and not v4.is_multicast for v4 in carried)
    return ip.is_global and not ip.is_multicast


def lookup(host: str, port: int) -> list[Address]:
    """The host's addresses (tests put a resolver of their own here)."""
    return [
        (family, sockaddr)
        for family, *_, sockaddr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    ]


def resolve(url: str, *, max_length: int, allow_private: bool) -> Destination:
    """Look `url` up once and check it: only http(s), and unless `allow_private`, only to
    a host whose every address is public. Raises `Refused`."""
    if len(url) > max_length:
        raise Refused(gettext("A webhook URL is at most %(num)s characters.", num=max_length))
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # e.g. an unclosed [ of an IPv6 address
        raise Refused(gettext("Give an http:// or https:// address.")) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(gettext("Give an http:// or https:// address."))
    if not parts.hostname.isprintable() or " " in parts.hostname:
        raise Refused(gettext("Give an http:// or https:// address."))
    if parts.username or parts.password:
        raise Refused(gettext("Leave the user name and password out of the address."))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise Refused(
            gettext("The port of that address is not a number from 1 to 65535.")
        ) from None
    try:
        host = parts.hostname.encode("idna").decode("ascii")
        addresses = tuple(lookup(host, port))
    except (OSError, UnicodeError):  # not found, or not a host name at all
        raise Refused(gettext("%(host)s cannot be found.", host=parts.hostname)) from None
    if not addresses:
        raise Refused(gettext("%(host)s cannot be found.", host=parts.hostname))
    if not allow_private and not all(is_public(str(sockaddr[0])) for _, sockaddr in addresses):
        raise Refused(
            gettext(
                "%(host)s points to this server or a private network; "
                "webhooks only post to public addresses.",
                host=parts.hostname,
            )
        )
    # The request line is ASCII: other characters of the path and query go %-encoded.
    target = quote((parts.path or "/") + (f"?{parts.query}" if parts.query else ""), safe=_ASCII)
    return Destination(parts.scheme, host, port, target, addresses)


def _connect(addresses: tuple[Address, ...], timeout: float | None) -> socket.socket:
    """A connection to the first of the checked addresses that answers."""
    failure: OSError = OSError("no address to connect to")
    for family, sockaddr in addresses:
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            sock.connect(sockaddr)
        except OSError as error:
            sock.close()
            failure = error
        else:
            return sock
    raise failure


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """http.client's connection, to the checked addresses rather than a new look-up."""

    def __init__(self, destination: Destination, timeout: float) -> None:
        super().__init__(destination.host, destination.port, timeout=timeout)
        self.addresses = destination.addresses

    def connect(self) -> None:
        self.sock = _connect(self.addresses, self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """The same over TLS, the certificate checked against the URL's host name."""

    def __init__(self, destination: Destination, timeout: float, tls: ssl.SSLContext) -> None:
        super().__init__(destination.host, destination.port, timeout=timeout, context=tls)
        self.addresses, self.tls = destination.addresses, tls

    def connect(self) -> None:
        sock = _connect(self.addresses, self.timeout)
        try:
            self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)
        except BaseException:
            sock.close()
            raise


def tls_context() -> ssl.SSLContext:
    """The system's trusted authorities, host names checked (tests trust their own)."""
    return ssl.create_default_context()


def post(destination: Destination, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST `body` to the destination, following no redirect; the status it answered.

    Raises OSError (refused, unreachable, timed out, a bad certificate) or
    http.client.HTTPException (not an HTTP answer)."""
    connection: http.client.HTTPConnection = (
        _PinnedHTTPSConnection(destination, timeout, tls_context())
        if destination.scheme == "https"
        else _PinnedHTTPConnection(destination, timeout)
    )
    try:
        connection.request("POST", destination.target, body=body, headers=headers)
        response = connection.getresponse()
        response.read(1024)
        return response.status
    finally:
        connection.close()
