#!/usr/bin/env bash
# The example plugins' own test suites, in their own languages (run after setup-polyglot.sh), and
# the Python SDK's: its tests, mypy --strict over its package, and its wheel in a fresh venv.
set -euo pipefail
cd "$(dirname "$0")/.."
(cd hooks-examples/go && go test ./...)
.venv/bin/python -m pytest -q hooks-examples/python/tests
# The example is typed against the SDK's public API, as a user's plugin would be.
(cd hooks-examples/python && ../../.venv/bin/python -m mypy --strict redact_secrets.py redaction.py)
(cd sdk-python && ../.venv/bin/python -m mypy && ../.venv/bin/python -m pytest -q tests)
bash scripts/test-python-wheel.sh
