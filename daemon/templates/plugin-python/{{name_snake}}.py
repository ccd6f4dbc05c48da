"""{{name}}: a hookd plugin written with the Python SDK (hookd_plugin).

It denies shell commands that would delete the filesystem root and passes everything else. Edit
the handler, add others (@plugin.post_tool, @plugin.pre_step, ...), and run the tests.

Run: ``python {{name_snake}}.py [--listen ADDRESS]``; without ``--listen`` it serves on the Unix
socket in ``$HOOKD_PLUGIN_SOCKET``, which is how hookd starts a managed plugin.
"""

import sys

from hookd_plugin import Context, Plugin, PreToolAnswer, arguments, deny, main, passes, pb

plugin = Plugin("{{name}}", version="0.1.0")


@plugin.pre_tool(tools=["Bash"], failure_policy="fail-closed")
def check_command(event: pb.PreToolEvent, ctx: Context) -> PreToolAnswer:
    command = str(arguments(event.call).get("command", ""))
    if "rm -rf /" in command:
        return deny(f"{ctx.plugin_name}: refusing to delete the filesystem root")
    return passes()


if __name__ == "__main__":
    sys.exit(main(plugin))
