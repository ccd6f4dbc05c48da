"""A minimal plugin for the managed-mode tests: serves on $HOOKD_PLUGIN_SOCKET."""

import sys

from hookd_plugin import Context, Plugin, main, passes, pb
from hookd_plugin.decisions import PreToolAnswer

plugin = Plugin("minimal")


@plugin.pre_tool
def pre_tool(event: pb.PreToolEvent, ctx: Context) -> PreToolAnswer:
    return passes()


if __name__ == "__main__":
    sys.exit(main(plugin))
