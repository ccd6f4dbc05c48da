#!/usr/bin/env bash
# The example plugins' own test suites, in their own languages (run after setup-polyglot.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
(cd hooks-examples/go && go test ./...)
.venv/bin/python -m pytest -q hooks-examples/python/tests
