"""The scaffold of `hookd init plugin --lang python NAME` (daemon/templates/plugin-python): copied
with {{name}}, {{name_snake}}, {{name_pascal}} and {{sdk_path}} replaced in file names and
contents, as the command does, its own tests pass as generated (against the built daemon)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "daemon" / "templates" / "plugin-python"


def render(text: str) -> str:
    values = {"name": "my-guard", "name_snake": "my_guard", "name_pascal": "MyGuard",
              "sdk_path": str(REPO / "sdk-python")}
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def test_the_generated_plugin_passes_its_own_tests(tmp_path: Path) -> None:
    target = tmp_path / "my-guard"
    for source in TEMPLATE.rglob("*"):
        if source.is_file():
            destination = target / render(str(source.relative_to(TEMPLATE)))
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_text(render(source.read_text()))
    generated = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
    assert generated == ["README.md", "my_guard.py", "pyproject.toml", "requirements.txt",
                         "tests/test_my_guard.py"]
    assert "{{" not in "".join((target / name).read_text() for name in generated)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
                          cwd=target, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout
    typed = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                            "my_guard.py", "tests/test_my_guard.py"],
                           cwd=target, capture_output=True, text=True, timeout=300)
    assert typed.returncode == 0, typed.stdout + typed.stderr
