"""bench-policy in Python: the bench's pre-tool gate (see bench/src/plugins/policy.ts) on the
generated stubs the Python SDK carries (hookd_plugin.stubs, grpcio alone), so remote_python measures the same RPC and decision as
remote_uds. Denies a few dangerous shell commands, otherwise allows.

Run with PYTHONPATH=sdk-python/src: python python_policy.py --listen unix:///path
Prints "ready" on stdout once it serves; SIGTERM or SIGINT stop it.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import threading
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from hookd_plugin.stubs import plugin_pb2, plugin_pb2_grpc, points_pb2, types_pb2

NAME = "bench-policy-py"
DANGEROUS = [
    re.compile(r"\brm\s+-[a-zA-Z]*r[a-zA-Z]*\s+/(\s|$)"),
    re.compile(r"\bmkfs(\.\w+)?\b"),
    re.compile(r"\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b"),
    re.compile(r"\bdd\b[^;]*\bof=/dev/"),
]


class Policy(plugin_pb2_grpc.HookPluginServicer):
    def Describe(self, request, context):
        return plugin_pb2.DescribeResponse(
            manifest=plugin_pb2.PluginManifest(
                name=NAME,
                version="1.0.0",
                side_effect_free=True,
                subscriptions=[plugin_pb2.Subscription(point=types_pb2.POINT_PRE_TOOL, tools=["Bash"])],
            )
        )

    def PreTool(self, request, context):
        try:
            command = json.loads(request.event.call.arguments_json).get("command", "")
        except (ValueError, AttributeError):
            command = ""
        for pattern in DANGEROUS:
            if isinstance(command, str) and pattern.search(command):
                decision = points_pb2.PreToolDecision(deny=points_pb2.Deny(reason=f"{NAME}: matches {pattern.pattern}"))
                return plugin_pb2.PreToolResponse(decision=decision)
        return plugin_pb2.PreToolResponse(decision=points_pb2.PreToolDecision(allow=points_pb2.Allow()))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", required=True)
    address = parser.parse_args().listen
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    plugin_pb2_grpc.add_HookPluginServicer_to_server(Policy(), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for service in ("", "hookd.v1.HookPlugin"):
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    server.add_insecure_port(address)
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    server.start()
    print("ready", flush=True)
    stopping.wait()
    server.stop(0.5).wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
