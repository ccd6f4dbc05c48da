// The CLI's decisions that need no process: argument parsing by the command spec, "did you mean",
// when output is coloured (only a terminal, never with NO_COLOR), which log format a terminal
// gets, and how the check report renders for a person and as JSON.
import { describe, expect, it } from "vitest";
import { SYSTEM_ADMIN_SOCKET, adminCandidates } from "../src/commands/admin-target.js";
import { newReport, printReport, printReportJson, warningOf, columns } from "../src/commands/check-report.js";
import { COMMANDS } from "../src/commands/spec.js";
import { closest, commandHelp, integerOption, isUsageError, parseCommand, unknownCommand } from "../src/commands/usage.js";
import { colourEnabled, createLogger, defaultLogFormat, formatText } from "../src/log.js";

const ESCAPE = "\u001b[";

describe("argument parsing", () => {
  it("parses a command's options by its spec", () => {
    expect(parseCommand("tail", ["--session", "s1", "--json", "-s", "/x.sock"])).toEqual({ session: "s1", json: true, socket: "/x.sock" });
  });

  it("turns every mistake into a usage error naming the option", () => {
    const mistake = (args: string[]): string => {
      try {
        parseCommand("check", args);
      } catch (error) {
        expect(isUsageError(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error(`${args.join(" ")} was accepted`);
    };
    expect(mistake(["--confg", "x"])).toBe("unknown option --confg; did you mean --config?");
    expect(mistake(["--config"])).toBe("--config needs a value");
    expect(mistake(["stray"])).toBe('unexpected argument "stray" (check takes options only)');
  });

  it("reads integers strictly", () => {
    expect(integerOption({}, "grace-ms", 10)).toBe(10);
    expect(integerOption({ "grace-ms": "250" }, "grace-ms", 10)).toBe(250);
    for (const bad of ["2.5", "", "1e3", "ten", "-1"]) expect(() => integerOption({ "grace-ms": bad }, "grace-ms", 10)).toThrow(/^--grace-ms: expected an integer of at least 0/);
  });

  it("suggests the closest command for a typo, and nothing for a stranger", () => {
    const names = COMMANDS.map((c) => c.name);
    expect(closest("stauts", names)).toBe("status");
    expect(closest("plugin", names)).toBe("plugins");
    expect(closest("chekc", names)).toBe("check");
    expect(closest("relaod", names)).toBe("reload");
    expect(closest("frobnicate", names)).toBeUndefined();
    expect(unknownCommand("tial")).toBe('unknown command "tial"; did you mean "tail"?');
  });

  it("documents every option of every command in its help", () => {
    for (const spec of COMMANDS) {
      const help = commandHelp(spec);
      for (const option of Object.keys(spec.options)) expect(help, `${spec.name} --${option}`).toContain(`--${option}`);
      expect(help).toContain("--help");
    }
  });
});

describe("colour and log format", () => {
  it("colours only a terminal, never with NO_COLOR set (and not empty) or TERM=dumb", () => {
    expect(colourEnabled(true, {})).toBe(true);
    expect(colourEnabled(false, {})).toBe(false);
    expect(colourEnabled(undefined, {})).toBe(false);
    expect(colourEnabled(true, { NO_COLOR: "1" })).toBe(false);
    expect(colourEnabled(true, { NO_COLOR: "" })).toBe(true);
    expect(colourEnabled(true, { TERM: "dumb" })).toBe(false);
  });

  it("logs readable text to a terminal and JSON otherwise", () => {
    expect(defaultLogFormat(true)).toBe("text");
    expect(defaultLogFormat(false)).toBe("json");
    expect(defaultLogFormat(undefined)).toBe("json");
  });

  it("renders a text line with its fields, secrets masked, colour only when asked", () => {
    const lines: string[] = [];
    const log = createLogger({ format: "text", colour: false, write: (line) => lines.push(line) });
    log.warn("plugin slow", { plugin: "policy", ms: 12, token: "s3cret", note: "two words" });
    expect(lines).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}plugin slow plugin=policy ms=12 token=\[redacted\] note="two words"\n$/)]);
    const coloured = formatText({ time: "2026-01-01T00:00:00.000Z", level: "error", msg: "boom" }, true);
    expect(coloured).toBe(`00:00:00.000 ${ESCAPE}31mERROR${ESCAPE}0m boom`);
    expect(formatText({ time: "2026-01-01T00:00:00.000Z", level: "error", msg: "boom" }, false)).not.toContain(ESCAPE);
    const json: string[] = [];
    createLogger({ write: (line) => json.push(line) }).info("hello", { a: 1 });
    expect(JSON.parse(json[0] ?? "")).toMatchObject({ level: "info", msg: "hello", a: 1 });
  });
});

