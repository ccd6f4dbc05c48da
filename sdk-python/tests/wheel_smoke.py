"""Run by scripts/test-python-wheel.sh with the python of a fresh venv that has only the built
wheel (and its dependencies): the README's plugin, extracted from sdk-python/README.md, runs as a
managed plugin of a real daemon and denies and redacts. Not collected by pytest (no test_ name)."""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import hookd_plugin
from hookd_plugin import Deny
from hookd_plugin.testing import decision_of, events, run_daemon

README = Path(__file__).resolve().parent.parent / "README.md"
TOKEN = "ghp_" + "x1" * 18


def readme_plugin() -> str:
    """The first python block of the README: the plugin it shows."""
    found = re.search(r"```python\n(.*?)```", README.read_text(), re.DOTALL)
    assert found is not None, f"no python block in {README}"
    return found.group(1)


def main() -> int:
    where = Path(hookd_plugin.__file__).resolve()
    assert Path(sys.prefix).resolve() in where.parents, f"hookd_plugin came from {where}"
    with tempfile.TemporaryDirectory() as directory:
        plugin = Path(directory) / "guard.py"
        plugin.write_text(readme_plugin())
        with run_daemon(command=[sys.executable, str(plugin)]) as daemon:
            denied = daemon.pre_tool(events.pre_tool("Bash", {"command": "rm -rf / --no-preserve-root"}))
            assert decision_of(denied) == Deny("guard refuses 'rm -rf / --no-preserve-root'"), denied
            redacted = daemon.post_tool(events.post_tool(
                "Bash", result=events.success("out", [f"token {TOKEN}"])))
            assert [b.text for b in redacted.result.success.content] == ["token [REDACTED]"], redacted
    print(f"wheel smoke: the README plugin denied and redacted with {where.parent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
