"""The plugin through the SDK's test harness (typed events in, typed decisions out), against a
real daemon (run_daemon), and as a process: health, shutdown, a socket in use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hookd_plugin import Accept, passes, pb
from hookd_plugin.testing import Harness, events, run_daemon
from plugin_process import ENV, PLUGIN, RunningPlugin, start_plugin
from redact_secrets import plugin

AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
PRIVATE_KEY = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg\n-----END EC PRIVATE KEY-----"
IMAGE = pb.ContentBlock(image=pb.ImageRef(uri="file:///tmp/a.png"))
harness = Harness(plugin)


def post_tool(*blocks: pb.ContentBlock | str, value: object = None) -> pb.PostToolEvent:
    return events.post_tool("bash", result=events.success(value, list(blocks)))  # type: ignore[arg-type]


def test_the_manifest() -> None:
    manifest = harness.manifest()
    assert (manifest.name, manifest.side_effect_free) == ("redact-secrets", True)
    [subscription] = manifest.subscriptions
    assert subscription.point == pb.types.POINT_POST_TOOL
    assert list(subscription.tools) == []
    assert subscription.priority == 100
    assert subscription.failure_policy == pb.types.FAILURE_POLICY_FAIL_OPEN


def test_redacts_secrets_and_says_so() -> None:
    decision = harness.post_tool(post_tool(
        f"aws_access_key_id {AWS_KEY}\n{PRIVATE_KEY}\ndone",
        pb.ContentBlock(json='{"user": "ann", "password": "hunter2"}'),
        IMAGE,
    ))
    assert isinstance(decision, Accept) and decision.value_json is None
    assert decision.content == (
        pb.ContentBlock(text="aws_access_key_id [REDACTED:aws-access-key]\n[REDACTED:private-key]\ndone"),
        pb.ContentBlock(json='{"user": "ann", "password": "[REDACTED:credential]"}'),
        IMAGE,
    )
    [notice] = decision.additional_contexts
    assert notice.role == pb.types.ROLE_USER
    [text] = [block.text for block in notice.content]
    assert "1 private key, 1 AWS access key and 1 credential" in text
    assert "'bash'" in text


def test_passes_clean_output() -> None:
    assert harness.post_tool(post_tool("total 0\nREADME.md", value="total 0")) == passes()


def test_passes_failures() -> None:
    event = events.post_tool("bash", result=events.failure(f"leaked {AWS_KEY}"))
    assert harness.post_tool(event) == passes()


def test_gives_up_at_the_deadline() -> None:
    with pytest.raises(TimeoutError):
        harness.post_tool(post_tool(AWS_KEY), deadline=0)


def test_redacts_through_a_real_daemon() -> None:
    # The plugin as hookd runs it: a managed process on the daemon's socket, over the stream.
    with run_daemon(command=[sys.executable, str(PLUGIN)], env=ENV, name="redact-secrets") as daemon:
        evaluation = daemon.post_tool(post_tool(f"key {AWS_KEY}"))
        [block] = evaluation.result.success.content
        assert block.text == "key [REDACTED:aws-access-key]"
        assert evaluation.trace.decided_by == "redact-secrets"
        [notice] = evaluation.result.contexts
        assert notice.source.plugin.name == "redact-secrets"
        assert daemon.list_plugins().plugins[0].transport == "stream"


def test_health_is_serving(plugin_process: RunningPlugin) -> None:
    health = health_pb2_grpc.HealthStub(plugin_process.channel)
    for service in ("", "hookd.v1.HookPlugin"):
        response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_sigterm_stops_cleanly(tmp_path: Path) -> None:
    running = start_plugin(tmp_path)
    assert running.terminate() == 0
    assert "stopping" in running.log.read_text()


def test_refuses_a_socket_in_use(plugin_process: RunningPlugin) -> None:
    second = subprocess.run(
        [sys.executable, str(PLUGIN), "--listen", plugin_process.address],
        capture_output=True, text=True, timeout=30, env={**os.environ, **ENV},
    )
    assert second.returncode == 1
    assert "in use by another server" in second.stderr
    health = health_pb2_grpc.HealthStub(plugin_process.channel)
    assert health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5).status == \
        health_pb2.HealthCheckResponse.SERVING
