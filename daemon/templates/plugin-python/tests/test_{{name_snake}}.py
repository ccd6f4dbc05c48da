"""Tests of {{name}} with the SDK's harness: the handler on typed events, then the plugin against a
real hookd daemon on a temporary socket."""

import os

from hookd_plugin import Deny, deny, passes, pb
from hookd_plugin.testing import Harness, decision_of, events, run_daemon

from {{name_snake}} import plugin

harness = Harness(plugin)
# The daemon the harness starts: $HOOKD_DAEMON, else the hookd checkout this plugin was made from.
DAEMON = os.environ.get("HOOKD_DAEMON", "node {{sdk_path}}/../daemon/dist/cli.js")


def test_the_manifest_subscribes_to_pre_tool() -> None:
    [subscription] = harness.manifest().subscriptions
    assert subscription.point == pb.types.POINT_PRE_TOOL
    assert list(subscription.tools) == ["Bash"]


def test_denies_deleting_the_root() -> None:
    answer = harness.pre_tool(events.pre_tool("Bash", {"command": "rm -rf / --no-preserve-root"}))
    assert answer == deny("{{name}}: refusing to delete the filesystem root")


def test_passes_other_commands() -> None:
    assert harness.pre_tool(events.pre_tool("Bash", {"command": "ls -la"})) == passes()


def test_through_a_real_daemon() -> None:
    with run_daemon(plugin, daemon=DAEMON) as daemon:
        answer = daemon.pre_tool(events.pre_tool("Bash", {"command": "rm -rf /"}))
        assert isinstance(decision_of(answer), Deny)
        assert answer.trace.decided_by == "{{name}}"
        allowed = daemon.pre_tool(events.pre_tool("Bash", {"command": "ls"}))
        assert allowed.decision.WhichOneof("decision") == "allow"
