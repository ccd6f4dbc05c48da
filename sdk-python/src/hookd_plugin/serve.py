"""Serving a Plugin: HookPlugin (unary and Attach) and grpc.health.v1 on a Unix socket or TCP.

Managed mode: hookd starts a managed plugin with ``HOOKD_PLUGIN_SOCKET`` set to a bare socket
path (not a URI) and waits for health SERVING. Without an explicit address the server listens
there, and stops when the daemon goes away (the kernel's parent-death signal where Linux has
it, and the parent pid changing everywhere), so no plugin outlives its daemon. SIGTERM and SIGINT
report NOT_SERVING and let calls in flight finish for ``grace`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import logging
import os
import signal
import socket
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from hookd_plugin.plugin import Plugin, PluginError
from hookd_plugin.service import SERVICE, PluginService

#: Where a managed plugin listens: a socket path, as hookd passes it.
SOCKET_ENV = "HOOKD_PLUGIN_SOCKET"
#: The health service names hookd checks: the plugin's service first, then the server's ("").
HEALTH_SERVICES = (SERVICE, "")
_PARENT_POLL_S = 0.25
_PR_SET_PDEATHSIG = 1

log = logging.getLogger("hookd_plugin")


def _threads(plugin: Plugin) -> str:
    """The name prefix of the plugin's handler threads."""
    return f"hookd-plugin-{plugin.name}"


def listen_address(address: str | None = None, socket_path: str | None = None) -> str:
    """The gRPC address to bind: ``address``, ``socket_path`` or $HOOKD_PLUGIN_SOCKET."""
    if address is not None and socket_path is not None:
        raise PluginError("give either address or socket_path, not both")
    if address is not None:
        return address
    path = socket_path if socket_path is not None else os.environ.get(SOCKET_ENV, "")
    if path == "":
        raise PluginError(f"no address: pass address= (or --listen) or set ${SOCKET_ENV}")
    return path if path.startswith("unix:") else f"unix:{os.path.abspath(path)}"


def _refuse_live_socket(address: str) -> None:
    """gRPC replaces an existing socket file when it binds: right for a stale file, wrong for a
    live server's, whose address it would silently take."""
    path = address.removeprefix("unix:").removeprefix("//")
    if path == address:
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
        except OSError:
            return
    raise PluginError(f"{path} is in use by another server")


def _parent_death_signal() -> None:
    """Asks Linux to SIGTERM this process when its parent (the daemon) dies."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # the parent-pid watch still stops the plugin


class PluginServer:
    """A running plugin server (``await PluginServer(plugin, ...).start()``)."""

    def __init__(
        self,
        plugin: Plugin,
        *,
        address: str | None = None,
        socket_path: str | None = None,
        max_workers: int = 16,
        grace: float = 2.0,
    ) -> None:
        self._executor = ThreadPoolExecutor(max_workers, thread_name_prefix=_threads(plugin))
        self.service = PluginService(plugin, self._executor)
        self.address = listen_address(address, socket_path)
        self.grace = grace
        self._server: grpc.aio.Server | None = None
        self._health = health.aio.HealthServicer()
        self._stopped = asyncio.Event()
        self._stopping: asyncio.Task[None] | None = None

    async def start(self) -> None:
        _refuse_live_socket(self.address)
        server = grpc.aio.server()
        server.add_generic_rpc_handlers((self.service.generic_handler(),))
        health_pb2_grpc.add_HealthServicer_to_server(self._health, server)
        for name in HEALTH_SERVICES:
            await self._health.set(name, health_pb2.HealthCheckResponse.SERVING)
        try:
            port = server.add_insecure_port(self.address)
        except RuntimeError as error:
            raise PluginError(f"cannot listen on {self.address}: {error}") from error
        if self.address.rsplit(":", 1)[-1] == "0":
            self.address = f"{self.address.rsplit(':', 1)[0]}:{port}"
        await server.start()
        self._server = server
        log.info("%s: serving on %s", self.service.plugin.name, self.address)

    def stop(self) -> asyncio.Task[None]:
        """Reports NOT_SERVING, lets calls finish for ``grace`` seconds, stops. Idempotent."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        return self._stopping

    async def _stop(self) -> None:
        log.info("%s: stopping", self.service.plugin.name)
        await self._health.enter_graceful_shutdown()
        if self._server is not None:
            await self._server.stop(self.grace)
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._stopped.set()

    async def wait(self) -> None:
        await self._stopped.wait()

    async def watch_parent(self) -> None:
        """Stops the server once the process that started it is gone."""
        parent = os.getppid()
        while not self._stopped.is_set():
            if os.getppid() != parent:
                log.warning("%s: the daemon (pid %d) is gone; stopping", self.service.plugin.name,
                            parent)
                await self.stop()
                return
            await asyncio.sleep(_PARENT_POLL_S)


async def serve_async(
    plugin: Plugin,
    *,
    address: str | None = None,
    socket_path: str | None = None,
    max_workers: int = 16,
    grace: float = 2.0,
) -> None:
    """Serves until SIGTERM/SIGINT (or, managed, until the daemon is gone)."""
    managed = address is None and socket_path is None
    server = PluginServer(plugin, address=address, socket_path=socket_path,
                          max_workers=max_workers, grace=grace)
    if managed:
        _parent_death_signal()
    await server.start()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, server.stop)
    watcher = asyncio.ensure_future(server.watch_parent()) if managed else None
    try:
        await server.wait()
    finally:
        if watcher is not None:
            watcher.cancel()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)


def serve(plugin: Plugin, *, address: str | None = None, socket_path: str | None = None,
          max_workers: int = 16, grace: float = 2.0) -> None:
    """Blocking ``serve_async``: the entry point of a plugin script. Returns once the server has
    stopped; a sync handler still running after the grace period (one that ignores
    ``ctx.cancelled``) does not keep the process alive: it exits without waiting for it."""
    asyncio.run(serve_async(plugin, address=address, socket_path=socket_path,
                            max_workers=max_workers, grace=grace))
    busy = [t for t in threading.enumerate() if t.name.startswith(f"{_threads(plugin)}_")]
    for thread in busy:
        thread.join(grace)
    if any(thread.is_alive() for thread in busy):
        log.warning("%s: handlers still running after the grace period; exiting", plugin.name)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def main(plugin: Plugin, argv: list[str] | None = None) -> int:
    """A plugin's command line: ``[--listen ADDRESS]``, logging to stderr; the exit code."""
    parser = argparse.ArgumentParser(description=f"hookd plugin {plugin.name}")
    parser.add_argument("--listen", metavar="ADDRESS",
                        help=f"unix:PATH or HOST:PORT (default: the socket path in ${SOCKET_ENV})")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s", stream=sys.stderr)
    try:
        serve(plugin, address=args.listen)
    except PluginError as error:
        log.error("%s: %s", plugin.name, error)
        return 1
    return 0
