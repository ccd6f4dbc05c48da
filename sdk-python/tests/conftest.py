"""A Plugin served in this process on a temporary Unix socket, and a channel to it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from hookd_plugin import Plugin
from hookd_plugin.testing.daemon import _InProcess


@dataclass
class Served:
    address: str
    channel: grpc.Channel

    def unary(self, method: str, request: object, response: type, **kw: object) -> object:
        rpc = self.channel.unary_unary(f"/hookd.v1.HookPlugin/{method}",
                                       request_serializer=lambda m: m.SerializeToString(),
                                       response_deserializer=response.FromString)
        return rpc(request, **kw)


@pytest.fixture
def serve_plugin(tmp_path: Path) -> Iterator[object]:
    started: list[_InProcess] = []
    channels: list[grpc.Channel] = []

    def start(plugin: Plugin) -> Served:
        served = _InProcess(plugin, str(tmp_path / f"p{len(started)}.sock"))
        started.append(served)
        channel = grpc.insecure_channel(served.server.address)
        channels.append(channel)
        return Served(served.server.address, channel)

    yield start
    for channel in channels:
        channel.close()
    for served in started:
        served.stop()
