#!/usr/bin/env bash
# Builds the example Rego policies into OPA bundles compiled to Wasm, with the OPA that
# scripts/setup-opa.sh installs (cached): <out>/protected-paths.tar.gz, <out>/dangerous-shell.tar.gz.
# Usage: build.sh [OUT_DIR] (default: dist/ beside this script).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/dist}"
opa="$(bash "$here/../../scripts/setup-opa.sh")"
mkdir -p "$out"
"$opa" build -t wasm -e hookd/examples/protected_paths/decision -o "$out/protected-paths.tar.gz" "$here/protected-paths"
"$opa" build -t wasm -e hookd/examples/dangerous_shell/decision -o "$out/dangerous-shell.tar.gz" "$here/dangerous-shell"
echo "$out"
