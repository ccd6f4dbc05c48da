#!/bin/bash
# What the real-systemd lane (test/ops/nspawn.test.ts) needs on this machine: systemd and
# systemd-nspawn (Debian's systemd-container), installed with apt when missing. Needs root.
set -euo pipefail
missing=()
command -v systemd-nspawn >/dev/null || missing+=(systemd-container)
[ -x /lib/systemd/systemd ] || missing+=(systemd)
command -v setpriv >/dev/null || missing+=(util-linux)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-nspawn: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
