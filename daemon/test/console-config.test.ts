// The console's config: opt-in, never without a token of its own, errors naming the key.
import { describe, expect, it } from "vitest";
import { isConfigError, parseConfig } from "../src/config/load.js";
import { restartOnlyChanges } from "../src/config/reload.js";

const LISTENERS = "listeners: [{ unix: /tmp/x.sock }]\n";

function problems(text: string): readonly string[] {
  try {
    parseConfig(LISTENERS + text, "test.yaml", "/etc/hookd");
  } catch (error) {
    if (isConfigError(error)) return error.details.problems;
    throw error;
  }
  return [];
}

const REFUSED = "console.token: the console needs exactly one of token or tokenFile: it is never served without a token";

describe("console config", () => {
  it("is absent unless configured", () => {
    expect(parseConfig(LISTENERS, "t.yaml", "/etc/hookd").console).toBeUndefined();
  });

  it("is refused without a token, with both token and tokenFile, or with a token too short", () => {
    expect(problems("console: { listen: 127.0.0.1:9465 }\n")).toEqual([REFUSED]);
    expect(problems("console: { listen: 127.0.0.1:9465, token: 0123456789abcdef, tokenFile: /etc/t }\n")).toEqual([REFUSED]);
    expect(problems("console: { listen: 127.0.0.1:9465, token: short }\n")).toEqual(["console.token: Too small: expected string to have >=16 characters"]);
  });

  it("names a listen address that is not host:port, and an unknown key", () => {
    expect(problems("console: { listen: /run/console.sock, token: 0123456789abcdef }\n")).toEqual(["console.listen: host:port"]);
    expect(problems("console: { listen: 127.0.0.1:1, token: 0123456789abcdef, cors: '*' }\n")).toEqual(['console: unknown key "cors"']);
  });

  it("accepts IPv6 loopback and resolves a relative token file against the config's directory", () => {
    const config = parseConfig(`${LISTENERS}console: { listen: "[::1]:9465", tokenFile: console-token }\n`, "t.yaml", "/etc/hookd");
    expect(config.console).toEqual({ listen: "[::1]:9465", tokenFile: "/etc/hookd/console-token" });
  });

  it("needs a restart to change", () => {
    const before = parseConfig(`${LISTENERS}console: { listen: 127.0.0.1:1, token: 0123456789abcdef }\n`, "t.yaml", "/etc/hookd");
    const after = parseConfig(`${LISTENERS}console: { listen: 127.0.0.1:2, token: 0123456789abcdef }\n`, "t.yaml", "/etc/hookd");
    expect(restartOnlyChanges(before, after)).toEqual(["console"]);
  });
});
