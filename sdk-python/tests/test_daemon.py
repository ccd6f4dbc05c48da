"""run_daemon: the plugin against a real `hookd serve` (daemon/dist, built by `npm run build`),
served in this process or started by the daemon as a managed plugin, over each transport."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hookd_plugin import (
    Context, Plugin, TransportPreference, accept, arguments, deny, passes, pb,
)
from hookd_plugin.decisions import PostToolAnswer, PreToolAnswer
from hookd_plugin.testing import decision_of, events, run_daemon

INT64_MAX = 2**63 - 1
MINIMAL = Path(__file__).parent / "plugins" / "minimal.py"


def guard_plugin(transport: TransportPreference) -> Plugin:
    plugin = Plugin("guard-py", transport=transport)

    @plugin.pre_tool(tools=["Bash"])
    def pre_tool(event: pb.PreToolEvent, ctx: Context) -> PreToolAnswer:
        args = arguments(event.call)
        if args.get("n") != INT64_MAX:
            return deny(f"n arrived as {args.get('n')!r}")
        return deny("no rm") if "rm" in str(args.get("command")) else passes()

    @plugin.post_tool
    async def post_tool(event: pb.PostToolEvent, ctx: Context) -> PostToolAnswer:
        return accept(content="[redacted]", contexts=["redacted by guard-py"])

    return plugin


@pytest.mark.parametrize(("transport", "expected"), [("auto", "stream"), ("unary", "unary")])
def test_a_plugin_object_against_the_daemon(transport: TransportPreference, expected: str) -> None:
    with run_daemon(guard_plugin(transport)) as daemon:
        denied = daemon.pre_tool(events.pre_tool("Bash", {"command": "rm -rf /", "n": INT64_MAX}))
        assert decision_of(denied) == deny("no rm")
        assert denied.trace.decided_by == "guard-py"
        allowed = daemon.pre_tool(events.pre_tool("Bash", {"command": "ls", "n": INT64_MAX}))
        assert allowed.decision.WhichOneof("decision") == "allow"
        assert allowed.trace.decided_by == "default"
        redacted = daemon.post_tool(events.post_tool("Bash", result=events.success("secret")))
        assert [b.text for b in redacted.result.success.content] == ["[redacted]"]
        [context] = redacted.result.contexts
        assert context.source.plugin.name == "guard-py"
        [status] = daemon.list_plugins().plugins
        assert (status.name, status.transport) == ("guard-py", expected)


def test_a_managed_plugin_command() -> None:
    src = str(Path(__file__).parent.parent / "src")
    with run_daemon(command=[sys.executable, str(MINIMAL)], env={"PYTHONPATH": src}) as daemon:
        answer = daemon.pre_tool(events.pre_tool("Bash", {"command": "ls"}))
        assert answer.decision.WhichOneof("decision") == "allow"
        assert answer.trace.decided_by == "default"
        [status] = daemon.list_plugins().plugins
        assert status.name == "minimal"
