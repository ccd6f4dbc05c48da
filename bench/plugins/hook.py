#!/usr/bin/env python3
# bench-policy as a Claude Code PreToolUse command hook in Python, as users write them: reads the
# hook input on stdin, denies a few dangerous shell commands (exit 2, reason on stderr), otherwise
# allows with the dialect's JSON answer. Imports json, re and sys.
import json
import re
import sys

DANGEROUS = [r"\brm\s+-[a-zA-Z]*r[a-zA-Z]*\s+/(\s|$)", r"\bmkfs(\.\w+)?\b", r"\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b", r"\bdd\b[^;]*\bof=/dev/"]

try:
    command = json.load(sys.stdin).get("tool_input", {}).get("command", "")
except (json.JSONDecodeError, AttributeError):
    command = ""
for pattern in DANGEROUS:
    if isinstance(command, str) and re.search(pattern, command):
        print("bench-policy: matches " + pattern, file=sys.stderr)
        sys.exit(2)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "bench-policy: harmless"}}))
