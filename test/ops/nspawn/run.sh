#!/bin/bash
# Boots real systemd in systemd-nspawn on a throwaway overlay of this machine's root (writes go
# to a tmpfs-backed upper layer, discarded after), with the checkout at /opt/hookd. Inside,
# check.sh installs hookd exactly as the README says (deploy/install.sh), drives hookd.socket and
# hookd.service through systemctl and leaves its report in OUT/out/report.txt.
# usage: run.sh OUT   (root; scripts/setup-nspawn.sh installs systemd-container)
set -euo pipefail
OUT=$1
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
HERE=$ROOT/test/ops/nspawn
mkdir -p "$OUT/out" "$OUT/layer"
# On machines where /run is not a tmpfs, a second nspawn run refuses to start ("Attempted to remove
# disk file system under /run/systemd/nspawn/propagate"): give it a tmpfs of its own.
mkdir -p /run/systemd/nspawn
mountpoint -q /run/systemd/nspawn || mount -t tmpfs tmpfs /run/systemd/nspawn
# The overlay's upper layer on a tmpfs: nothing the container writes reaches this machine's disk.
mount -t tmpfs tmpfs "$OUT/layer"
mkdir -p "$OUT/layer/upper" "$OUT/layer/work" "$OUT/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$OUT/layer/upper,workdir=$OUT/layer/work" "$OUT/root"
cleanup() { umount "$OUT/root" 2>/dev/null || true; umount "$OUT/layer" 2>/dev/null || true; }
trap cleanup EXIT
R=$OUT/root
# A machine of its own: an id, no units of this machine's image beyond the check.
systemd-id128 new > "$R/etc/machine-id"
install -m 0644 "$HERE/hookd-check.service" "$R/etc/systemd/system/hookd-check.service"
mkdir -p "$R/etc/systemd/system/multi-user.target.wants" "$R/opt/hookd" "$R/root/.npm"
ln -sf ../hookd-check.service "$R/etc/systemd/system/multi-user.target.wants/hookd-check.service"
# npm in the container reaches the registry as npm here does: this machine's npm cache, and the
# variables that point npm and node at its CA bundle or proxy (check.sh reads /out/host.env).
NPM_CACHE=$(npm config get cache)
mkdir -p "$NPM_CACHE"
env | grep -E '^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|https?_proxy|NO_PROXY|no_proxy|npm_config_[a-z_]+)=' | sed 's/^/export /; s/=\(.*\)$/="\1"/' > "$OUT/out/host.env" || true
for key in cafile registry strict-ssl; do echo "export npm_config_${key//-/_}=\"$(npm config get "$key")\""; done >> "$OUT/out/host.env"
# --register=no --keep-unit: this machine runs no systemd (no system bus) to register with.
timeout 300 systemd-nspawn --quiet -D "$R" --register=no --keep-unit \
  --bind-ro="$ROOT:/opt/hookd" \
  --bind="$NPM_CACHE:/root/.npm" \
  --bind="$OUT/out:/out" \
  --console=pipe -b systemd.unit=multi-user.target systemd.firstboot=off </dev/null
