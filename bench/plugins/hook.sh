#!/bin/sh
# bench-policy as a Claude Code PreToolUse command hook in POSIX sh: denies a few dangerous shell
# commands (exit 2, reason on stderr), otherwise allows with the dialect's JSON answer.
input=$(cat)
case "$input" in
  *'rm -rf /"'* | *'rm -rf / '* | *mkfs* | *'of=/dev/'*)
    echo "bench-policy: dangerous command" >&2
    exit 2
    ;;
esac
printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"bench-policy: harmless"}}'
