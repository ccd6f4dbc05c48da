#!/usr/bin/env bash
# Builds the OpenTelemetry Collector the tracing test exports to (test/otel-collector: the
# upstream otlp receiver and the contrib file exporter at v0.161.0) into
# test/otel-collector/bin/otelcol-hookd. Skipped while a stamp of the module's sources and the Go
# version still matches, so a run after the first costs a hash. Needs go; reaches only the Go
# module proxy. Prints the binary's path.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$root/test/otel-collector
bin=$dir/bin/otelcol-hookd
stamp=$dir/bin/.stamp.sha256

command -v go >/dev/null || {
  echo "setup-otel-collector: go not found; install Go (https://go.dev/doc/install), 1.24 or later" >&2
  exit 1
}
want=$({ go version; cat "$dir/go.mod" "$dir/go.sum" "$dir/main.go"; } | sha256sum | cut -d' ' -f1)
if [[ ! -x "$bin" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
  echo "setup-otel-collector: building otelcol-hookd (first run: a few minutes)" >&2
  (cd "$dir" && go mod download && go build -buildvcs=false -o "$bin.tmp" . && mv "$bin.tmp" "$bin") || {
    echo "setup-otel-collector: building the collector failed" >&2
    exit 1
  }
  echo "$want" >"$stamp"
fi
echo "$bin"
