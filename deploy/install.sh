#!/bin/bash
# Installs hookd on this machine from a built checkout (`npm ci && npm run build` first):
#   - @hookd/sdk and @hookd/daemon, packed with `npm pack`, into /usr/lib/hookd (their npm
#     dependencies from the registry or npm's cache), with /usr/bin/hookd linked to its CLI;
#   - the systemd units (hookd.service, hookd.socket), the sysusers file (user hookd, group
#     hookd-agents), the logrotate file;
#   - /etc/hookd/hookd.yaml and /etc/hookd/plugins/policy.mjs, unless they exist (yours are kept).
# Then: systemctl enable --now hookd.socket (the first agent connection starts hookd).
# usage: sudo deploy/install.sh [--prefix DIR]   (DIR: where the packages go, default /usr/lib/hookd)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/usr/lib/hookd
if [ "${1:-}" = "--prefix" ]; then PREFIX=${2:?--prefix needs a directory}; fi
[ "$(id -u)" = 0 ] || { echo "install.sh: run as root (it writes /usr, /etc and systemd's units)" >&2; exit 1; }
[ -f "$ROOT/daemon/dist/cli.js" ] && [ -f "$ROOT/sdk/dist/index.js" ] || { echo "install.sh: build first: npm ci && npm run build" >&2; exit 1; }

say() { echo "install.sh: $*"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

say "packing @hookd/sdk and @hookd/daemon"
(cd "$ROOT" && npm pack --silent --workspace sdk --workspace daemon --pack-destination "$work" >/dev/null)
sdk=$(ls "$work"/hookd-sdk-*.tgz) daemon=$(ls "$work"/hookd-daemon-*.tgz)

# Both tarballs at the top of one prefix: the daemon's dependency on @hookd/sdk is the packed one,
# never a package of that name from the registry.
say "installing into $PREFIX"
mkdir -p "$PREFIX"
[ -f "$PREFIX/package.json" ] || echo '{ "name": "hookd-install", "private": true }' > "$PREFIX/package.json"
npm install --prefix "$PREFIX" --omit=dev --no-audit --no-fund --prefer-offline --no-save "$sdk" "$daemon"
chmod 0755 "$PREFIX/node_modules/@hookd/daemon/dist/cli.js"
ln -sfn "$PREFIX/node_modules/@hookd/daemon/dist/cli.js" /usr/bin/hookd
# The C forwarder the agents' hook snippets run (npm run build compiles it when cc is present).
if [ -x "$PREFIX/node_modules/@hookd/daemon/dist/forward/hookd-hook" ]; then
  ln -sfn "$PREFIX/node_modules/@hookd/daemon/dist/forward/hookd-hook" /usr/bin/hookd-hook
else
  say "no C forwarder in the build (no C compiler when it was built): hook snippets must use \`hookd hook\` instead of hookd-hook"
fi

say "installing the systemd units, sysusers and logrotate files"
install -D -m 0644 "$ROOT/deploy/hookd.service" /etc/systemd/system/hookd.service
install -D -m 0644 "$ROOT/deploy/hookd.socket" /etc/systemd/system/hookd.socket
install -D -m 0644 "$ROOT/deploy/hookd.sysusers.conf" /etc/sysusers.d/hookd.conf
install -D -m 0644 "$ROOT/deploy/logrotate.conf" /etc/logrotate.d/hookd
install -D -m 0644 "$ROOT/README.md" /usr/share/doc/hookd/README.md

say "installing /etc/hookd (existing files are kept)"
install -d -m 0755 /etc/hookd /etc/hookd/plugins
[ -e /etc/hookd/hookd.yaml ] || install -m 0644 "$ROOT/deploy/hookd.yaml" /etc/hookd/hookd.yaml
[ -e /etc/hookd/plugins/policy.mjs ] || install -m 0644 "$ROOT/deploy/plugins/policy.mjs" /etc/hookd/plugins/policy.mjs

if command -v systemd-sysusers >/dev/null; then systemd-sysusers /etc/sysusers.d/hookd.conf; fi
if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
say "done: $(/usr/bin/hookd --version 2>/dev/null || echo hookd) at /usr/bin/hookd"
say "next: hookd check --config /etc/hookd/hookd.yaml && systemctl enable --now hookd.socket"
