#!/usr/bin/env bash
# Installs the real agent binaries the real-agent test lane (test/agents/) drives, at pinned
# versions, from the npm registry into a cache reused between runs (and between clones):
#   ${HOOKD_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-agents}/<versions>/node_modules/.bin/{claude,codex,gemini,qwen}
# A directory is complete only when its stamp file exists, so an interrupted install is redone;
# a lock keeps two concurrent runs from installing into the same place. Prints the .bin path.
# Agents added later each have their own cache directory named with their version, so adding
# one reinstalls no other: `setup-agents.sh droid` installs (if needed) and prints the directory
# holding that agent's binary (so does `cline`); with no argument every agent is installed.
set -euo pipefail

CLAUDE_CODE_VERSION=2.1.332
CODEX_VERSION=0.171.0
GEMINI_CLI_VERSION=0.61.0
QWEN_CODE_VERSION=0.24.4

DROID_VERSION=0.225.2
CLINE_VERSION=3.0.65

cache="${HOOKD_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hookd-agents}"

# install_own <dir> <package@version> <binary path inside dir>: one agent in its own directory,
# complete only once its stamp exists, installed under the same lock.
install_own() {
  local own="$1" package="$2" binary="$3"
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
        rm -rf "$own"
        mv "$staging" "$own"
        trap - EXIT
        touch "$own/.installed"
      fi
    ) 8>"$cache/.lock"
  fi
}

# Factory Droid: @factory/cli's linux-x64 platform package carries the binary itself.
droid_dir="$cache/droid-${DROID_VERSION}"
install_own "$droid_dir" "@factory/cli-linux-x64@$DROID_VERSION" "node_modules/@factory/cli-linux-x64/bin/droid"
if [ "${1:-}" = "droid" ]; then
  echo "$droid_dir/node_modules/@factory/cli-linux-x64/bin"
  exit 0
fi

# Cline: `cline` brings its platform binary (@cline/cli-linux-x64) as a dependency.
cline_dir="$cache/cline-${CLINE_VERSION}"
install_own "$cline_dir" "cline@$CLINE_VERSION" "node_modules/.bin/cline"
if [ "${1:-}" = "cline" ]; then
  echo "$cline_dir/node_modules/.bin"
  exit 0
fi

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
