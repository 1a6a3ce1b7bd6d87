"""Starting the server: which graph file, which address, and a warning off localhost.

>>> graph_file(Path("no/such/folder"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
kg.errors.GraphError: no/such/folder not found; build one first ...
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette

from kg.errors import GraphError
from kg.serve.app import create_app
from kg.store.embedded import BUILD_HINT, graph_format

_log = logging.getLogger(__name__)
#: In an OUT folder, the graph files ``kg serve`` looks for, best first.
CONFIG_VARIABLE = "KG_SERVE_CONFIG"
HEALTH_CHECK_SECONDS = 120
FOLDER_GRAPHS = ("graph.trig", "graph.nq", "graph.ttl", "graph.nt", "graph.jsonld")


def graph_file(path: Path) -> Path:
    """The graph file to serve: ``path`` itself, or the graph of a ``kg build`` folder."""
    if path.is_dir():
        for name in FOLDER_GRAPHS:
            if (path / name).is_file():
                return path / name
        raise GraphError(f"{path} holds no graph file ({', '.join(FOLDER_GRAPHS)}); "
                         f"{BUILD_HINT}")
    if not path.exists():
        raise GraphError(f"{path} not found; {BUILD_HINT}")
    graph_format(path)  # an unknown extension fails here, before the server starts
    return path


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(graph: Path, host: str = "127.0.0.1", port: int = 8080, *, timeout: float = 10.0,
          max_rows: int = 10_000, processes: int = 1,
          say: Callable[[str], None] = print) -> None:
    """Serve the explorer for ``graph`` (a graph file or a build folder) until interrupted.

    ``processes`` web processes share the port (each with its own store handle, name index
    and one query worker; two query workers when there is a single process).
    """
    import uvicorn

    started = time.perf_counter()
    path = graph_file(Path(graph))
    config = {"graph": str(path), "timeout": timeout, "max_rows": max_rows,
              "workers": 2 if processes == 1 else 1, "host": host}
    if not is_loopback(host):
        say(f"warning: serving on {host}, reachable from other machines; the explorer has "
            "no login and shows every article in the graph")
    shown = f"[{host}]" if ":" in host else host
    if processes == 1:
        app = create_app(path, timeout=timeout, max_rows=max_rows, workers=2, host=host)
        say(f"serving {path} on http://{shown}:{port}/ (opened in "
            f"{time.perf_counter() - started:.1f} s; Ctrl+C stops)")
        uvicorn.run(app, host=host, port=port, log_level="warning")
        return
    os.environ[CONFIG_VARIABLE] = json.dumps(config)
    say(f"serving {path} on http://{shown}:{port}/ with {processes} processes (Ctrl+C stops)")
    # a busy worker (a page query holding its core) must not be taken for a hung one: uvicorn
    # kills workers that miss a 5 s health check, cutting their open connections
    run_processes(uvicorn.Config("kg.serve.run:app_from_environment", factory=True, host=host,
                                 port=port, workers=processes, log_level="warning",
                                 timeout_worker_healthcheck=HEALTH_CHECK_SECONDS))


def run_processes(config: Any) -> None:
    """uvicorn's supervisor of ``config.workers`` processes on one listening socket, as
    ``uvicorn.run`` starts it, but with a socket that keeps ``TCP_NODELAY``.

    uvicorn (0.54) binds that socket with ``proto`` 0; the accepted connections inherit it and
    asyncio only sets ``TCP_NODELAY`` on sockets whose ``proto`` is TCP, so every response on
    a keep-alive connection after the first waited ~40 ms for the client's delayed ACK
    (Nagle): that was the "~50 ms slower with ``--processes 2``" (uvicorn issue #3149).
    """
    from uvicorn.supervisors import Multiprocess

    listener = tcp_listener(config)
    try:
        Multiprocess(config, sockets=[listener]).run()
    except KeyboardInterrupt:
        pass
    finally:
        listener.close()


def tcp_listener(config: Any) -> socket.socket:
    """The socket uvicorn binds for ``config``, marked as TCP so connections get
    ``TCP_NODELAY``."""
    bound = config.bind_socket()
    if bound.family not in (socket.AF_INET, socket.AF_INET6):
        return bound
    return socket.socket(bound.family, bound.type, socket.IPPROTO_TCP, fileno=bound.detach())


def app_from_environment() -> Starlette:
    """The app of one web process when ``kg serve`` runs several (uvicorn imports this)."""
    config = json.loads(os.environ[CONFIG_VARIABLE])
    return create_app(config["graph"], timeout=config["timeout"], max_rows=config["max_rows"],
                      workers=config["workers"], host=config.get("host", "127.0.0.1"))
