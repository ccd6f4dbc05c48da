#!/usr/bin/env bash
# Packaging check of the Python SDK: builds its wheel (`python -m build`), installs it into a
# fresh venv that has nothing else of this repository, and runs the README's plugin against a real
# daemon from there (sdk-python/tests/wheel_smoke.py). The venv is made once per interpreter and
# SDK dependency set (a stamp; its pip installs from PyPI); the wheel is rebuilt and reinstalled
# every run, so what is tested is always the current source.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

python=.venv/bin/python
venv=test/.tmp/wheel-venv
out=test/.tmp/wheel
rm -rf "$out" sdk-python/build
if ! log=$("$python" -m build --wheel --no-isolation --outdir "$out" sdk-python 2>&1); then
  echo "$log" >&2
  exit 1
fi
wheel=$(ls "$out"/hookd_plugin-*.whl)

stamp=$venv/.stamp
want=$({ python3 -VV; grep -A4 '^dependencies' sdk-python/pyproject.toml; } | sha256sum | cut -d' ' -f1)
if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel"
  echo "$want" >"$stamp"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
# From a directory outside the checkout's Python paths: the import must come from the wheel.
(cd "$out" && HOOKD_DAEMON="node $root/daemon/dist/cli.js" "$root/$venv/bin/python" "$root/sdk-python/tests/wheel_smoke.py")
