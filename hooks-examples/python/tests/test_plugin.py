"""The plugin over gRPC: manifest, health, redaction, pass-through and shutdown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hookd.v1 import plugin_pb2, points_pb2, types_pb2
from plugin_process import PLUGIN, RunningPlugin, start_plugin
from redact_secrets import RedactSecrets

AWS_KEY = "AKIAIOSFODNN7EXAMPLE"
PRIVATE_KEY = "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg\n-----END EC PRIVATE KEY-----"


def post_tool(
    *blocks: types_pb2.ContentBlock, value_json: str = "{}"
) -> plugin_pb2.PostToolRequest:
    return plugin_pb2.PostToolRequest(
        event=points_pb2.PostToolEvent(
            session=types_pb2.SessionInfo(session_id="s1", agent_id="agent"),
            call=types_pb2.ToolCall(
                call_id="c1", root_call_id="c1", tool_name="bash", session_id="s1"
            ),
            result=types_pb2.ToolResult(
                success=types_pb2.ToolSuccess(value_json=value_json, content=list(blocks))
            ),
        )
    )


def test_health_is_serving(plugin: RunningPlugin) -> None:
    health = health_pb2_grpc.HealthStub(plugin.channel)
    for service in ("", "hookd.v1.HookPlugin"):
        response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
        assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_describe_returns_the_manifest(plugin: RunningPlugin) -> None:
    manifest = plugin.stub.Describe(
        plugin_pb2.DescribeRequest(daemon_version="test"), timeout=5
    ).manifest
    assert manifest.name == "redact-secrets"
    assert manifest.side_effect_free
    [subscription] = manifest.subscriptions
    assert subscription.point == types_pb2.POINT_POST_TOOL
    assert list(subscription.tools) == []
    assert subscription.priority == 100
    assert subscription.failure_policy == types_pb2.FAILURE_POLICY_FAIL_OPEN


def test_redacts_secrets_and_says_so(plugin: RunningPlugin) -> None:
    image = types_pb2.ContentBlock(image=types_pb2.ImageRef(uri="file:///tmp/a.png"))
    request = post_tool(
        types_pb2.ContentBlock(text=f"aws_access_key_id {AWS_KEY}\n{PRIVATE_KEY}\ndone"),
        types_pb2.ContentBlock(json='{"user": "ann", "password": "hunter2"}'),
        image,
    )

    decision = plugin.stub.PostTool(request, timeout=5).decision
    assert decision.WhichOneof("decision") == "accept"
    accept = decision.accept
    assert not accept.HasField("value_json")
    assert (
        accept.content.blocks[0].text
        == "aws_access_key_id [REDACTED:aws-access-key]\n[REDACTED:private-key]\ndone"
    )
    assert accept.content.blocks[1].json == '{"user": "ann", "password": "[REDACTED:credential]"}'
    assert accept.content.blocks[2] == image

    [notice] = accept.additional_contexts
    assert notice.role == types_pb2.ROLE_USER
    assert notice.source.plugin.name == "redact-secrets"
    [text] = [block.text for block in notice.content]
    assert "1 private key, 1 AWS access key and 1 credential" in text
    assert "'bash'" in text


def test_passes_clean_output(plugin: RunningPlugin) -> None:
    request = post_tool(types_pb2.ContentBlock(text="total 0\nREADME.md"), value_json='"total 0"')
    decision = plugin.stub.PostTool(request, timeout=5).decision
    assert decision.WhichOneof("decision") == "pass"


def test_passes_failures(plugin: RunningPlugin) -> None:
    request = post_tool()
    request.event.result.failure.message = f"leaked {AWS_KEY}"
    decision = plugin.stub.PostTool(request, timeout=5).decision
    assert decision.WhichOneof("decision") == "pass"


class ExpiredContext:
    """Just enough of a grpc.ServicerContext for a call whose deadline has passed."""

    def time_remaining(self) -> float:
        return 0.0

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        raise RuntimeError(code, details)


def test_gives_up_at_the_deadline() -> None:
    request = post_tool(types_pb2.ContentBlock(text=AWS_KEY))
    with pytest.raises(RuntimeError) as aborted:
        RedactSecrets().PostTool(request, ExpiredContext())  # type: ignore[arg-type]
    assert aborted.value.args[0] == grpc.StatusCode.DEADLINE_EXCEEDED


def test_sigterm_stops_cleanly(tmp_path: Path) -> None:
    running = start_plugin(tmp_path)
    assert running.terminate() == 0
    assert "stopping" in running.log.read_text()


def test_refuses_a_socket_in_use(plugin: RunningPlugin) -> None:
    second = subprocess.run(
        [sys.executable, str(PLUGIN), "--listen", plugin.address],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert second.returncode == 1
    assert "in use by another server" in second.stderr
    assert plugin.stub.Describe(plugin_pb2.DescribeRequest(), timeout=5).manifest.name
