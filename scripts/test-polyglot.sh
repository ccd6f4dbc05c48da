#!/usr/bin/env bash
# The polyglot test suites, in their own languages (run after setup-polyglot.sh and npm run build):
# the Go SDK (unit tests, its harness, the README plugin under a real daemon), the Go examples,
# the Go SDK's packaging (a clean module cache, the scaffold template); the Python example and the
# Python SDK's: its tests, mypy --strict over its package, and its wheel in a fresh venv.
# The Go and the Python suites share nothing, so they run at the same time; each one's output is
# printed whole once both are done, and the script fails when either did.
set -euo pipefail
cd "$(dirname "$0")/.."

go_suites() {
  set -e
  (cd sdk-go && go vet ./... && go test ./...)
  (cd hooks-examples/go && go vet ./... && go test ./...)
  bash scripts/test-go-packaging.sh
}

python_suites() {
  set -e
  .venv/bin/python -m pytest -q hooks-examples/python/tests
  # The example is typed against the SDK's public API, as a user's plugin would be.
  (cd hooks-examples/python && ../../.venv/bin/python -m mypy --strict redact_secrets.py redaction.py)
  (cd sdk-python && ../.venv/bin/python -m mypy && ../.venv/bin/python -m pytest -q tests)
  bash scripts/test-python-wheel.sh
}

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
(go_suites) >"$logs/go" 2>&1 &
go_pid=$!
(python_suites) >"$logs/python" 2>&1 &
python_pid=$!
go_status=0
wait "$go_pid" || go_status=$?
python_status=0
wait "$python_pid" || python_status=$?
echo "== Go: exit $go_status"
cat "$logs/go"
echo "== Python: exit $python_status"
cat "$logs/python"
[ "$go_status" -eq 0 ] && [ "$python_status" -eq 0 ]
