#!/usr/bin/env bash
# Installs Debian's chromium for the console test (test/ops/console.test.ts drives it headless
# with playwright-core), once: a stamp under the cache marks it done, a lock keeps concurrent runs
# from racing apt. Prints the browser's path. Never downloads a browser build of its own.
set -euo pipefail

cache="${XDG_CACHE_HOME:-$HOME/.cache}/hookd-chromium"
stamp="$cache/.installed"

find_chromium() { command -v chromium || command -v chromium-browser || true; }

if [ ! -f "$stamp" ] || [ -z "$(find_chromium)" ]; then
  mkdir -p "$cache"
  exec 9>"$cache/.lock"
  flock 9
  if [ -z "$(find_chromium)" ]; then
    echo "setup-chromium: installing Debian's chromium (apt-get)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
  fi
  [ -n "$(find_chromium)" ] || { echo "setup-chromium: chromium missing after apt-get install" >&2; exit 1; }
  touch "$stamp"
fi
find_chromium
