#!/usr/bin/env bash
# The polyglot test suites, in their own languages (run after setup-polyglot.sh and npm run build):
# the Go SDK (unit tests, its harness, the README plugin under a real daemon), the Go examples,
# the Go SDK's packaging (a clean module cache, the scaffold template); the Python example and the
# Python SDK's: its tests, mypy --strict over its package, and its wheel in a fresh venv.
set -euo pipefail
cd "$(dirname "$0")/.."
(cd sdk-go && go vet ./... && go test ./...)
(cd hooks-examples/go && go vet ./... && go test ./...)
bash scripts/test-go-packaging.sh
.venv/bin/python -m pytest -q hooks-examples/python/tests
# The example is typed against the SDK's public API, as a user's plugin would be.
(cd hooks-examples/python && ../../.venv/bin/python -m mypy --strict redact_secrets.py redaction.py)
(cd sdk-python && ../.venv/bin/python -m mypy && ../.venv/bin/python -m pytest -q tests)
bash scripts/test-python-wheel.sh
