#!/bin/sh
# SessionStart (matcher "startup|resume"): tells the model where it is. Plain stdout of a
# SessionStart hook is added to the session as context.
cd "${CLAUDE_PROJECT_DIR:-.}" 2>/dev/null || exit 0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || exit 0
branch=$(git branch --show-current 2>/dev/null)
changed=$(git status --porcelain 2>/dev/null | wc -l | tr -d ' ')
echo "Repository context: on branch ${branch:-"(detached HEAD)"}, ${changed} uncommitted change(s)."
git log -3 --format='Recent commit: %h %s' 2>/dev/null
exit 0
