// Hook matchers in the agents' own syntax. Claude Code: absent, "" or "*" matches everything; a
// string of only letters, digits, `_`, `-`, spaces, `,` and `|` is an exact name or list
// ("Edit|Write", "Edit, Write"); anything
// else is an unanchored regular expression ("mcp__.*", "^Bash$"). "regex" mode (Codex): everything
// but the match-all forms is an unanchored regex, so "Bash" also matches "BashOutput".
// Compiling is the only place a matcher can fail: an invalid one is an error for the parser to
// report loudly, never a silent non-match at run time.
export type MatcherMode = "names-or-regex" | "regex";

export type Matcher = (input: string) => boolean;

export type CompiledMatcher = { readonly ok: true; readonly matches: Matcher } | { readonly ok: false; readonly error: string };

const MATCH_ALL: Matcher = () => true;
const EXACT = /^[A-Za-z0-9_\- ,|]+$/;

export function compileMatcher(pattern: string | undefined, mode: MatcherMode): CompiledMatcher {
  if (pattern === undefined || pattern === "" || pattern === "*") return { ok: true, matches: MATCH_ALL };
  if (mode === "names-or-regex" && EXACT.test(pattern)) {
    const names = new Set(pattern.trim().split(/\s*[|,]\s*/));
    return { ok: true, matches: (input) => names.has(input) };
  }
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    return { ok: false, error: `invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}` };
  }
  return { ok: true, matches: (input) => regex.test(input) };
}
