// Bearer tokens (access.tokens, one of them from a tokenFile) through a real daemon process: a
// call without a token or with an unknown one is UNAUTHENTICATED; a known token is served as the
// token's agent, whatever the event claims; a declared agent id that contradicts the token is
// PERMISSION_DENIED; and one agent can never resume another agent's session.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assistantMessage, connectHost } from "@hookd/sdk";
import type { AgentMessage, HostClient, HostedSession } from "@hookd/sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { preTool, rejectionOf, sessionOf } from "./support.js";

// Echoes the identity the daemon bound to the event: in a deny reason, and in session-start context.
const ECHO = `
import { definePlugin, deny, inject, pluginMessage } from "@hookd/sdk";
export default definePlugin({
  name: "echo",
  points: {
    "pre-tool": (e) => deny("agent=" + e.session.agentId),
    "session-start": (e) => inject([pluginMessage("echo", "agent=" + e.session.agentId + " source=" + e.source)]),
  },
});
`;

const ALICE_TOKEN = "alice-token-0123456789abcdef";
const BOB_TOKEN = "bob-token-from-file-0123456789";

let daemon: DaemonProcess;
let secrets: string;
const clients: HostClient[] = [];
const sessions: HostedSession[] = [];

beforeAll(async () => {
  secrets = await mkdtemp(join(tmpdir(), "hookd-tokens-"));
  const bobFile = join(secrets, "bob.token");
  await writeFile(bobFile, `${BOB_TOKEN}\n`, { mode: 0o600 }); // the trailing newline is trimmed
  const module = await writePluginModule("echo", ECHO);
  daemon = await startDaemon({
    config: {
      access: { tokens: [{ agent: "alice", token: ALICE_TOKEN }, { agent: "bob", tokenFile: bobFile }] },
      plugins: [{ name: "echo", kind: "in-process", module }],
    },
  });
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.detach();
  for (const client of clients.splice(0)) client.close();
});

afterAll(async () => {
  await daemon?.stop();
  if (secrets !== undefined) await rm(secrets, { recursive: true, force: true });
});

function connect(options: { token?: string; agentId?: string }): HostClient {
  const client = connectHost(daemon.target, options);
  clients.push(client);
  return client;
}

/** The first step's batch of each session, recorded by its model. */
const firstBatches = new WeakMap<HostedSession, readonly AgentMessage[]>();

function open(client: HostClient, sessionId: string, source: "startup" | "resume"): HostedSession {
  let first: readonly AgentMessage[] | undefined;
  const session: HostedSession = client.openSession(
    { sessionId, source, tools: [] },
    {
      runStep: async ({ messages }) => {
        if (first === undefined) firstBatches.set(session, (first = messages));
        return { assistant: assistantMessage("ok"), toolCalls: [] };
      },
      dispatch: async () => ({}),
    },
  );
  sessions.push(session);
  return session;
}

/**
 * The session-start contexts this stream's first step carried (they are delivered there once,
 * ahead of the prompt): runs one turn and reads its batch without the prompt.
 */
async function contextText(session: HostedSession): Promise<string[]> {
  await session.followUp("hi");
  const batch = firstBatches.get(session) ?? [];
  return batch.slice(0, -1).flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));
}