describe("the check report", () => {
  const capture = (): { out: string[]; err: string[]; io: { out: (t: string) => void; err: (t: string) => void } } => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (t) => void out.push(t), err: (t) => void err.push(t) } };
  };

  it("prints problems last, on stderr, with no verdict before them", () => {
    const report = newReport("/etc/hookd.yaml");
    report.tables.push({ id: "order", columns: columns("POINT:point", "PLUGIN:plugin"), rows: [["pre-tool", "policy"]] });
    report.warnings.push(warningOf(JSON.stringify({ time: "t", level: "warn", msg: "plugin health changed", plugin: "far" })));
    report.problems.push("plugins[1] (far): not reachable");
    const { out, err, io } = capture();
    expect(printReport(report, { ...io, colour: false })).toBe(1);
    expect(out.join("")).toBe("config /etc/hookd.yaml\n\nPOINT     PLUGIN\npre-tool  policy\n\n1 warning:\n  - plugin health changed (plugin=far)\n");
    expect(err.join("")).toBe("/etc/hookd.yaml: 1 problem:\n  - plugins[1] (far): not reachable\n");
  });

  it("ends a clean report with ok, coloured only when asked", () => {
    const report = newReport("(embedded default)");
    report.tables.push({ id: "order", columns: columns("POINT:point"), rows: [], empty: "no plugin subscribes to any point" });
    const plain = capture();
    expect(printReport(report, { ...plain.io, colour: false })).toBe(0);
    expect(plain.out.join("")).toBe("config (embedded default)\n\nno plugin subscribes to any point\n\nok\n");
    const coloured = capture();
    printReport(report, { ...coloured.io, colour: true });
    expect(coloured.out.join("")).toContain(`${ESCAPE}32mok${ESCAPE}0m`);
  });

  it("gives tables as rows keyed by their columns in JSON", () => {
    const report = newReport("/c.yaml");
    report.tables.push({ id: "order", columns: columns("POINT:point", "#:position"), rows: [["pre-tool", 1]] });
    const out: string[] = [];
    expect(printReportJson(report, (t) => void out.push(t))).toBe(0);
    expect(JSON.parse(out.join(""))).toEqual({ config: "/c.yaml", ok: true, problems: [], warnings: [], notes: [], tables: { order: [{ point: "pre-tool", position: 1 }] } });
  });
});

describe("where the admin commands look for the daemon", () => {
  it("--socket, else $HOOKD_SOCKET, else the user's default socket and then the systemd install's", () => {
    expect(adminCandidates("/x/admin.sock", { HOOKD_SOCKET: "/y.sock" })).toEqual([{ target: "unix:///x/admin.sock", from: "--socket" }]);
    expect(adminCandidates("127.0.0.1:7000", {})).toEqual([{ target: "127.0.0.1:7000", from: "--socket" }]);
    expect(adminCandidates(undefined, { HOOKD_SOCKET: "/y.sock" })).toEqual([{ target: "unix:///y.sock", from: "$HOOKD_SOCKET" }]);
    expect(adminCandidates(undefined, { HOOKD_SOCKET: "", XDG_RUNTIME_DIR: "/run/user/1000" })).toEqual([
      { target: "unix:///run/user/1000/hookd/hookd.sock", from: "the default socket" },
      { target: `unix://${SYSTEM_ADMIN_SOCKET}`, from: "the systemd install's admin socket" },
    ]);
  });
});
