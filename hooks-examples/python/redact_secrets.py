"""redact-secrets: a hookd post-tool plugin that removes secrets from what the model is shown.

For a successful tool call it redacts the text and JSON content blocks (see ``redaction``). When
it redacted something it answers ``accept`` with the redacted content and a context message
saying what it removed; otherwise it answers ``pass``. The canonical value is left unchanged.

Run: ``python redact_secrets.py [--listen ADDRESS]``; without ``--listen`` it serves on the Unix
socket named by ``$HOOKD_PLUGIN_SOCKET``.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
from collections import Counter
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from hookd.v1 import plugin_pb2, plugin_pb2_grpc, points_pb2, types_pb2
from redaction import describe, redact_json, redact_text

PLUGIN_NAME = "redact-secrets"
PLUGIN_VERSION = "0.1.0"
SOCKET_ENV = "HOOKD_PLUGIN_SOCKET"
# How long in-flight calls may take to finish after SIGTERM; open streams are cut after it. It
# stays under the 3 s the daemon gives a managed plugin between SIGTERM and SIGKILL by default.
GRACE_SECONDS = 2.0

log = logging.getLogger(PLUGIN_NAME)


class RedactSecrets(plugin_pb2_grpc.HookPluginServicer):
    """The HookPlugin service; only the post-tool point is subscribed."""

    def Describe(
        self, request: plugin_pb2.DescribeRequest, context: grpc.ServicerContext
    ) -> plugin_pb2.DescribeResponse:
        return plugin_pb2.DescribeResponse(
            manifest=plugin_pb2.PluginManifest(
                name=PLUGIN_NAME,
                version=PLUGIN_VERSION,
                subscriptions=[
                    plugin_pb2.Subscription(
                        point=types_pb2.POINT_POST_TOOL,
                        tools=[],  # every tool
                        priority=100,
                        failure_policy=types_pb2.FAILURE_POLICY_FAIL_OPEN,
                    )
                ],
                side_effect_free=True,
            )
        )

    def PostTool(
        self, request: plugin_pb2.PostToolRequest, context: grpc.ServicerContext
    ) -> plugin_pb2.PostToolResponse:
        result = request.event.result
        if not result.HasField("success"):
            return _pass()

        found: Counter[str] = Counter()
        blocks: list[types_pb2.ContentBlock] = []
        for block in result.success.content:
            if context.time_remaining() <= 0:
                context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline passed while redacting")
            redacted, in_block = _redact_block(block)
            blocks.append(redacted)
            found += in_block
        if not found:
            return _pass()

        tool, summary = request.event.call.tool_name, describe(found)
        log.info("redacted %s from %s (call %s)", summary, tool, request.event.call.call_id)
        notice = types_pb2.Message(
            role=types_pb2.ROLE_USER,
            content=[
                types_pb2.ContentBlock(
                    text=f"{PLUGIN_NAME} redacted {summary} from the output of tool "
                    f"{tool!r}; each [REDACTED:...] placeholder stands for a removed value."
                )
            ],
            source=types_pb2.MessageSource(plugin=types_pb2.PluginSource(name=PLUGIN_NAME)),
        )
        accept = points_pb2.Accept(
            content=points_pb2.ContentReplacement(blocks=blocks), additional_contexts=[notice]
        )
        return _decide(points_pb2.PostToolDecision(accept=accept))


def _redact_block(block: types_pb2.ContentBlock) -> tuple[types_pb2.ContentBlock, Counter[str]]:
    kind = block.WhichOneof("block")
    if kind == "text":
        text, found = redact_text(block.text)
        return types_pb2.ContentBlock(text=text), found
    if kind == "json":
        json_text, found = redact_json(block.json)
        return types_pb2.ContentBlock(json=json_text), found
    return block, Counter()


def _decide(decision: points_pb2.PostToolDecision) -> plugin_pb2.PostToolResponse:
    return plugin_pb2.PostToolResponse(decision=decision)


def _pass() -> plugin_pb2.PostToolResponse:
    decision = points_pb2.PostToolDecision()
    getattr(decision, "pass").SetInParent()  # `pass` is a Python keyword
    return _decide(decision)


def _refuse_live_socket(address: str) -> None:
    """Fails if address is a Unix socket that a server answers on.

    gRPC replaces an existing socket file when it binds, which recovers from a stale file but
    would also silently take the address of a live server.
    """
    path = address.removeprefix("unix:").removeprefix("//")
    if path == address:
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(path)
        except OSError:
            return
    raise RuntimeError(f"{path} is in use by another server")


def serve(address: str) -> None:
    """Serves the plugin and the health service on address until SIGTERM or SIGINT."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    plugin_pb2_grpc.add_HookPluginServicer_to_server(RedactSecrets(), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for service in ("", plugin_pb2.DESCRIPTOR.services_by_name["HookPlugin"].full_name):
        health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    _refuse_live_socket(address)
    server.add_insecure_port(address)

    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    server.start()
    log.info("serving on %s", address)
    stopping.wait()

    log.info("stopping")
    health_servicer.enter_graceful_shutdown()
    server.stop(GRACE_SECONDS).wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="redact_secrets.py", description="hookd post-tool plugin that redacts secrets"
    )
    parser.add_argument(
        "--listen",
        metavar="ADDRESS",
        help=f"gRPC address to serve on, unix:PATH or HOST:PORT (default: unix:${SOCKET_ENV})",
    )
    args = parser.parse_args(argv)
    address = args.listen or (f"unix:{path}" if (path := os.environ.get(SOCKET_ENV)) else None)
    if address is None:
        parser.error(f"no address: pass --listen or set {SOCKET_ENV}")

    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s", stream=sys.stderr)
    try:
        serve(address)
    except RuntimeError as err:  # the address is taken or cannot be bound
        log.error("%s", err)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
