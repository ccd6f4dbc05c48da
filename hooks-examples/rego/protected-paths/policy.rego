# protected-paths: the files an agent must never write, for every agent hookd serves (a port of
# the idea behind Cupcake's protected-paths policies). Writes and edits of secrets (.env files,
# ~/.ssh, cloud credentials) and of git's internals are denied; reading a secret asks first.
# Anything else: undefined, so the plugin has no opinion and the next plugin decides.
package hookd.examples.protected_paths

# The agents' file tools: Claude Code, Codex and Gemini CLI names.
write_tools := {"Write", "Edit", "MultiEdit", "NotebookEdit", "write_file", "replace"}

read_tools := {"Read", "read_file", "read_many_files"}

# The path a file tool names, whichever argument its agent uses.
target := p if {
	p := input.arguments.file_path
} else := p if {
	p := input.arguments.absolute_path
} else := p if {
	p := input.arguments.path
}

# Templates of secrets are meant to be shared and edited.
template(p) if regex.match(`\.(example|sample|template)$`, p)

secret(p) if {
	regex.match(`(^|/)\.env(\.[^/]*)?$`, p)
	not template(p)
}

secret(p) if regex.match(`(^|/)\.ssh/`, p)

secret(p) if regex.match(`(^|/)\.aws/(credentials|config)$`, p)

secret(p) if regex.match(`(^|/)\.netrc$`, p)

protected(p) if secret(p)

protected(p) if regex.match(`(^|/)\.git/`, p)

# The first verdict that applies wins (Rego's else chain).
decision := {
	"decision": "deny",
	"reason": sprintf("protected-paths: %s is protected: secrets and git internals are never written by an agent", [target]),
	"rule": "protected-paths.write",
} if {
	input.point == "pre-tool"
	input.call.toolName in write_tools
	protected(target)
} else := {
	"decision": "ask",
	"reason": sprintf("protected-paths: %s may hold secrets: reading it needs approval", [target]),
	"rule": "protected-paths.read-secret",
} if {
	input.point == "pre-tool"
	input.call.toolName in read_tools
	secret(target)
}
