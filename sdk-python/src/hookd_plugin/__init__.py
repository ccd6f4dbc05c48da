"""hookd-plugin: write hookd hook plugins in Python.

    from hookd_plugin import Plugin, deny, passes, serve

    plugin = Plugin("no-force-push")

    @plugin.pre_tool(tools=["Bash"])
    def check(event, ctx):
        ...
        return passes()

    serve(plugin)  # on $HOOKD_PLUGIN_SOCKET, the way hookd starts a managed plugin
"""

from hookd_plugin import pb
from hookd_plugin.context import Context
from hookd_plugin.decisions import (
    Abstain, Accept, Allow, ApprovalAnswer, Approve, Ask, Block, Decision, Deny, Enter,
    ExecuteAnswer, Fail, GuardAnswer, Inject, Pass, Patch, PostToolAnswer, PreStepAnswer,
    PreToolAnswer, Reject, Replace, RewriteAnswer, SessionStartAnswer, Steer, Succeed,
    TurnStoppingAnswer, abstain, accept, allow, approve, ask, block, deny, enter, fail, inject,
    pass_, passes, patch, reject, replace, steer, succeed,
)
from hookd_plugin.json_values import JsonObject, JsonValue, arguments, dump_json, parse_json
from hookd_plugin.messages import json_block, message, message_text, text
from hookd_plugin.plugin import FailurePolicyName, Plugin, PluginError, TransportPreference
from hookd_plugin.points import PointName
from hookd_plugin.serve import HEALTH_SERVICES, SOCKET_ENV, PluginServer, main, serve, serve_async

__version__ = "0.2.0"

__all__ = [
    "HEALTH_SERVICES", "SOCKET_ENV", "Abstain", "Accept", "Allow", "ApprovalAnswer", "Approve",
    "Ask", "Block", "Context", "Decision", "Deny", "Enter", "ExecuteAnswer", "Fail", "GuardAnswer",
    "FailurePolicyName", "Inject", "JsonObject", "JsonValue", "Pass", "Patch", "Plugin", "PluginError", "PluginServer",
    "PointName", "PostToolAnswer", "PreStepAnswer", "PreToolAnswer", "Reject", "Replace",
    "RewriteAnswer", "SessionStartAnswer", "Steer", "Succeed", "TransportPreference", "TurnStoppingAnswer", "abstain",
    "accept", "allow", "approve", "arguments", "ask", "block", "deny", "dump_json", "enter", "fail",
    "inject", "json_block", "main", "message", "message_text", "parse_json", "pass_", "passes",
    "patch", "pb", "reject", "replace", "serve", "serve_async", "steer", "succeed", "text",
]