describe("bearer tokens on evaluate calls", () => {
  it("answers a call without a token with UNAUTHENTICATED naming authorization", async () => {
    const error = await rejectionOf(connect({}).evaluatePreTool({ session: sessionOf("t1"), call: preTool("t1", "c1", "ls") }));
    expect(error.codeName).toBe("UNAUTHENTICATED");
    expect(error.message).toContain("authorization");
  });

  it("does not take x-hookd-agent in place of a token", async () => {
    const error = await rejectionOf(connect({ agentId: "alice" }).evaluatePreTool({ session: sessionOf("t1", "alice"), call: preTool("t1", "c1", "ls") }));
    expect(error.codeName).toBe("UNAUTHENTICATED");
  });

  it("answers an unknown token with UNAUTHENTICATED, also one that only shares a prefix with a real one", async () => {
    for (const token of ["not-a-real-token-0123456789", ALICE_TOKEN.slice(0, -1), `${ALICE_TOKEN}x`, BOB_TOKEN.toUpperCase()]) {
      const error = await rejectionOf(connect({ token }).evaluatePreTool({ session: sessionOf("t1"), call: preTool("t1", "c1", "ls") }));
      expect(error.codeName, token).toBe("UNAUTHENTICATED");
      expect(error.message).toContain("authorization");
    }
  });

  it("serves a known token as the token's agent (inline token and tokenFile)", async () => {
    const alice = await connect({ token: ALICE_TOKEN }).evaluatePreTool({ session: sessionOf("t2"), call: preTool("t2", "c1", "ls") });
    expect(alice.decision).toEqual({ kind: "deny", reason: "agent=alice" });
    expect(alice.trace.decidedBy).toBe("echo");
    const bob = await connect({ token: BOB_TOKEN }).evaluatePreTool({ session: sessionOf("t2"), call: preTool("t2", "c1", "ls") });
    expect(bob.decision).toEqual({ kind: "deny", reason: "agent=bob" });
    // Declaring the token's own agent is fine.
    const declared = await connect({ token: ALICE_TOKEN }).evaluatePreTool({ session: sessionOf("t2", "alice"), call: preTool("t2", "c2", "ls") });
    expect(declared.decision).toEqual({ kind: "deny", reason: "agent=alice" });
  });

  it("refuses an event whose session.agent_id contradicts the token with PERMISSION_DENIED", async () => {
    const error = await rejectionOf(connect({ token: ALICE_TOKEN }).evaluatePreTool({ session: sessionOf("t3", "bob"), call: preTool("t3", "c1", "ls") }));
    expect(error.codeName).toBe("PERMISSION_DENIED");
    expect(error.message).toContain("alice");
  });
});

describe("bearer tokens on hosted sessions", () => {
  it("refuses to open a session without a token (UNAUTHENTICATED)", async () => {
    const error = await rejectionOf(open(connect({}), "h0", "startup").opened);
    expect(error.codeName).toBe("UNAUTHENTICATED");
    expect(error.message).toContain("authorization");
  });

  it("refuses a session with an unknown token (UNAUTHENTICATED)", async () => {
    const error = await rejectionOf(open(connect({ token: "wrong-token-0123456789abcdef" }), "h0", "startup").opened);
    expect(error.codeName).toBe("UNAUTHENTICATED");
  });

  it("opens a session as the token's agent", async () => {
    const session = open(connect({ token: BOB_TOKEN }), "h1", "startup");
    expect((await session.opened).resumed).toBe(false);
    expect(await contextText(session)).toEqual(["agent=bob source=startup"]);
  });

  it("refuses OpenSession.agent_id that contradicts the token with PERMISSION_DENIED", async () => {
    const error = await rejectionOf(open(connect({ token: ALICE_TOKEN, agentId: "bob" }), "h2", "startup").opened);
    expect(error.codeName).toBe("PERMISSION_DENIED");
    expect(error.message).toContain("bob");
    // Nothing was opened for bob under that id: bob can start it afresh.
    const bobs = open(connect({ token: BOB_TOKEN }), "h2", "startup");
    expect((await bobs.opened).resumed).toBe(false);
    expect(await contextText(bobs)).toEqual(["agent=bob source=startup"]);
  });

  it("does not let one agent resume another agent's session", async () => {
    // bob opens "shared" and detaches: it stays resumable, for bob.
    const bobClient = connect({ token: BOB_TOKEN });
    const bobSession = open(bobClient, "shared", "startup");
    expect(await contextText(bobSession)).toEqual(["agent=bob source=startup"]);
    await bobSession.detach();

    // alice asks to resume "shared": she has no such session (NOT_FOUND), and bob's is not hers.
    const refused = await rejectionOf(open(connect({ token: ALICE_TOKEN }), "shared", "resume").opened);
    expect(refused.codeName).toBe("NOT_FOUND");
    expect(refused.message).toContain('session "shared" of agent "alice" is not known');
    // Started afresh, "shared" is a new session of her own.
    const aliceSession = open(connect({ token: ALICE_TOKEN }), "shared", "startup");
    expect((await aliceSession.opened).resumed).toBe(false);
    expect(await contextText(aliceSession)).toEqual(["agent=alice source=startup"]);

    // While alice's "shared" is attached, bob's "shared" is still his to resume; its
    // session-start contexts were delivered once already, so the resumed stream gets none.
    const bobAgain = open(bobClient, "shared", "resume");
    expect((await bobAgain.opened).resumed).toBe(true);
    expect(await contextText(bobAgain)).toEqual([]);

    // And alice cannot reach bob's session by declaring bob's agent id either.
    const error = await rejectionOf(open(connect({ token: ALICE_TOKEN, agentId: "bob" }), "shared", "resume").opened);
    expect(error.codeName).toBe("PERMISSION_DENIED");
  });
});
