// The daemon sources what a plugin contributes: a remote plugin may leave `source` unset on the
// messages its decision adds (entered, steering, additional contexts), and they arrive sourced to
// the plugin's configured name; a message it hands back from the event keeps its source. The fake
// plugin's raw handlers answer exactly the bytes a plugin written from the proto alone would send.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { UntypedHandleCall } from "@grpc/grpc-js";
import { afterEach, beforeEach, expect, it } from "vitest";
import { events, toolSuccess } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";
import { callListener } from "../src/engine/invoke.js";
import type { ContextFactory } from "../src/engine/invoke.js";
import type { Listener } from "../src/engine/listener.js";
import { RemotePlugin } from "../src/plugins/index.js";
import { answering, bytes, serveFakePlugin } from "./fixtures/fake-plugin.js";

let dir: string;
let cleanups: (() => Promise<void> | void)[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-sourcing-"));
  cleanups = [];
});
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

/** A message as a plugin author may write it: role and text, no source. */
const unsourced = (said: string): MessageInitShape<typeof pb.MessageSchema> => ({ role: pb.Role.USER, content: [{ block: { case: "text", value: said } }] });

async function plugin(handlers: Record<string, UntypedHandleCall>, points: readonly pb.Point[]): Promise<RemotePlugin> {
  const address = `unix://${join(dir, "raw.sock")}`;
  const server = await serveFakePlugin(address, { points, raw: handlers });
  cleanups.push(() => server.close());
  const remote = new RemotePlugin({ name: "configured-name", target: address, health: { initialBackoffMs: 10, maxBackoffMs: 100 } });
  cleanups.push(() => remote.close());
  await remote.start();
  return remote;
}

function listener<P extends PointName>(remote: RemotePlugin, point: P): Listener<P> {
  const found = remote.listeners().find((l) => l.point === point);
  if (found === undefined) throw new Error(`no ${point} listener`);
  return found as Listener<P>;
}

const ctx: ContextFactory<PointName> = (abort) => ({ signal: abort.signal, plugin: "configured-name", next: () => Promise.reject(new Error("none")) });
const open = () => ({ signal: new AbortController().signal });
const byPlugin = { kind: "plugin", name: "configured-name" };

it("sources unsourced entered messages, steering and contexts to the plugin's configured name", async () => {
  const prompt = events.preStep("hello");
  const given = { id: "m1", role: pb.Role.USER, content: [{ block: { case: "text" as const, value: "hello" } }], source: { kind: { case: "user" as const, value: {} } } };
  const remote = await plugin(
    {
      preStep: answering(bytes(pb.PreStepResponseSchema, { decision: { decision: { case: "enter", value: { messages: [given, unsourced("added")] } } } })),
      postTool: answering(bytes(pb.PostToolResponseSchema, { decision: { decision: { case: "accept", value: { additionalContexts: [unsourced("context")] } } } })),
      turnStopping: answering(bytes(pb.TurnStoppingResponseSchema, { decision: { decision: { case: "steer", value: { messages: [unsourced("go on")] } } } })),
    },
    [pb.Point.PRE_STEP, pb.Point.POST_TOOL, pb.Point.TURN_STOPPING],
  );
  const event = { ...prompt, messages: [{ ...prompt.messages[0], id: "m1" }] } as typeof prompt;
  const entered = await callListener(listener(remote, "pre-step"), event, ctx, open());
  expect(entered).toMatchObject({ answer: { kind: "enter", messages: [{ source: { kind: "user" } }, { role: "user", source: byPlugin }] }, invocation: { outcome: "answered" } });

  const reviewed = await callListener(listener(remote, "post-tool"), events.postTool("Read", {}, toolSuccess("ok")), ctx, open());
  expect(reviewed).toMatchObject({ answer: { kind: "accept", additionalContexts: [{ source: byPlugin }] }, invocation: { outcome: "answered" } });

  const steered = await callListener(listener(remote, "turn-stopping"), events.turnStopping(), ctx, open());
  expect(steered).toMatchObject({ answer: { kind: "steer", messages: [{ source: byPlugin }] }, invocation: { outcome: "answered" } });
});
