// A hosted-loop agent inside the nspawn container (check.sh): opens one session on hookd.socket,
// runs turn 1 (one Bash tool call), waits for $OUT/agent-go, runs turn 2, then holds the session
// open until the daemon ends the stream. Every step is a line in $OUT/agent.log.
// usage: node agent.mjs OUT
import { appendFileSync, existsSync } from "node:fs";
import { assistantMessage, connectHost } from "/opt/hookd/sdk/dist/index.js";

const out = process.argv[2];
const log = (line) => appendFileSync(`${out}/agent.log`, `${line}\n`);
const until = async (path) => {
  while (!existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 100));
};

// No reconnect: this agent reports the status the daemon's stop ends its stream with (the SDK
// would otherwise resume the session, and a socket-activated restart would refuse it NOT_FOUND).
const client = connectHost("unix:///run/hookd/hookd.sock", { agentId: "nspawn-agent", reconnect: { maxAttempts: 0 } });
const session = client.openSession(
  { sessionId: "held", tools: [{ name: "Bash", description: "", inputSchemaJson: "", concurrencySafe: false }] },
  {
    runStep: async ({ step }) =>
      step === 1
        ? { assistant: assistantMessage("listing"), toolCalls: [{ callId: `c${Date.now()}`, toolName: "Bash", arguments: { command: "ls" } }] }
        : { assistant: assistantMessage("done"), toolCalls: [] },
    dispatch: async (call) => ({ ran: call.arguments }),
  },
);
session.ended.then((status) => {
  log(`ended ${status === undefined ? "clean" : status.code}`);
  client.close();
});
await session.opened;
log("opened");
log(`turn1 ${(await session.followUp("one")).reason}`);
await until(`${out}/agent-go`);
log(`turn2 ${(await session.followUp("two")).reason}`);
