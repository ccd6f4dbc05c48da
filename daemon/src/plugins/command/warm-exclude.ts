// Which hooks of a command plugin are kept off the warm interpreters by its `warm.exclude` list:
// an entry names a hook by its place in the hooks file (`PreToolUse[0].hooks[1]`, as `hookd check`
// lists them) or matches its command, either exactly or as a glob (`*` any run of characters, `?` one).

/** Beyond `warm: false` for the whole plugin: the hooks that always spawn. */
export interface WarmExclusion {
  /** The entry that keeps this hook off the warm interpreters, or undefined when none does. */
  readonly entryFor: (hook: { readonly id: string; readonly command: string }) => string | undefined;
}

/** `*` and `?` are the only special characters: a hook id's brackets are literal. */
function globPattern(entry: string): RegExp {
  const body = entry.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "s");
}

export function warmExclusion(entries: readonly string[]): WarmExclusion {
  const patterns = entries.map((entry) => ({ entry, pattern: globPattern(entry) }));
  return {
    entryFor: (hook) => patterns.find(({ pattern }) => pattern.test(hook.id) || pattern.test(hook.command))?.entry,
  };
}
