#!/usr/bin/env bash
# Installs the real agent binaries the real-agent test lane (test/agents/) drives, at pinned
# versions, from the npm registry into a cache reused between runs (and between clones):
#   ${HOOKD_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-agents}/<versions>/node_modules/.bin/{claude,codex,gemini,qwen}
# A directory is complete only when its stamp file exists, so an interrupted install is redone;
# a lock keeps two concurrent runs from installing into the same place. Prints the .bin path.
# `setup-agents.sh copilot-cli` installs GitHub Copilot CLI alone, into its own directory
# (<cache>/copilot-cli-<version>, so adding it reinstalls nobody else), with the 235 MB package its
# first run unpacks already unpacked under pkg-cache/ (point COPILOT_PKG_CACHE_HOME there); it
# prints that directory.
set -euo pipefail

CLAUDE_CODE_VERSION=2.1.337
CODEX_VERSION=0.171.0
GEMINI_CLI_VERSION=0.61.0
QWEN_CODE_VERSION=0.24.4

COPILOT_CLI_VERSION=1.0.102

OPENCODE_VERSION=1.18.33
# pi's current line: @mariozechner/pi-coding-agent stopped at 0.73.1; it continues under this name.
PI_VERSION=1.6.0

cache="${HOOKD_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-agents}"

if [ "${1:-}" = copilot-cli ]; then
  dir="$cache/copilot-cli-$COPILOT_CLI_VERSION"
  if [ ! -f "$dir/.installed" ]; then
    mkdir -p "$cache"
    exec 9>"$cache/.lock"
    flock 9
    if [ ! -f "$dir/.installed" ]; then
      echo "setup-agents: installing @github/copilot@$COPILOT_CLI_VERSION into $dir" >&2
      staging="$(mktemp -d "$cache/.staging-XXXXXX")"
      trap 'rm -rf "$staging"' EXIT
      echo '{"private":true}' >"$staging/package.json"
      (cd "$staging" && npm install --no-audit --no-fund --no-save --loglevel=error "@github/copilot@$COPILOT_CLI_VERSION" >&2)
      [ -x "$staging/node_modules/.bin/copilot" ] || { echo "setup-agents: copilot missing after npm install" >&2; exit 1; }
      # Its first run unpacks the CLI into the package cache: done once here, reused by every test.
      (cd "$staging" && env -i PATH="$PATH" HOME="$staging" COPILOT_PKG_CACHE_HOME="$staging/pkg-cache" COPILOT_AUTO_UPDATE=false node_modules/.bin/copilot --version >&2)
      compgen -G "$staging/pkg-cache/pkg/*/$COPILOT_CLI_VERSION/index.js" >/dev/null || { echo "setup-agents: copilot did not unpack into its package cache" >&2; exit 1; }
      rm -rf "$dir"
      mv "$staging" "$dir"
      trap - EXIT
      touch "$dir/.installed"
    fi
  fi
  echo "$dir"
  exit 0
fi

# Agents added after the first four each live in their own directory named with their version
# (so adding or moving one reinstalls none of the others): `setup-agents.sh <agent>` installs
# that one and prints its .bin path. Same stamp and lock rules as below.
install_own() {
  local name=$1 package=$2 bin=$3
  local own="$cache/$name" staging
  if [ ! -f "$own/.installed" ]; then
    mkdir -p "$cache"
    exec 9>"$cache/.lock"
    flock 9
    if [ ! -f "$own/.installed" ]; then
      echo "setup-agents: installing $package into $own" >&2
      staging="$(mktemp -d "$cache/.staging-XXXXXX")"
      trap 'rm -rf "$staging"' EXIT
      echo '{"private":true}' >"$staging/package.json"
      (cd "$staging" && npm install --no-audit --no-fund --no-save --loglevel=error "$package" >&2)
      [ -x "$staging/node_modules/.bin/$bin" ] || { echo "setup-agents: $bin missing after npm install" >&2; exit 1; }
      rm -rf "$own"
      mv "$staging" "$own"
      trap - EXIT
      touch "$own/.installed"
    fi
  fi
  echo "$own/node_modules/.bin"
}

case "${1:-}" in
  "") ;;
  opencode) install_own "opencode-$OPENCODE_VERSION" "opencode-ai@$OPENCODE_VERSION" opencode; exit 0 ;;
  pi) install_own "pi-$PI_VERSION" "@earendil-works/pi-coding-agent@$PI_VERSION" pi; exit 0 ;;
  *) echo "setup-agents: no agent named ${1@Q} (expected none for the first four, or one of: copilot-cli, opencode, pi)" >&2; exit 2 ;;
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
