# bench-policy in Rego (the rego_wasm scenario): the same pre-tool decision as
# bench/src/plugins/policy.ts, a few regex tests over the command, so rego_wasm against inprocess
# measures evaluating a Wasm-compiled policy, not a different policy.
package hookd.bench

dangerous := [
	`\brm\s+-[a-zA-Z]*r[a-zA-Z]*\s+/(\s|$)`,
	`\bmkfs(\.\w+)?\b`,
	`\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b`,
	`\bdd\b[^;]*\bof=/dev/`,
]

command := c if {
	c := input.arguments.command
	is_string(c)
} else := ""

matched := [p | some p in dangerous; regex.match(p, command)]

decision := {"decision": "deny", "reason": sprintf("bench-policy-rego: matches %s", [matched[0]])} if {
	count(matched) > 0
} else := {"decision": "allow"}
