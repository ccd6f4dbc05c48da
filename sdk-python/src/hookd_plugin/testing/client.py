"""A small HookHost client for tests: the evaluate calls, as an agent that keeps its own loop
makes them, identified by the ``x-hookd-agent`` header."""

from __future__ import annotations

from typing import TypeVar

import grpc
from google.protobuf.message import Message as ProtoMessage

from hookd_plugin._gen.hookd.v1 import admin_pb2 as admin
from hookd_plugin._gen.hookd.v1 import host_pb2 as host
from hookd_plugin._gen.hookd.v1 import points_pb2 as ev

R = TypeVar("R", bound=ProtoMessage)


def _serialize(message: ProtoMessage) -> bytes:
    return message.SerializeToString()


class HostClient:
    def __init__(self, target: str, agent_id: str, *, timeout: float = 30.0) -> None:
        self.target = target
        self.agent_id = agent_id
        self.timeout = timeout
        self.channel = grpc.insecure_channel(target)

    def close(self) -> None:
        self.channel.close()

    def _call(self, service: str, method: str, request: ProtoMessage, response: type[R]) -> R:
        rpc = self.channel.unary_unary(
            f"/hookd.v1.{service}/{method}",
            request_serializer=_serialize,
            response_deserializer=response.FromString,
        )
        answer = rpc(request, timeout=self.timeout, metadata=(("x-hookd-agent", self.agent_id),))
        assert isinstance(answer, response)
        return answer

    def _evaluate(self, method: str, request: ProtoMessage, response: type[R]) -> R:
        return self._call("HookHost", method, request, response)

    def pre_tool(self, event: ev.PreToolEvent, *,
                 agent_resolves_ask: bool = False) -> host.EvaluatePreToolResponse:
        request = host.EvaluatePreToolRequest(event=event, agent_resolves_ask=agent_resolves_ask)
        return self._evaluate("EvaluatePreTool", request, host.EvaluatePreToolResponse)

    def post_tool(self, event: ev.PostToolEvent) -> host.EvaluatePostToolResponse:
        return self._evaluate("EvaluatePostTool", host.EvaluatePostToolRequest(event=event),
                              host.EvaluatePostToolResponse)

    def pre_step(self, event: ev.PreStepEvent) -> host.EvaluatePreStepResponse:
        return self._evaluate("EvaluatePreStep", host.EvaluatePreStepRequest(event=event),
                              host.EvaluatePreStepResponse)

    def rewrite(self, event: ev.RewriteEvent) -> host.EvaluateRewriteResponse:
        return self._evaluate("EvaluateRewrite", host.EvaluateRewriteRequest(event=event),
                              host.EvaluateRewriteResponse)

    def approval(self, event: ev.ApprovalEvent) -> host.EvaluateApprovalResponse:
        return self._evaluate("EvaluateApproval", host.EvaluateApprovalRequest(event=event),
                              host.EvaluateApprovalResponse)

    def turn_stopping(self, event: ev.TurnStoppingEvent) -> host.EvaluateTurnStoppingResponse:
        return self._evaluate("EvaluateTurnStopping",
                              host.EvaluateTurnStoppingRequest(event=event),
                              host.EvaluateTurnStoppingResponse)

    def session_start(self, event: ev.SessionStartEvent) -> host.EvaluateSessionStartResponse:
        return self._evaluate("EvaluateSessionStart",
                              host.EvaluateSessionStartRequest(event=event),
                              host.EvaluateSessionStartResponse)

    def session_end(self, event: ev.SessionEndEvent) -> host.EvaluateSessionEndResponse:
        return self._evaluate("EvaluateSessionEnd", host.EvaluateSessionEndRequest(event=event),
                              host.EvaluateSessionEndResponse)

    def turn_end(self, event: ev.TurnEndEvent) -> host.EvaluateTurnEndResponse:
        return self._evaluate("EvaluateTurnEnd", host.EvaluateTurnEndRequest(event=event),
                              host.EvaluateTurnEndResponse)

    def agent_event(self, event: ev.AgentEventEvent) -> host.EvaluateAgentEventResponse:
        return self._evaluate("EvaluateAgentEvent", host.EvaluateAgentEventRequest(event=event),
                              host.EvaluateAgentEventResponse)

    def tool_result(self, event: ev.ToolResultEvent) -> host.EvaluateToolResultResponse:
        return self._evaluate("EvaluateToolResult", host.EvaluateToolResultRequest(event=event),
                              host.EvaluateToolResultResponse)

    def list_plugins(self) -> admin.ListPluginsResponse:
        """HookAdmin.ListPlugins (the daemon's socket answers it too): transport, status."""
        return self._call("HookAdmin", "ListPlugins", admin.ListPluginsRequest(),
                          admin.ListPluginsResponse)
