#!/usr/bin/env bash
# Part of `npm run build`: compiles the C forwarder (daemon/src/forward/hookd-hook.c ->
# daemon/dist/forward/hookd-hook), the fast path the agents' command hooks use (a few ms per event
# instead of Node's ~100). Without a C compiler it says so and the build goes on: the node
# forwarder (`hookd hook`, daemon/dist/forward/main.js) does the same job, slower.
set -euo pipefail
cd "$(dirname "$0")/.."
src=daemon/src/forward/hookd-hook.c
out=daemon/dist/forward/hookd-hook
cc="${CC:-cc}"
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "build: no C compiler ($cc) found: the C forwarder $out is not built; the snippets' hookd-hook commands need it (or use \`hookd hook\`, the node forwarder, ~100 ms slower per event)" >&2
  exit 0
fi
mkdir -p "$(dirname "$out")"
if [ ! -x "$out" ] || [ "$src" -nt "$out" ] || [ "${BASH_SOURCE[0]}" -nt "$out" ]; then
  # The source must compile clean; then it is linked statically where the C library allows it
  # (an agent runs it once per event, and loading a shared libc is a quarter of a millisecond
  # of each run), else as usual. glibc's linker note that a static getaddrinfo needs the
  # resolver libraries of the glibc it was linked with holds by construction: the forwarder is
  # built on the machine that runs it. Hence that attempt's own output is not shown.
  "$cc" -std=c99 -O2 -Wall -Werror -c -o "$out.o" "$src"
  if ! "$cc" -static -o "$out.tmp" "$out.o" >/dev/null 2>&1; then
    "$cc" -o "$out.tmp" "$out.o"
  fi
  rm -f "$out.o"
  mv "$out.tmp" "$out"
fi
