# dangerous-shell: shell commands no agent should run unasked, for every agent hookd serves (a port
# of the idea behind Cupcake's dangerous-command policies). Recursive deletes of / or the home
# directory, download-and-execute pipes, formatting a filesystem and writing a raw disk are denied;
# a force push asks first. Anything else: undefined, so the plugin has no opinion.
package hookd.examples.dangerous_shell

# The command line: a string (Claude Code's Bash, Gemini CLI's run_shell_command, Codex's
# exec_command `cmd`) or a list of words (Codex's shell).
command := c if {
	c := input.arguments.command
	is_string(c)
} else := concat(" ", c) if {
	c := input.arguments.command
	is_array(c)
} else := c if {
	c := input.arguments.cmd
	is_string(c)
}

# rm with a recursive flag, aimed at / (or /*) or the home directory; `\rm` and `/bin/rm` too.
recursive_delete_of_root_or_home if regex.match(
	`\brm\s+(-\S*\s+)*(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\s+(-\S*\s+)*["']?(/\*?|~/?|\$HOME/?|\$\{HOME\}/?)["']?(\s|$|[;&|)])`,
	command,
)

download_and_execute if regex.match(`\b(curl|wget)\b[^|;&]*\|\s*(sudo\s+)?(\S*/)?(ba|da|z|k)?sh\b`, command)

formats_a_filesystem if regex.match(`(^|[\s;&|/])mkfs(\.\w+)?(\s|$)`, command)

writes_a_raw_disk if regex.match(`\bdd\b[^;&|]*\bof=/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk)`, command)

force_push if regex.match(`\bgit\b.*\bpush\b.*\s(--force(-with-lease)?|-f|\+\S+)(\s|$)`, command)

deny(rule, why) := {
	"decision": "deny",
	"reason": sprintf("dangerous-shell: %s: %s", [why, command]),
	"rule": rule,
}

# The first verdict that applies wins (Rego's else chain).
decision := deny("dangerous-shell.recursive-delete", "recursive delete of / or the home directory") if {
	input.point == "pre-tool"
	recursive_delete_of_root_or_home
} else := deny("dangerous-shell.download-and-execute", "runs whatever a URL serves") if {
	input.point == "pre-tool"
	download_and_execute
} else := deny("dangerous-shell.mkfs", "formats a filesystem") if {
	input.point == "pre-tool"
	formats_a_filesystem
} else := deny("dangerous-shell.raw-disk", "overwrites a block device") if {
	input.point == "pre-tool"
	writes_a_raw_disk
} else := {
	"decision": "ask",
	"reason": sprintf("dangerous-shell: a force push rewrites the remote's history: %s", [command]),
	"rule": "dangerous-shell.force-push",
} if {
	input.point == "pre-tool"
	force_push
}
