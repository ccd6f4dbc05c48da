#!/usr/bin/env bash
# Packaging of the Go SDK, as a plugin author outside this repository gets it:
#   1. sdk-go's files (what `go get` would fetch) are copied to a temp dir and built with
#      `go build ./...` from an EMPTY module cache (GOMODCACHE in the temp dir, GOFLAGS=-mod=mod,
#      GOPROXY as configured), so every dependency must resolve from go.mod/go.sum alone;
#   2. the `hookd init plugin --lang go` template (daemon/templates/plugin-go) is scaffolded by
#      hand-substitution, as the command does, against that copy, and its tests run with
#      -mod=readonly (its go.sum must be complete as shipped): one calls the plugin with the
#      harness, one runs it under the real daemon (daemon/dist, via $HOOKD_DAEMON).
# The empty-cache download is skipped, and the machine's module cache used, while a stamp of the
# go.mod/go.sum files and the Go version says it already passed: only those decide resolution.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
die() {
  echo "test-go-packaging: $*" >&2
  exit 1
}
[[ -f daemon/dist/cli.js ]] || die "daemon/dist/cli.js is missing; run npm run build first"

template=daemon/templates/plugin-go
stamp=test/.tmp/go-packaging.sha256
want=$({ go version; cat sdk-go/go.mod sdk-go/go.sum "$template/go.mod" "$template/go.sum"; } | sha256sum | cut -d' ' -f1)

work=$(mktemp -d "${TMPDIR:-/tmp}/hookd-go-packaging.XXXXXX")
cleanup() {
  # Module cache files are read-only; go clean removes them properly.
  if [[ -d "$work/modcache" ]]; then GOMODCACHE=$work/modcache go clean -modcache 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

export GOPROXY=${GOPROXY:-$(go env GOPROXY)}
if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
  export GOMODCACHE=$work/modcache
  echo "test-go-packaging: building from an empty module cache ($GOMODCACHE)"
fi

# 1. The module as published: its tracked files (plus the generated code, which is tracked).
mkdir -p "$work/sdk-go"
git ls-files -z sdk-go | sed -z 's|^sdk-go/||' | (cd sdk-go && xargs -0 cp --parents -t "$work/sdk-go")
(cd "$work/sdk-go" && GOFLAGS=-mod=mod go build ./...) || die "go build ./... of sdk-go failed"

# 2. The scaffold, substituted the way `hookd init plugin --lang go my-plugin` does.
plugin=$work/my-plugin
mkdir -p "$plugin"
substitute() { sed -e 's|{{name}}|my-plugin|g' -e 's|{{name_snake}}|my_plugin|g' -e 's|{{name_pascal}}|MyPlugin|g' -e "s|{{sdk_path}}|$work/sdk-go|g"; }
for file in "$template"/*; do
  target=$(basename "$file" | substitute)
  substitute <"$file" >"$plugin/$target"
done
if grep -rn '{{' "$plugin"; then die "placeholders left in the scaffold"; fi
(
  cd "$plugin"
  export GOFLAGS=-mod=readonly HOOKD_DAEMON=$root/daemon/dist/cli.js
  go vet ./... && go test -count=1 ./... && go build -o bin/my-plugin .
) || die "the scaffolded Go plugin does not build and pass its tests"

mkdir -p "$(dirname "$stamp")"
echo "$want" >"$stamp"
echo "test-go-packaging: ok (sdk-go built from a clean module cache; scaffolded plugin tested under the daemon)"
