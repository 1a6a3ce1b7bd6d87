"""What every request and response passes through: the Host allow-list and the security
headers.

The Host allow-list stops DNS rebinding: a page on the web whose name the attacker points at
127.0.0.1 makes the journalist's own browser ask this server, with ``Host: attacker.example``;
without the check that page could read the whole corpus (and run SPARQL) from the browser.
Allowed: ``127.0.0.1``, ``localhost``, ``[::1]``, and the name or address ``--host`` gives;
when the server listens on every interface (``0.0.0.0``, ``::``) also this machine's names
and any address written as a number, which a rebinding page cannot send as its own name.

>>> hosts = allowed_hosts("127.0.0.1")
>>> host_allowed("localhost:8080", hosts), host_allowed("evil.example", hosts)
(True, False)
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; "
       "frame-ancestors 'self'")
SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                    (b"cross-origin-resource-policy", b"same-origin"),
                    (b"cache-control", b"no-store")]
LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "::", ""})

ASGIApp = Callable[[MutableMapping[str, Any], Callable[..., Any], Callable[..., Any]],
                   Awaitable[None]]


def allowed_hosts(bound: str) -> frozenset[str]:
    """The host names a request may name for a server bound to ``bound`` (lower case, no
    port); ``"*"`` in the set stands for any numeric address.

    >>> sorted(allowed_hosts("kg.newsroom.example"))
    ['127.0.0.1', '::1', 'kg.newsroom.example', 'localhost']
    """
    names = set(LOCAL_NAMES) | {bound.lower().strip("[]")}
    if bound in WILDCARDS:
        names.discard(bound)
        names |= {"*", socket.gethostname().lower(), socket.getfqdn().lower()}
    return frozenset(n for n in names if n)


def host_allowed(header: str, allowed: frozenset[str]) -> bool:
    """Whether a ``Host`` header (``name``, ``name:port``, ``[v6]:port``) names this server.

    >>> host_allowed("[::1]:8080", allowed_hosts("127.0.0.1"))
    True
    >>> host_allowed("10.1.2.3", allowed_hosts("0.0.0.0")), host_allowed("", allowed_hosts("::"))
    (True, False)
    """
    name = _host_name(header.strip().lower())
    if not name:
        return False
    if name in allowed:
        return True
    if "*" not in allowed:
        return False
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _host_name(header: str) -> str:
    if header.startswith("["):
        return header[1:].partition("]")[0]
    name, _, port = header.rpartition(":") if header.count(":") == 1 else (header, "", "")
    return name if not port or port.isascii() and port.isdigit() else ""


class Guard:
    """ASGI middleware: a request naming another host gets 421 and nothing else; every
    response carries the Content-Security-Policy (unless it has its own), ``no-store`` and
    the other headers of ``SECURITY_HEADERS``."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[..., Any],
                       send: Callable[..., Any]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"),
                    "")
        if not host_allowed(host, self.allowed):
            await _refuse(send)
            return

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers += [h for h in SECURITY_HEADERS if h[0] not in names]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _refuse(send: Callable[..., Any]) -> None:
    body = (b"this server answers only to the names it serves on (127.0.0.1, localhost, "
            b"or the one given to kg serve --host)\n")
    await send({"type": "http.response.start", "status": 421,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()),
                            (b"content-security-policy", CSP.encode()),
                            (b"cache-control", b"no-store"), *SECURITY_HEADERS[:2]]})
    await send({"type": "http.response.body", "body": body})
