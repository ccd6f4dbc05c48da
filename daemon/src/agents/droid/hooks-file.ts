// A Droid hooks file: Claude Code's nested format, plus a group field of Droid's own,
// `commandRegex` (tested against an Execute call's command), which hookd's command kind does not
// apply: each one is named in the file's notes (`hookd check` shows them), never dropped silently.
import type { HooksModel } from "../contract.js";
import { parseHooksFile } from "../hooks-file.js";
import { DROID_FORMAT } from "./events.js";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** One note per group with a commandRegex, by its place in the file. */
function commandRegexNotes(value: unknown): string[] {
  const events = isRecord(value) && isRecord(value.hooks) ? value.hooks : isRecord(value) ? value : {};
  return Object.entries(events).flatMap(([event, groups]) =>
    (Array.isArray(groups) ? groups : []).flatMap((group: unknown, index) =>
      isRecord(group) && group.commandRegex !== undefined ? [`${event}[${index}].commandRegex: not applied by hookd; the group's hooks run for every call its matcher matches`] : [],
    ),
  );
}

export function parseDroidHooks(value: unknown, source: string): HooksModel {
  const model = parseHooksFile(DROID_FORMAT, value, source);
  const notes = commandRegexNotes(value);
  return notes.length === 0 ? model : Object.freeze({ ...model, notes: Object.freeze([...model.notes, ...notes]) });
}
