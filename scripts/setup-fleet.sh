#!/usr/bin/env bash
# Installs the standard load balancers the fleet tests (test/fleet/) put in front of several
# hookd instances: nginx (grpc_pass, hash ... consistent) and HAProxy (gRPC health checks), both
# from Debian's packages, and grpc-health-probe (below). Nothing is installed when the binaries are
# already there; the packages' own services are never started (the tests run each balancer with
# its own prefix and config).
set -euo pipefail

missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
# grpc-health-probe (the gRPC health client Kubernetes readiness probes use): HAProxy's
# external check runs it against each instance (test/fleet/health-haproxy.test.ts). Built from the
# Go module proxy into test/fleet/bin, skipped while the stamp (Go version, probe version) matches.
probe_version=v0.4.62
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
probe_dir=$root/test/fleet/bin
probe_stamp="$(go version 2>/dev/null) grpc-health-probe@$probe_version"
if [[ ! -x "$probe_dir/grpc-health-probe" || "$(cat "$probe_dir/.stamp" 2>/dev/null)" != "$probe_stamp" ]]; then
  command -v go >/dev/null || {
    echo "setup-fleet: go not found; grpc-health-probe is built with Go (https://go.dev/doc/install)" >&2
    exit 1
  }
  echo "setup-fleet: building grpc-health-probe@$probe_version" >&2
  mkdir -p "$probe_dir"
  GOBIN=$probe_dir go install "github.com/grpc-ecosystem/grpc-health-probe@$probe_version" >&2
  echo "$probe_stamp" >"$probe_dir/.stamp"
fi

[ ${#missing[@]} -eq 0 ] && exit 0

command -v apt-get >/dev/null || {
  echo "setup-fleet: ${missing[*]} not installed and no apt-get; install them with your package manager" >&2
  exit 1
}
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "setup-fleet: installing ${missing[*]} from Debian's packages" >&2
# policy-rc.d exit 101 keeps the packages from starting their system services on install.
policy=/usr/sbin/policy-rc.d
created_policy=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy" && created_policy=1
fi
trap '[ -n "$created_policy" ] && $sudo rm -f "$policy"' EXIT
$sudo apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
