// The live console in a real browser: a real `hookd serve` with `console.listen`, headless
// Chromium (Debian's package, installed by scripts/setup-chromium.sh) driven by playwright-core,
// and a real agent connection through @hookd/sdk. The page refuses a wrong token, shows a
// decision the agent just got, filters the stream, escapes record text, and shows plugin health,
// order and charts. The screenshot is kept at test/.tmp/console.png.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { connectHost, snapshotJson } from "@hookd/sdk";
import type { HostClient, ToolCall } from "@hookd/sdk";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT, Workdir, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";
// @ts-expect-error: a plain ESM fixture without types
import { MARKUP_REASON } from "./fixtures/console-policy.mjs";

const TOKEN = "console-token-0123456789abcdef";
export const SCREENSHOT = join(ROOT, "test/.tmp/console.png");

let work: Workdir;
let daemon: RunningDaemon;
let browser: Browser;
let host: HostClient;
let base: string;
let socket: string;

function call(sessionId: string, callId: string, toolName: string): ToolCall {
  const args = snapshotJson({ path: "/tmp/x" });
  return { callId, rootCallId: callId, toolName, arguments: args.value, argumentsJson: args.text, sessionId, turn: 1, step: 1 };
}

async function decide(agentId: string, sessionId: string, callId: string, toolName: string): Promise<string> {
  const agent = connectHost(`unix://${socket}`, { agentId });
  try {
    const answer = await agent.evaluatePreTool({ session: { sessionId, agentId, cwd: "/" }, call: call(sessionId, callId, toolName) });
    return answer.decision.kind;
  } finally {
    agent.close();
  }
}

/** The text of column `index` of every row shown. */
function column(page: Page, index: number): Promise<string[]> {
  return page.locator(`#records tbody tr > td:nth-child(${index + 1})`).allTextContents();
}

const COLUMNS = { kind: 1, agent: 2, session: 3, point: 5, plugin: 6, decision: 7, outcome: 8, reason: 11 } as const;

