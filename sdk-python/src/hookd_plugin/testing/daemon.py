"""Running a plugin against a real hookd daemon on a temporary socket, with one call:

    with run_daemon(plugin) as daemon:              # the Plugin served in this process
        response = daemon.pre_tool(events.pre_tool("Bash", {"command": "rm -rf /"}))
    with run_daemon(command=[sys.executable, "my_plugin.py"]) as daemon:   # a managed plugin
        ...

The daemon is ``hookd serve`` with a config written for the run (one Unix listener and the
plugin, required, so the daemon serves only once the plugin is ready). Which daemon: the
``daemon=`` argument or $HOOKD_DAEMON (a command line, e.g. "node /path/to/daemon/dist/cli.js",
or a path to cli.js or to a ``hookd`` executable); else ``daemon/dist/cli.js`` of a hookd checkout
above the working directory or this package; else ``hookd`` on PATH."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from hookd_plugin.json_values import JsonValue
from hookd_plugin.plugin import Plugin
from hookd_plugin.serve import PluginServer
from hookd_plugin.testing.client import HostClient

DAEMON_ENV = "HOOKD_DAEMON"
READY_LOG = "hookd serving"


class DaemonError(RuntimeError):
    """The daemon could not be found or did not start."""


def daemon_command(daemon: str | Sequence[str] | None = None) -> list[str]:
    """The command line that runs hookd (without ``serve``)."""
    value = daemon if daemon is not None else os.environ.get(DAEMON_ENV)
    if value:
        parts = shlex.split(value) if isinstance(value, str) else list(value)
        return _with_node(parts)
    for base in (Path.cwd(), Path(__file__).resolve()):
        for directory in (base, *base.parents):
            cli = directory / "daemon" / "dist" / "cli.js"
            if cli.is_file():
                return _with_node([str(cli)])
    found = shutil.which("hookd")
    if found is not None:
        return [found]
    raise DaemonError(
        f"no hookd daemon found: set ${DAEMON_ENV} (e.g. 'node /path/to/hookd/daemon/dist/cli.js'"
        " after `npm run build` in the checkout) or pass daemon="
    )


def _with_node(parts: list[str]) -> list[str]:
    if len(parts) == 1 and parts[0].endswith(".js"):
        node = shutil.which("node")
        if node is None:
            raise DaemonError(f"{parts[0]} needs node, which is not on PATH")
        return [node, parts[0]]
    return parts


class _InProcess:
    """The Plugin served on its own asyncio loop in a background thread."""

    def __init__(self, plugin: Plugin, socket_path: str) -> None:
        self.server = PluginServer(plugin, socket_path=socket_path)
        self.loop = asyncio.new_event_loop()
        started = threading.Event()
        self.error: BaseException | None = None

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            try:
                self.loop.run_until_complete(self.server.start())
            except BaseException as error:  # noqa: BLE001 - handed to the starting thread
                self.error = error
                started.set()
                return
            started.set()
            self.loop.run_until_complete(self.server.wait())

        self.thread = threading.Thread(target=run, name=f"plugin {plugin.name}", daemon=True)
        self.thread.start()
        started.wait()
        if self.error is not None:
            raise self.error

    def stop(self) -> None:
        if self.thread.is_alive():
            asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result()
            self.thread.join()
        self.loop.close()

    async def _stop(self) -> None:
        await self.server.stop()


class Daemon(HostClient):
    """A running daemon: the HookHost evaluate calls (HostClient) and what it logged."""

    def __init__(self, process: subprocess.Popen[str], directory: str, socket_path: str,
                 agent_id: str) -> None:
        super().__init__(f"unix://{socket_path}", agent_id)
        self.process = process
        self.dir = directory
        self.logs: list[dict[str, object]] = []
        self.stderr: list[str] = []


@contextmanager
def run_daemon(
    plugin: Plugin | None = None,
    *,
    command: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
    name: str | None = None,
    points: Mapping[str, Mapping[str, JsonValue]] | None = None,
    plugin_config: Mapping[str, JsonValue] | None = None,
    config: Mapping[str, JsonValue] | None = None,
    daemon: str | Sequence[str] | None = None,
    agent_id: str = "test-agent",
    timeout: float = 60.0,
) -> Iterator[Daemon]:
    """Starts hookd with the plugin (``plugin``, served here, or ``command``, managed by hookd),
    yields once the daemon serves, stops both afterwards. ``points`` are the config's per-point
    overrides, ``plugin_config`` more fields of the plugin's config entry, ``config`` more
    top-level config fields. ``timeout`` (seconds) bounds the start."""
    if (plugin is None) == (command is None):
        raise ValueError("run_daemon: give a plugin or a command, not both")
    cli = daemon_command(daemon)
    with tempfile.TemporaryDirectory(prefix="hookd-py-") as directory:
        socket_path = os.path.join(directory, "hookd.sock")
        served: _InProcess | None = None
        entry: dict[str, JsonValue]
        if plugin is not None:
            plugin_socket = os.path.join(directory, "plugin.sock")
            served = _InProcess(plugin, plugin_socket)
            entry = {"name": name or plugin.name, "kind": "remote",
                     "target": f"unix://{plugin_socket}"}
        else:
            assert command is not None
            entry = {"name": name or Path(command[-1]).stem.replace("_", "-"), "kind": "managed",
                     "command": command[0], "args": list(command[1:]), "env": dict(env or {})}
        entry["required"] = True
        if points is not None:
            entry["points"] = {point: dict(value) for point, value in points.items()}
        entry.update(plugin_config or {})
        document = {"listeners": [{"unix": socket_path}], "plugins": [entry], **(config or {})}
        config_path = os.path.join(directory, "hookd.json")
        with open(config_path, "w", encoding="utf-8") as out:
            json.dump(document, out, indent=2)
        process = subprocess.Popen(
            [*cli, "serve", "--config", config_path], cwd=directory, text=True,
            env={**os.environ, "XDG_RUNTIME_DIR": directory}, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True,
        )
        running = Daemon(process, directory, socket_path, agent_id)
        try:
            _wait_until_serving(running, timeout)
            yield running
        finally:
            running.close()
            _stop(process)
            if served is not None:
                served.stop()


def _wait_until_serving(daemon: Daemon, timeout: float) -> None:
    ready = threading.Event()
    process = daemon.process
    assert process.stdout is not None and process.stderr is not None
    stdout, stderr = process.stdout, process.stderr

    def read_stdout() -> None:
        for line in stdout:
            try:
                record = json.loads(line)
            except ValueError:
                record = {"level": "raw", "msg": line.rstrip("\n")}
            daemon.logs.append(record)
            if record.get("msg") == READY_LOG:
                ready.set()
        ready.set()  # the daemon exited

    def read_stderr() -> None:
        for line in stderr:
            daemon.stderr.append(line.rstrip("\n"))

    threading.Thread(target=read_stdout, daemon=True).start()
    threading.Thread(target=read_stderr, daemon=True).start()
    # A hang guard: the daemon says it serves (or exits) long before this on a sane machine.
    if not ready.wait(timeout) or process.poll() is not None:
        _stop(process)
        said = "\n".join([*(json.dumps(r) for r in daemon.logs[-20:]), *daemon.stderr[-20:]])
        raise DaemonError(f"hookd did not start serving within {timeout:.0f} s:\n{said}")


def _stop(process: subprocess.Popen[str], grace: float = 10.0) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
