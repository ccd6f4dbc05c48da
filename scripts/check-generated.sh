#!/usr/bin/env bash
# Fails when regenerating the protobuf code changes anything (generated code must match proto/),
# or when the config reference and JSON Schema no longer match the config schema (run after a build).
set -euo pipefail
cd "$(dirname "$0")/.."
npx buf generate
if [ -x scripts/gen-polyglot.sh ]; then bash scripts/gen-polyglot.sh >/dev/null; fi
changes=$(git status --porcelain -- sdk/src/gen hooks-examples/go sdk-python/src/hookd_plugin/_gen sdk-go/gen)
if [ -n "$changes" ]; then
  echo "generated code is stale; run 'npm run generate' and commit the result:" >&2
  echo "$changes" >&2
  git --no-pager diff --stat -- sdk/src/gen hooks-examples/go sdk-python/src/hookd_plugin/_gen sdk-go/gen >&2
  exit 1
fi
node scripts/gen-config-reference.mjs --check
