#!/usr/bin/env bash
# Installs the real agent binaries the real-agent test lane (test/agents/) drives, at pinned
# versions, from the npm registry into a cache reused between runs (and between clones):
#   ${HOOKD_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-agents}/<versions>/node_modules/.bin/{claude,codex,gemini,qwen}
# A directory is complete only when its stamp file exists, so an interrupted install is redone;
# a lock keeps two concurrent runs from installing into the same place. Prints the .bin path.
# Agents added after the first four each have their own cache directory named with their version,
# so adding or moving one reinstalls no other: `setup-agents.sh <agent>` (copilot-cli, droid,
# cline, opencode, pi) installs that one if needed and prints the directory holding its binary
# (for copilot-cli, its install directory, with the 235 MB package its first run unpacks already
# unpacked under pkg-cache/: point COPILOT_PKG_CACHE_HOME there). With no argument every agent is
# installed, and the first four's .bin path is printed.
set -euo pipefail

CLAUDE_CODE_VERSION=2.1.337
CODEX_VERSION=0.171.0
GEMINI_CLI_VERSION=0.61.0
QWEN_CODE_VERSION=0.24.4

COPILOT_CLI_VERSION=1.0.102
DROID_VERSION=0.225.2
CLINE_VERSION=3.0.65
OPENCODE_VERSION=1.18.33
# pi's current line: @mariozechner/pi-coding-agent stopped at 0.73.1; it continues under this name.
PI_VERSION=1.6.0

cache="${HOOKD_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-agents}"

# install_own <dir> <package@version> <binary path inside dir> [after]: one agent in its own
# directory, complete only once its stamp exists, installed under the same lock; `after` runs in
# the staging directory before it is moved into place.
install_own() {
  local own="$1" package="$2" binary="$3" after="${4:-}"
  if [ ! -f "$own/.installed" ]; then
    mkdir -p "$cache"
    (
      flock 8
      if [ ! -f "$own/.installed" ]; then
        echo "setup-agents: installing $package into $own" >&2
        local staging
        staging="$(mktemp -d "$cache/.staging-XXXXXX")"
        trap 'rm -rf "$staging"' EXIT
        echo '{"private":true}' >"$staging/package.json"
        (cd "$staging" && npm install --no-audit --no-fund --no-save --loglevel=error "$package" >&2)
        [ -x "$staging/$binary" ] || { echo "setup-agents: $binary missing after npm install of $package" >&2; exit 1; }
        [ -z "$after" ] || (cd "$staging" && "$after" "$staging")
        rm -rf "$own"
        mv "$staging" "$own"
        trap - EXIT
        touch "$own/.installed"
      fi
    ) 8>"$cache/.lock"
  fi
}

# Copilot's first run unpacks the CLI into its package cache: done once here, reused by every test.
unpack_copilot() {
  env -i PATH="$PATH" HOME="$1" COPILOT_PKG_CACHE_HOME="$1/pkg-cache" COPILOT_AUTO_UPDATE=false node_modules/.bin/copilot --version >&2
  compgen -G "$1/pkg-cache/pkg/*/$COPILOT_CLI_VERSION/index.js" >/dev/null || { echo "setup-agents: copilot did not unpack into its package cache" >&2; exit 1; }
}

copilot_dir="$cache/copilot-cli-$COPILOT_CLI_VERSION"
droid_dir="$cache/droid-$DROID_VERSION"
cline_dir="$cache/cline-$CLINE_VERSION"
opencode_dir="$cache/opencode-$OPENCODE_VERSION"
pi_dir="$cache/pi-$PI_VERSION"
install_copilot() { install_own "$copilot_dir" "@github/copilot@$COPILOT_CLI_VERSION" node_modules/.bin/copilot unpack_copilot; }
# Factory Droid: @factory/cli's linux-x64 platform package carries the binary itself.
install_droid() { install_own "$droid_dir" "@factory/cli-linux-x64@$DROID_VERSION" node_modules/@factory/cli-linux-x64/bin/droid; }
# Cline: `cline` brings its platform binary (@cline/cli-linux-x64) as a dependency.
install_cline() { install_own "$cline_dir" "cline@$CLINE_VERSION" node_modules/.bin/cline; }
install_opencode() { install_own "$opencode_dir" "opencode-ai@$OPENCODE_VERSION" node_modules/.bin/opencode; }
install_pi() { install_own "$pi_dir" "@earendil-works/pi-coding-agent@$PI_VERSION" node_modules/.bin/pi; }

case "${1:-}" in
  "") install_copilot; install_droid; install_cline; install_opencode; install_pi ;;
  copilot-cli) install_copilot; echo "$copilot_dir"; exit 0 ;;
  droid) install_droid; echo "$droid_dir/node_modules/@factory/cli-linux-x64/bin"; exit 0 ;;
  cline) install_cline; echo "$cline_dir/node_modules/.bin"; exit 0 ;;
  opencode) install_opencode; echo "$opencode_dir/node_modules/.bin"; exit 0 ;;
  pi) install_pi; echo "$pi_dir/node_modules/.bin"; exit 0 ;;
  *) echo "setup-agents: no agent named ${1@Q} (expected none for every agent, or one of: copilot-cli, droid, cline, opencode, pi)" >&2; exit 2 ;;
esac

versions="claude-code-${CLAUDE_CODE_VERSION}_codex-${CODEX_VERSION}_gemini-cli-${GEMINI_CLI_VERSION}_qwen-code-${QWEN_CODE_VERSION}"
dir="$cache/$versions"
stamp="$dir/.installed"

if [ ! -f "$stamp" ]; then
  mkdir -p "$cache"
  exec 9>"$cache/.lock"
  flock 9
  if [ ! -f "$stamp" ]; then
    echo "setup-agents: installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION @openai/codex@$CODEX_VERSION @google/gemini-cli@$GEMINI_CLI_VERSION @qwen-code/qwen-code@$QWEN_CODE_VERSION into $dir" >&2
    staging="$(mktemp -d "$cache/.staging-XXXXXX")"
    trap 'rm -rf "$staging"' EXIT
    echo '{"private":true}' >"$staging/package.json"
    # The agents' own install scripts fetch their platform binaries from npm (optional deps).
    (cd "$staging" && npm install --no-audit --no-fund --no-save --loglevel=error \
      "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" "@google/gemini-cli@$GEMINI_CLI_VERSION" "@qwen-code/qwen-code@$QWEN_CODE_VERSION" >&2)
    for bin in claude codex gemini qwen; do
      [ -x "$staging/node_modules/.bin/$bin" ] || { echo "setup-agents: $bin missing after npm install" >&2; exit 1; }
    done
    rm -rf "$dir"
    mv "$staging" "$dir"
    trap - EXIT
    touch "$stamp"
  fi
fi
echo "$dir/node_modules/.bin"
