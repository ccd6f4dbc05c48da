#!/bin/sh
# PreToolUse (matcher "Bash"): refuses shell commands that destroy data or run code fetched from
# the network. Exit 2 blocks the call; what goes to stderr is the reason the agent (and the model)
# sees. Reads the hook's JSON on stdin; uses jq when it is installed, else the raw JSON text.
input=$(cat)
if command -v jq >/dev/null 2>&1; then
  cmd=$(printf '%s' "$input" | jq -r '.tool_input.command // ""')
else
  cmd=$input
fi

deny() {
  echo "$1" >&2
  exit 2
}

printf '%s' "$cmd" | grep -Eq 'rm[[:space:]]+-[a-zA-Z]*r[a-zA-Z]*f?[a-zA-Z]*[[:space:]]+(/|~|\$HOME)([[:space:]"]|$)' &&
  deny "Blocked: recursive delete of / or the home directory. Delete specific paths instead."
printf '%s' "$cmd" | grep -Eq '(curl|wget)[^|]*\|[[:space:]]*(sudo[[:space:]]+)?(ba|z)?sh' &&
  deny "Blocked: piping a download into a shell. Download the script, read it, then run it."
printf '%s' "$cmd" | grep -Eq 'git[[:space:]]+push[^|;&]*(--force|-f)([[:space:]].*)?[[:space:]](origin[[:space:]]+)?(main|master)([[:space:]"]|$)' &&
  deny "Blocked: force-push to main. Push a branch and open a pull request."
exit 0
