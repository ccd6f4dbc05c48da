"""Managed mode, as hookd runs a plugin: the socket from $HOOKD_PLUGIN_SOCKET (a bare path),
SIGTERM stops it cleanly, and it exits on its own when the process that started it dies."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

PLUGIN = Path(__file__).parent / "plugins" / "minimal.py"
SRC = Path(__file__).parent.parent / "src"
HANG_GUARD_S = 60


def env(socket: Path) -> dict[str, str]:
    return {**os.environ, "HOOKD_PLUGIN_SOCKET": str(socket), "PYTHONPATH": str(SRC)}


def wait_serving(socket: Path) -> None:
    with grpc.insecure_channel(f"unix:{socket}") as channel:
        grpc.channel_ready_future(channel).result(timeout=HANG_GUARD_S)


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")  # a zombie has exited; only its reaping is left


def test_serves_on_the_socket_path_and_stops_on_sigterm(tmp_path: Path) -> None:
    socket = tmp_path / "p.sock"
    process = subprocess.Popen([sys.executable, str(PLUGIN)], env=env(socket),
                               stderr=subprocess.PIPE, text=True)
    wait_serving(socket)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=HANG_GUARD_S)
    assert process.returncode == 0
    assert "minimal: stopping" in stderr


def test_without_an_address_it_says_what_to_set(tmp_path: Path) -> None:
    environment = {k: v for k, v in env(tmp_path / "x").items() if k != "HOOKD_PLUGIN_SOCKET"}
    done = subprocess.run([sys.executable, str(PLUGIN)], env=environment, capture_output=True,
                          text=True, timeout=HANG_GUARD_S)
    assert done.returncode == 1
    assert "no address" in done.stderr and "HOOKD_PLUGIN_SOCKET" in done.stderr


@pytest.mark.parametrize("how", ["SIGKILL"])
def test_exits_when_the_daemon_dies(tmp_path: Path, how: str) -> None:
    socket = tmp_path / "p.sock"
    # The "daemon": a process that starts the plugin and prints its pid, then waits.
    launcher = (
        "import subprocess, sys\n"
        f"child = subprocess.Popen([sys.executable, {str(PLUGIN)!r}])\n"
        "print(child.pid, flush=True)\n"
        "child.wait()\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", launcher], env=env(socket),
                              stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    plugin_pid = int(parent.stdout.readline())
    wait_serving(socket)
    parent.send_signal(getattr(signal, how))
    parent.wait(HANG_GUARD_S)
    until = time.monotonic() + HANG_GUARD_S  # a hang guard, not a measurement
    while not gone(plugin_pid) and time.monotonic() < until:
        time.sleep(0.05)
    assert gone(plugin_pid), "the plugin outlived the process that started it"


STUCK = '''
import sys, time
from hookd_plugin import Plugin, main, passes
plugin = Plugin("stuck")

@plugin.pre_tool
def pre_tool(event, ctx):
    print("holding", flush=True)
    time.sleep(3600)  # ignores ctx.cancelled
    return passes()

sys.exit(main(plugin, ["--listen", sys.argv[1]]))
'''


def test_a_handler_that_ignores_cancellation_does_not_keep_it_alive(tmp_path: Path) -> None:
    from hookd_plugin import pb

    socket = tmp_path / "stuck.sock"
    process = subprocess.Popen([sys.executable, "-c", STUCK, f"unix:{socket}"], env=env(socket),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_serving(socket)
    with grpc.insecure_channel(f"unix:{socket}") as channel:
        rpc = channel.unary_unary("/hookd.v1.HookPlugin/PreTool",
                                  request_serializer=lambda m: m.SerializeToString(),
                                  response_deserializer=pb.plugin.PreToolResponse.FromString)
        call = rpc.future(pb.plugin.PreToolRequest(), timeout=HANG_GUARD_S)
        assert process.stdout is not None and process.stdout.readline() == "holding\n"
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=HANG_GUARD_S)
        call.cancel()
    assert process.returncode == 0
    assert "handlers still running after the grace period; exiting" in stderr
