#!/bin/bash
# Boots real systemd in systemd-nspawn (the host's /usr, a volatile root) with deploy/hookd.socket
# and deploy/hookd.service (plus a drop-in that runs the built daemon from the work tree), runs
# check.sh inside as a unit, and leaves its report in OUT/out/report.txt.
# usage: run.sh OUT   (needs root and the systemd-container package)
set -euo pipefail
OUT=$1
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
HERE=$ROOT/test/ops/nspawn
units=$OUT/units
mkdir -p "$units/hookd.service.d" "$units/sockets.target.wants" "$units/multi-user.target.wants" "$OUT/out"
cp "$ROOT/deploy/hookd.service" "$ROOT/deploy/hookd.socket" "$HERE/hookd-check.service" "$units/"
cp "$HERE/test.conf" "$units/hookd.service.d/test.conf"
ln -sf ../hookd.socket "$units/sockets.target.wants/hookd.socket"
ln -sf ../hookd-check.service "$units/multi-user.target.wants/hookd-check.service"
# --register=no --keep-unit: the host runs no systemd (no system bus) to register with.
exec timeout 150 systemd-nspawn --quiet -D / --volatile=yes --register=no --keep-unit \
  --bind-ro="$ROOT:/opt/hookd" \
  --bind-ro="$units:/etc/systemd/system" \
  --bind-ro="$HERE/hookd.yaml:/etc/hookd/hookd.yaml" \
  --bind-ro="$ROOT/deploy/hookd.sysusers.conf:/etc/sysusers.d/hookd.conf" \
  --bind="$OUT/out:/out" \
  --console=pipe -b systemd.unit=multi-user.target systemd.firstboot=off </dev/null
