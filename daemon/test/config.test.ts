// The config loader reports every problem at once, each with the path of the bad key.
import { describe, expect, it } from "vitest";
import { isConfigError, defaultConfig, parseConfig } from "../src/config/load.js";

function problems(text: string): readonly string[] {
  try {
    parseConfig(text, "test.yaml", "/etc/hookd");
  } catch (error) {
    if (isConfigError(error)) return error.details.problems;
    throw error;
  }
  return [];
}

describe("config", () => {
  it("reports every mistake with its key path", () => {
    const found = problems(`
listeners:
  - unix: /run/hookd/hookd.sock
    mode: "999"
plugins:
  - name: a
    kind: remote
    target: unix:///run/a.sock
    colour: blue
  - name: a
    kind: in-process
    module: ./a.js
limits:
  maxSessions: -1
`);
    expect(found).toEqual([
      'listeners[0].mode: an octal mode such as 0600',
      'plugins[0]: unknown key "colour"',
      'plugins[1].name: duplicate plugin name "a" (also plugins[0])',
      "limits.maxSessions: Too small: expected number to be >0",
    ]);
  });

  it("names an unknown plugin kind and an unknown top-level key", () => {
    const found = problems(`listeners: [{ unix: /tmp/x.sock }]\nplugins: [{ name: p, kind: telepathy }]\nextra: 1\n`);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^plugins\[0\]\.kind: /);
    expect(found[1]).toBe('(top level): unknown key "extra"');
  });

  it("reports YAML syntax errors by line", () => {
    expect(problems("listeners: [\n  - unix: x\n")[0]).toMatch(/^line \d+: /);
  });

  it("resolves relative module paths against the config file's directory", () => {
    const config = parseConfig(`listeners: [{ unix: /tmp/x.sock }]\nplugins: [{ name: p, kind: in-process, module: ./p.js }]\n`, "t.yaml", "/etc/hookd");
    expect(config.plugins[0]).toMatchObject({ module: "/etc/hookd/p.js" });
  });

  it("has an embedded default with one owner-only Unix socket in the runtime dir", () => {
    const config = defaultConfig({ XDG_RUNTIME_DIR: "/run/user/1000" });
    expect(config.listeners).toEqual([{ unix: "/run/user/1000/hookd/hookd.sock", mode: "0600" }]);
    expect(config.limits.maxSteeredContinuations).toBe(8);
  });
});

describe("session.heartbeatMs", () => {
  const base = "listeners:\n  - unix: /run/hookd/hookd.sock\n";
  it("defaults to 20 s, below nginx's 60 s idle timeouts, and 0 disables", () => {
    expect(parseConfig(base, "test.yaml", "/etc/hookd").session.heartbeatMs).toBe(20_000);
    expect(parseConfig(`${base}session:\n  heartbeatMs: 0\n`, "test.yaml", "/etc/hookd").session.heartbeatMs).toBe(0);
  });

  it("refuses a negative, fractional or unknown setting, naming the key", () => {
    expect(problems(`${base}session:\n  heartbeatMs: -5\n`)).toEqual(["session.heartbeatMs: Too small: expected number to be >=0"]);
    expect(problems(`${base}session:\n  heartbeatMs: 1.5\n`)).toEqual(["session.heartbeatMs: Invalid input: expected int, received number"]);
    expect(problems(`${base}session:\n  heartbeat: 5\n`)).toEqual(['session: unknown key "heartbeat"']);
  });
});
