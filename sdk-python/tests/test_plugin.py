"""The manifest derived from the handlers, and definitions refused before anything is served."""

from __future__ import annotations

import pytest

from hookd_plugin import Context, Plugin, PluginError, passes, pb
from hookd_plugin.decisions import PreToolAnswer


def test_the_manifest_lists_the_handled_points() -> None:
    plugin = Plugin("p", version="1.2.3", side_effect_free=True, transport="unary")

    @plugin.post_tool(priority=7, failure_policy="fail-open", deadline_ms=250)
    def post(event: pb.PostToolEvent, ctx: Context) -> PreToolAnswer:
        return passes()

    @plugin.pre_tool(tools=["Bash", "mcp__*"])
    async def pre(event: pb.PreToolEvent, ctx: Context) -> PreToolAnswer:
        return passes()

    @plugin.agent_event(tools=["Pre*"])
    def observe(event: pb.AgentEventEvent, ctx: Context) -> None:
        return None

    manifest = plugin.manifest()
    assert (manifest.name, manifest.version, manifest.side_effect_free) == ("p", "1.2.3", True)
    assert manifest.transport == pb.plugin.PLUGIN_TRANSPORT_UNARY
    pre_tool, post_tool, agent_event = manifest.subscriptions
    assert (pre_tool.point, list(pre_tool.tools)) == (pb.types.POINT_PRE_TOOL, ["Bash", "mcp__*"])
    assert (post_tool.point, post_tool.priority, post_tool.deadline_ms, post_tool.failure_policy) \
        == (pb.types.POINT_POST_TOOL, 7, 250, pb.types.FAILURE_POLICY_FAIL_OPEN)
    assert agent_event.point == pb.types.POINT_AGENT_EVENT
    assert plugin.handlers["pre-tool"].is_async and not plugin.handlers["post-tool"].is_async


def test_an_empty_plugin_is_refused() -> None:
    with pytest.raises(PluginError, match="no handlers"):
        Plugin("empty").manifest()


def test_bad_definitions_are_refused_naming_the_point() -> None:
    plugin = Plugin("p")
    plugin.pre_tool(lambda event, ctx: passes())
    with pytest.raises(PluginError, match="p pre-tool: a handler is registered already"):
        plugin.pre_tool(lambda event, ctx: passes())
    with pytest.raises(PluginError, match="pre-step: this point takes no matchers"):
        plugin.pre_step(tools=["Bash"])(lambda event, ctx: passes())
    with pytest.raises(PluginError, match="failure_policy"):
        plugin.post_tool(failure_policy="closed")(lambda e, c: passes())  # type: ignore[call-overload]
    with pytest.raises(PluginError, match="name"):
        Plugin("")
