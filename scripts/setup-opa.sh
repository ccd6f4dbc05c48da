#!/usr/bin/env bash
# Installs the real OPA the Rego tests build their Wasm bundles with, at a pinned version, from
# the Go module proxy into a cache reused between runs (and between clones):
#   ${HOOKD_OPA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-opa}/opa-<version>/bin/opa
# GOPATH, the module cache and the build cache all live under that cache, so a fresh machine
# needs only Go. A directory is complete only when its stamp file exists, so an interrupted
# install is redone; a lock keeps two concurrent runs from installing into the same place.
# Prints the opa binary's path.
set -euo pipefail

OPA_VERSION=v1.22.4

cache="${HOOKD_OPA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-opa}"
dir="$cache/opa-$OPA_VERSION"
stamp="$dir/.installed"

if [ ! -f "$stamp" ]; then
  command -v go >/dev/null || { echo "setup-opa: Go is needed to install OPA (go install)" >&2; exit 1; }
  mkdir -p "$cache"
  exec 9>"$cache/.lock"
  flock 9
  if [ ! -f "$stamp" ]; then
    echo "setup-opa: installing github.com/open-policy-agent/opa@$OPA_VERSION into $dir" >&2
    staging="$(mktemp -d "$cache/.staging-XXXXXX")"
    trap 'rm -rf "$staging"' EXIT
    # The module and build caches are shared by versions (and kept when an install fails half-way).
    GOPATH="$cache/gopath" GOMODCACHE="$cache/gopath/pkg/mod" GOCACHE="$cache/go-build" \
      GOBIN="$staging/bin" GOFLAGS="-modcacherw -buildvcs=false" GO111MODULE=on \
      go install "github.com/open-policy-agent/opa@$OPA_VERSION" >&2
    [ -x "$staging/bin/opa" ] || { echo "setup-opa: opa missing after go install" >&2; exit 1; }
    rm -rf "$dir"
    mv "$staging" "$dir"
    trap - EXIT
    touch "$stamp"
  fi
fi
echo "$dir/bin/opa"
