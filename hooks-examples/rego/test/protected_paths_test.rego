# Cases of the protected-paths example, for Claude Code's, Codex's and Gemini CLI's file tools.
# Run: opa test protected-paths test
package hookd.examples.protected_paths_test

import data.hookd.examples.protected_paths

call(tool, arguments) := {"point": "pre-tool", "call": {"toolName": tool}, "arguments": arguments}

test_secrets_and_git_internals_are_never_written if {
	every case in [
		call("Write", {"file_path": "/app/.env"}),
		call("Edit", {"file_path": "/app/.env.production"}),
		call("write_file", {"file_path": "/home/dev/.ssh/authorized_keys"}),
		call("replace", {"file_path": "/home/dev/.aws/credentials"}),
		call("MultiEdit", {"file_path": "/app/.git/hooks/pre-commit"}),
		call("Write", {"file_path": ".env"}),
	] {
		protected_paths.decision.rule == "protected-paths.write" with input as case
	}
}

test_reading_a_secret_asks if {
	protected_paths.decision.decision == "ask" with input as call("Read", {"file_path": "/app/.env"})
	protected_paths.decision.decision == "ask" with input as call("read_file", {"absolute_path": "/home/dev/.ssh/id_rsa"})
}

test_templates_ordinary_files_and_git_reads_are_left_alone if {
	every case in [
		call("Write", {"file_path": "/app/.env.example"}),
		call("Write", {"file_path": "/app/src/env.ts"}),
		call("Edit", {"file_path": "/app/.gitignore"}),
		call("Read", {"file_path": "/app/.git/config"}),
		call("Bash", {"command": "cat .env"}),
	] {
		not protected_paths.decision with input as case
	}
}

test_other_points_are_left_alone if {
	not protected_paths.decision with input as {"point": "guard", "call": {"toolName": "Write"}, "arguments": {"file_path": "/app/.env"}}
}