beforeAll(async () => {
  const executablePath = execFileSync("bash", [join(ROOT, "scripts/setup-chromium.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  work = new Workdir();
  socket = work.file("hookd.sock");
  daemon = await startDaemon({
    configFile: work.writeConfig({
      listeners: [{ unix: socket }],
      plugins: [
        { name: "console-policy", kind: "in-process", module: join(FIXTURES, "console-policy.mjs") },
        { name: "console-shadow", kind: "in-process", module: join(FIXTURES, "console-shadow.mjs"), mode: "shadow" },
        // Runs first by its priority (before console-policy, whose name sorts first).
        { name: "tagger", kind: "in-process", module: join(FIXTURES, "tagger.mjs"), points: { "pre-tool": { priority: -5 } } },
        // Nothing listens at its socket: subscribed by its config, never serving, failing open.
        {
          name: "ghost",
          kind: "remote",
          target: `unix://${work.file("nobody.sock")}`,
          points: { "pre-tool": { priority: 10, failurePolicy: "fail-open", deadlineMs: 500 } },
          health: { initialBackoffMs: 50, maxBackoffMs: 200 },
        },
      ],
      console: { listen: "127.0.0.1:0", token: TOKEN },
    }),
    awaitServing: false,
  });
  const { address } = await daemon.waitLog("console serving");
  await daemon.waitLog("hookd ready");
  base = `http://${String(address)}`;
  host = connectHost(`unix://${socket}`, { agentId: "warmup" });
  // Root in a container: Chromium's sandbox needs user namespaces it may not have, and /dev/shm may be tiny.
  browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
}, 900_000);

afterAll(async () => {
  await browser?.close();
  host?.close();
  await daemon?.stop("SIGKILL");
  work?.cleanup();
});

describe("console", () => {
  it("refuses requests without the console token, sends no CORS header and a strict CSP", async () => {
    const snapshot = await fetch(`${base}/api/snapshot`);
    expect(snapshot.status).toBe(401);
    expect(snapshot.headers.get("access-control-allow-origin")).toBeNull();
    expect(snapshot.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect((await fetch(`${base}/api/events`, { headers: { authorization: "Bearer wrong-token-0123456789" } })).status).toBe(401);
    expect((await fetch(`${base}/api/snapshot`, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    const page = await fetch(`${base}/`, { redirect: "manual" });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/login");
    const crossOrigin = await fetch(`${base}/login`, { method: "POST", redirect: "manual", headers: { origin: "http://evil.example", "sec-fetch-site": "cross-site", "content-type": "application/x-www-form-urlencoded" }, body: `token=${TOKEN}` });
    expect(crossOrigin.status).toBe(403);
    const withToken = await fetch(`${base}/api/snapshot`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("shows a decision the agent just got, filters the stream, escapes record text, and charts the plugins", async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1100 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    try {
      await page.goto(`${base}/`);
      expect(new URL(page.url()).pathname).toBe("/login");
      await page.fill("input[name=token]", "not-the-console-token");
      await page.click("button[type=submit]");
      await page.locator("#failed").waitFor({ state: "visible" });
      expect(new URL(page.url()).pathname).toBe("/login");

      await page.fill("input[name=token]", TOKEN);
      await page.click("button[type=submit]");
      await page.locator("#connection[data-state=live]").waitFor({ timeout: 15_000 });

      // The decision reaches the page within a second of the agent having its answer.
      expect(await decide("agent-a", "session-a", "a1", "Bash")).toBe("deny");
      await page.locator("#records tbody tr", { hasText: "session-a" }).first().waitFor({ timeout: 1_000 });

      expect(await decide("agent-b", "session-b", "b1", "Read")).toBe("allow");
      expect(await decide("agent-b", "session-b", "b2", "Write")).toBe("allow");
      // A plugin that throws: a listener_error, failed closed (deny), counted in the failures chart.
      expect(await decide("agent-b", "session-b", "b3", "Crash")).toBe("deny");
      await page.locator("#records tbody tr", { hasText: "b3" }).first().waitFor({ timeout: 10_000 });
      // The shadow plugin's Read call is audited too: a shadow record for session-b.
      await page.locator("#records tbody tr[data-kind=shadow]").first().waitFor({ timeout: 10_000 });

      // The markup in a reason is text: shown as written, nothing of it ran or entered the DOM.
      const reasons = await column(page, COLUMNS.reason);
      expect(reasons).toContain(MARKUP_REASON);
      expect(await page.locator("#records script, #records img").count()).toBe(0);
      expect(await page.evaluate("typeof window.__pwned")).toBe("undefined");

      // The lists offer every value seen: calls' outcomes and records' decisions alike.
      expect(await page.locator("#filters select[name=outcome] option").allTextContents()).toEqual(expect.arrayContaining(["all", "answered", "passed", "allow", "deny"]));
      expect(await page.locator("#filters select[name=agent] option").allTextContents()).toEqual(["all", "agent-a", "agent-b"]);

      // Each filter lets through only matching records, and some.
      const filterBy = async (name: string, value: string): Promise<void> => {
        await page.selectOption(`#filters select[name=${name}]`, value);
      };
      await filterBy("agent", "agent-b");
      expect(new Set(await column(page, COLUMNS.agent))).toEqual(new Set(["agent-b"]));
      await filterBy("agent", "");
      await filterBy("session", "session-a");
      const sessions = await column(page, COLUMNS.session);
      expect(sessions.length).toBeGreaterThan(0);
      expect(new Set(sessions)).toEqual(new Set(["session-a"]));
      await filterBy("session", "");
      await filterBy("shadow", "only");
      const kinds = await column(page, COLUMNS.kind);
      expect(kinds.length).toBeGreaterThan(0);
      expect(new Set(kinds)).toEqual(new Set(["shadow"]));
      expect(new Set(await column(page, COLUMNS.plugin))).toEqual(new Set(["console-shadow"]));
      await filterBy("shadow", "none");
      expect(await column(page, COLUMNS.kind)).not.toContain("shadow");
      await filterBy("shadow", "");
      await filterBy("outcome", "deny");
      const decisions = await column(page, COLUMNS.decision);
      expect(decisions.length).toBeGreaterThan(0);
      expect(new Set(decisions)).toEqual(new Set(["deny"]));
      await filterBy("plugin", "console-policy");
      const denied = await column(page, COLUMNS.session);
      // console-policy denied only agent-a's Bash (the shadow's deny of the Read is another plugin's).
      expect(new Set(denied)).toEqual(new Set(["session-a"]));
      await filterBy("outcome", "");
      await filterBy("point", "pre-tool");
      expect(new Set(await column(page, COLUMNS.point))).toEqual(new Set(["pre-tool"]));
      await page.click("#filters button[type=reset]");
      await page.locator("#records tbody tr[data-kind=shadow]").first().waitFor({ timeout: 10_000 });

      // Plugin health and order per point, from the snapshot the page polls.
      await page.locator("#plugins tbody tr[data-plugin=console-policy]").waitFor({ timeout: 10_000 });
      expect(await page.locator("#plugins tbody tr[data-plugin=console-policy] td.health").textContent()).toBe("serving");
      await page.locator("#plugins tbody tr[data-plugin=ghost] td.health-unavailable").waitFor({ timeout: 15_000 });
      const order = await page.locator('#order [data-point="pre-tool"] li').allTextContents();
      expect(order).toHaveLength(4);
      expect(order[0]).toMatch(/^tagger \(in-process, priority -5,/);
      expect(order[1]).toMatch(/^console-policy \(in-process, priority 0, 2000 ms, fail-closed\)$/);
      expect(order[2]).toMatch(/^ghost \(remote, priority 10, 500 ms, fail-open\)$/);
      expect(order[3]).toMatch(/^console-shadow .*shadow\)$/);
      // The charts hold a latency series per plugin and point that has been called.
      await page.locator("body[data-snapshot=loaded]").waitFor({ timeout: 10_000 });
      // Bars per plugin in the plugins' order: console-policy, console-shadow, tagger, ghost.
      await page.locator('#failures[data-series*="listener_error=1,0,0,0"]').waitFor({ timeout: 10_000 });
      await page.locator("#latency[data-series]").waitFor({ timeout: 10_000 });
      expect((await page.getAttribute("#latency", "data-series"))?.split("|")).toEqual(
        expect.arrayContaining(["console-policy @ pre-tool", "tagger @ pre-tool", "console-shadow @ pre-tool (shadow)"]),
      );
      expect(await page.locator("#plugins tbody tr[data-plugin=console-policy] td:nth-child(6)").textContent()).toBe("1");
      const snapshot = (await (await fetch(`${base}/api/snapshot`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
        latency: { plugin: string; point: string; count: number; shadow: boolean }[];
        failures: { plugin: string; point: string; cause: string; count: number }[];
      };
      expect(snapshot.failures).toContainEqual(expect.objectContaining({ plugin: "console-policy", point: "pre-tool", cause: "listener_error", count: 1 }));
      expect(snapshot.failures.filter((f) => f.plugin !== "ghost").map((f) => f.plugin)).toEqual(["console-policy"]);
      expect(snapshot.latency).toContainEqual(expect.objectContaining({ plugin: "console-policy", point: "pre-tool", count: 4, shadow: false }));
      expect(snapshot.latency).toContainEqual(expect.objectContaining({ plugin: "console-shadow", point: "pre-tool", count: 4, shadow: true }));
      // Fields beyond the columns show generically in the details cell.
      expect(await page.locator("#records tbody tr[data-kind=shadow] td.details", { hasText: "callId=b1" }).textContent()).toContain("verdict=would have denied");
      mkdirSync(join(ROOT, "test/.tmp"), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(problems).toEqual([]);

      // Signing out drops the session: the page is the login form again.
      await page.click("form.logout button");
      await page.waitForURL(/\/login$/);
      await page.goto(`${base}/`);
      expect(new URL(page.url()).pathname).toBe("/login");
    } finally {
      await context.close();
    }
  });

  it("replays recent records to a stream that reconnects with Last-Event-ID", async () => {
    await decide("agent-c", "session-c", "c1", "Write");
    const controller = new AbortController();
    const response = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${TOKEN}`, "last-event-id": "0" }, signal: controller.signal });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    let text = "";
    const decoder = new TextDecoder();
    // Node's web streams are async iterable; the loop ends once the new record has arrived.
    for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (text.includes("session-c")) break;
    }
    controller.abort();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
    // c1 alone is three records: console-policy's call, the decision, console-shadow's call.
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(text).toContain('"sessionId":"session-c"');
  });
});

describe("console config", () => {
  it("is refused without a token, naming the key", async () => {
    const dir = new Workdir();
    try {
      const refused = await startDaemon({ configFile: dir.writeConfig({ listeners: [{ unix: dir.file("hookd.sock") }], console: { listen: "127.0.0.1:0" } }), awaitServing: false });
      const { code } = await refused.exited;
      expect(code).not.toBe(0);
      expect([...refused.stderr.lines, ...refused.stdout.lines].join("\n")).toMatch(/console\.token.*never served without a token/);
    } finally {
      dir.cleanup();
    }
  });
});
