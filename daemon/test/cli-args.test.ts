// Positional arguments in the command spec (eval's EVENT, init's "plugin NAME"): parsed beside
// the options, too few or too many is a usage error naming what is missing or extra, and the
// synopsis and help list them. The scaffold's placeholders, as init fills them.
import { describe, expect, it } from "vitest";
import { placeholders } from "../src/commands/init.js";
import { commandSpec } from "../src/commands/spec.js";
import { commandHelp, isUsageError, parseCommandLine, synopsis } from "../src/commands/usage.js";

const usageMessage = (name: string, args: string[]): string => {
  try {
    parseCommandLine(name, args);
  } catch (error) {
    expect(isUsageError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${name} ${args.join(" ")} was accepted`);
};

describe("positional arguments", () => {
  it("are parsed beside the options, in any order", () => {
    expect(parseCommandLine("eval", ["ev.json", "--json", "-p", "pre-tool"])).toEqual({ values: { json: true, point: "pre-tool" }, positionals: ["ev.json"] });
    expect(parseCommandLine("init", ["plugin", "--lang", "ts", "my-plugin"]).positionals).toEqual(["plugin", "my-plugin"]);
  });

  it("too few or too many is a usage error naming the argument", () => {
    expect(usageMessage("eval", ["--json"])).toBe("missing EVENT (the event: a file, or - for stdin)");
    expect(usageMessage("eval", ["a.json", "b.json"])).toBe('unexpected argument "b.json" (eval takes EVENT)');
    expect(usageMessage("init", ["plugin"])).toBe("missing NAME (the plugin's or policy's name, kebab-case: my-policy)");
    // Commands without positionals still refuse them.
    expect(usageMessage("status", ["extra"])).toBe('unexpected argument "extra" (status takes options only)');
  });

  it("appear in the synopsis and the help", () => {
    const spec = commandSpec("init");
    if (spec === undefined) throw new Error("no init spec");
    expect(synopsis(spec)).toBe("hookd init [--lang ts|python|go] [--dir DIR] plugin|policy NAME");
    expect(commandHelp(spec)).toMatch(/\narguments:\n {2}plugin\|policy {2}what to create: a plugin project, or a policy \(rule file and tests\)\n {2}NAME {11}the plugin's or policy's name, kebab-case: my-policy\n\noptions:\n/);
  });
});

describe("init's placeholders", () => {
  it("derive snake_case and PascalCase from the kebab-case name", () => {
    expect(Object.fromEntries(placeholders("push-guard-2", "/repo/sdk"))).toEqual({
      "{{name}}": "push-guard-2",
      "{{name_snake}}": "push_guard_2",
      "{{name_pascal}}": "PushGuard2",
      "{{sdk_path}}": "/repo/sdk",
    });
  });
});
