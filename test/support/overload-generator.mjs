// A load generator in its own process, for the overload tests: floods a daemon with evaluate calls
// from several agents (each keeps `inflight` calls in flight, sending a new one as each ends), then
// opens `halfOpen` connections that never send a byte. Prints "ready" once the half-open
// connections are open and every agent has had a call settle; on SIGTERM prints its tallies (as
// JSON: ok, refused, unavailable, other) and exits. Runs the BUILT @hookd/sdk.
//   node overload-generator.mjs '{"socket":"/path/hookd.sock","agents":2,"inflight":64,"halfOpen":40}'
import { createConnection } from "node:net";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";

const { socket, agents, inflight, halfOpen } = JSON.parse(process.argv[2] ?? "{}");
const tallies = { ok: 0, refused: 0, unavailable: 0, other: 0 };
let stopping = false;
const host = createClient(pb.HookHost, `unix://${socket}`);

function tally(error) {
  if (error === undefined) tallies.ok++;
  else if (error.codeName === "RESOURCE_EXHAUSTED") tallies.refused++;
  else if (error.codeName === "UNAVAILABLE") tallies.unavailable++;
  else tallies.other++;
}

let sequence = 0;
async function caller(agent, settledOnce) {
  while (!stopping) {
    const callId = `${agent}-${sequence++}`;
    const event = {
      session: { sessionId: `${agent}-s`, agentId: agent, cwd: "/" },
      call: { callId, rootCallId: callId, toolName: "Bash", argumentsJson: '{"command":"ls"}', sessionId: `${agent}-s`, turn: 1, step: 1 },
    };
    await host.evaluatePreTool({ event }, { metadata: { "x-hookd-agent": agent }, timeoutMs: 20_000 }).then(
      () => tally(undefined),
      (error) => tally(error),
    );
    settledOnce();
  }
}

const settled = [];
const callers = [];
for (let a = 0; a < agents; a++) {
  let settle;
  settled.push(new Promise((resolve) => (settle = resolve)));
  for (let i = 0; i < inflight; i++) callers.push(caller(`flood-${a}`, () => settle()));
}
await Promise.all(settled);

const silent = [];
for (let i = 0; i < halfOpen; i++) {
  const connection = createConnection(socket);
  connection.on("error", () => {});
  silent.push(connection);
  await new Promise((resolve) => connection.once("connect", resolve).once("error", resolve));
}
process.stdout.write("ready\n");

process.once("SIGTERM", async () => {
  stopping = true;
  await Promise.all(callers);
  for (const connection of silent) connection.destroy();
  closeClient(host);
  process.stdout.write(`${JSON.stringify(tallies)}\n`);
  process.exit(0);
});
