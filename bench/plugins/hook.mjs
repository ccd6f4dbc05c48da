#!/usr/bin/env node
// bench-policy as a Claude Code PreToolUse command hook in Node: reads the hook input on stdin,
// denies a few dangerous shell commands (exit 2, reason on stderr), otherwise allows with the
// dialect's JSON answer. Loads nothing beyond Node itself.
const DANGEROUS = [/\brm\s+-[a-zA-Z]*r[a-zA-Z]*\s+\/(\s|$)/, /\bmkfs(\.\w+)?\b/, /\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b/, /\bdd\b[^;]*\bof=\/dev\//];
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  let command = "";
  try {
    const parsed = JSON.parse(input);
    if (typeof parsed?.tool_input?.command === "string") command = parsed.tool_input.command;
  } catch {
    // not JSON: nothing to check
  }
  const rule = DANGEROUS.find((pattern) => pattern.test(command));
  if (rule !== undefined) {
    process.stderr.write(`bench-policy: matches ${rule.source}\n`);
    process.exitCode = 2;
    return;
  }
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "bench-policy: harmless" } }));
});
