#!/usr/bin/env bash
# Prepares the Python and Go example plugins (hooks-examples/python, hooks-examples/go):
#   - .venv at the repository root with sdk-python/requirements-dev.txt installed (which includes
#     hooks-examples/python/requirements-dev.txt); skipped while a stamp of the requirement files
#     and the interpreter still matches; the Python SDK (sdk-python) installed into it editable,
#     so every .venv python (the examples, the conformance plugins) imports hookd_plugin from
#     the working tree;
#   - the Go SDK's and the Go example module's dependencies downloaded, and the examples' binaries
#     built into hooks-examples/go/bin.
# Idempotent, quiet and quick when already done. Needs python3 (3.11+, with venv) and go; reaches
# only PyPI and the Go module proxy.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

die() {
  echo "setup-polyglot: $*" >&2
  exit 1
}

command -v python3 >/dev/null || die "python3 not found; install Python 3.11 or later"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
  die "$(python3 -V 2>&1) is too old; the Python example needs 3.11 or later"
command -v go >/dev/null || die "go not found; install Go (https://go.dev/doc/install), 1.21 or later"

# Python: (re)create the venv when it is missing or its interpreter is gone, then install the
# pinned requirements unless the stamp says they are already there.
venv=.venv
requirements=(hooks-examples/python/requirements.txt hooks-examples/python/requirements-dev.txt
  sdk-python/requirements-dev.txt)
stamp=$venv/.polyglot-requirements.sha256
if ! "$venv/bin/python" -c '' 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv" ||
    die "python3 -m venv failed (on Debian or Ubuntu: apt-get install python3-venv)"
fi
want=$({ "$venv/bin/python" -VV; cat "${requirements[@]}" sdk-python/pyproject.toml; } | sha256sum | cut -d' ' -f1)
if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]] ||
  ! "$venv/bin/python" -c 'import hookd_plugin' 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r sdk-python/requirements-dev.txt || die "pip install failed"
  # --no-build-isolation: setuptools is pinned in requirements.txt; nothing else is fetched.
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
    --no-build-isolation -e sdk-python || die "installing sdk-python failed"
  echo "$want" >"$stamp"
fi

# Go: fetch the module's dependencies and build every command into bin/ (Go's build cache makes
# a rebuild of unchanged sources cheap).
(cd sdk-go && go mod download) || die "downloading the Go SDK's dependencies failed"
(
  cd hooks-examples/go
  go mod download
  go build -o bin/ ./cmd/...
) || die "building the Go examples failed"

echo "setup-polyglot: ready (.venv, hooks-examples/go/bin)"
