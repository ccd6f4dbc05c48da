"""Runs redact_secrets.py as a real subprocess on a temporary Unix socket, as hookd would."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

PLUGIN = Path(__file__).resolve().parent.parent / "redact_secrets.py"
SDK_SRC = Path(__file__).resolve().parents[3] / "sdk-python" / "src"
#: What the plugin process needs besides its own directory: the SDK (from the checkout).
ENV = {"PYTHONPATH": str(SDK_SRC)}


@dataclass
class RunningPlugin:
    process: subprocess.Popen[bytes]
    address: str
    channel: grpc.Channel
    log: Path

    def terminate(self, timeout: float = 10) -> int:
        """Sends SIGTERM, closes the channel and returns the exit code."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout)
        finally:
            self.channel.close()


def start_plugin(directory: Path) -> RunningPlugin:
    """Starts the plugin with HOOKD_PLUGIN_SOCKET in directory and waits until it is reachable."""
    socket_path, log = directory / "plugin.sock", directory / "plugin.log"
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, str(PLUGIN)],
            env={**os.environ, **ENV, "HOOKD_PLUGIN_SOCKET": str(socket_path)},
            stderr=stderr,
        )
    address = f"unix:{socket_path}"
    channel = grpc.insecure_channel(address)
    try:
        grpc.channel_ready_future(channel).result(timeout=15)
    except grpc.FutureTimeoutError:
        process.kill()
        process.wait()
        pytest.fail(f"the plugin did not come up; its stderr:\n{log.read_text()}")
    return RunningPlugin(process, address, channel, log)
