"""Testing hookd plugins: call handlers with typed events (Harness), and run a plugin against a
real daemon on a temporary socket (run_daemon).

    from hookd_plugin import deny
    from hookd_plugin.testing import Harness, decision_of, events, run_daemon

    def test_denies_rm() -> None:
        assert Harness(plugin).pre_tool(events.pre_tool("Bash", {"command": "rm -rf /"})) == deny(...)

    def test_through_the_daemon() -> None:
        with run_daemon(plugin) as daemon:
            assert decision_of(daemon.pre_tool(events.pre_tool("Bash", {...}))) == deny(...)
"""

from hookd_plugin.invoke import RawAnswer
from hookd_plugin.testing import events
from hookd_plugin.testing.client import HostClient
from hookd_plugin.testing.daemon import DAEMON_ENV, Daemon, DaemonError, daemon_command, run_daemon
from hookd_plugin.testing.decode import decision_of
from hookd_plugin.testing.harness import Harness, NotHandled

__all__ = [
    "DAEMON_ENV", "Daemon", "DaemonError", "Harness", "HostClient", "NotHandled", "RawAnswer",
    "daemon_command", "decision_of", "events", "run_daemon",
]
