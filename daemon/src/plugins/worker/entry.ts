// The piscina task handler that runs inside each plugin worker: loads plugin modules (cached per
// worker), calls one handler with a frozen copy of the event and a context whose signal follows
// the call's shared abort state, and answers plain data. Never throws for a plugin's fault: a
// throwing handler, a missing module or an aborted call each come back as their own reply.
// Runs as JavaScript from daemon/dist (see pool.ts); imports nothing but node, @hookd/sdk and
// the resolve hook that gives plugin modules the daemon's @hookd/sdk (../sdk-resolution.ts).
import { HookdError, POINTS, POINT_TABLE, deepFreeze, definePlugin } from "@hookd/sdk";
import type { PluginDefinition, PluginSpec, PointName } from "@hookd/sdk";
import { captureConsole, createLogger } from "../../log.js";
import { moduleURL } from "../module-version.js";
import { resolveSdkForPlugins } from "../sdk-resolution.js";
import { CALL_STATE, decodeValue, encodeValue } from "./protocol.js";
import type { PluginManifest, SubscriptionManifest, ThrownError, WorkerReply, WorkerTask } from "./protocol.js";

type Handler = (event: unknown, ctx: unknown) => unknown;

// Atomics.waitAsync is in Node 20 but not in the ES2023 lib this project compiles against.
type WaitAsync = (array: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** Points whose handlers get a `next()` (waterfalls and around-dispatch wrappers); in a worker it refuses. */
const NEXT_POINTS: ReadonlySet<PointName> = new Set(POINTS.filter((point) => POINT_TABLE[point].mode === "waterfall" || POINT_TABLE[point].mode === "around"));

/** Loaded definitions by module URL: one per version of a module (a reload's changed file is a new URL). */
const modules = new Map<string, Promise<PluginDefinition>>();

// What a plugin prints in this worker becomes a labelled log line naming the plugin whose call is
// running (a worker runs one call at a time), never raw text among the daemon's log lines.
const consoleFields = { plugin: "" };
const instanceId = process.env.HOOKD_INSTANCE_ID ?? "";
captureConsole(createLogger({}, instanceId === "" ? {} : { instanceId }), consoleFields);

function loadPlugin(modulePath: string, version: string | undefined): Promise<PluginDefinition> {
  const url = moduleURL(modulePath, version);
  let loading = modules.get(url);
  if (loading === undefined) {
    // Each worker has its own module hooks on Node 20 (the main thread's do not reach it).
    resolveSdkForPlugins();
    loading = import(url).then((mod: { default?: unknown }) => asDefinition(mod.default, modulePath));
    // A failed load is not cached, so a module fixed on disk loads on a later call.
    loading.catch(() => modules.delete(url));
    modules.set(url, loading);
  }
  return loading;
}

/** The default export: a definition made with definePlugin, or a spec to define here. */
function asDefinition(exported: unknown, modulePath: string): PluginDefinition {
  if (typeof exported !== "object" || exported === null) {
    throw new HookdError("invalid_plugin", `${modulePath}: the default export must be a plugin made with definePlugin() or a plugin spec`);
  }
  const candidate = exported as Partial<PluginDefinition> & Partial<PluginSpec>;
  if (candidate.points !== undefined) return definePlugin(candidate as PluginSpec);
  if (typeof candidate.name === "string" && typeof candidate.subscriptions === "object" && candidate.subscriptions !== null) {
    return candidate as PluginDefinition;
  }
  throw new HookdError("invalid_plugin", `${modulePath}: the default export has neither "points" (a spec) nor "subscriptions" (a definition)`);
}

function manifestOf(definition: PluginDefinition): PluginManifest {
  const subscriptions: Partial<Record<PointName, SubscriptionManifest>> = {};
  for (const [point, sub] of Object.entries(definition.subscriptions) as [PointName, SubscriptionManifest][]) {
    const { tools, priority, deadlineMs, failurePolicy } = sub;
    subscriptions[point] = {
      ...(tools === undefined ? {} : { tools: [...tools] }),
      ...(priority === undefined ? {} : { priority }),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
      ...(failurePolicy === undefined ? {} : { failurePolicy }),
    };
  }
  return { name: definition.name, version: definition.version, sideEffectFree: definition.sideEffectFree, subscriptions };
}

function thrown(error: unknown): ThrownError {
  if (error instanceof HookdError) return { name: error.name, message: error.message, code: error.code };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

/** A signal that aborts when the main thread moves the call's state to CANCELLED or DEADLINE. */
function watchAbort(state: Int32Array): AbortController {
  const controller = new AbortController();
  const abortFor = (value: number): void => {
    if (value === CALL_STATE.DEADLINE) controller.abort(new DOMException("the plugin call's deadline passed", "TimeoutError"));
    else if (value === CALL_STATE.CANCELLED) controller.abort(new DOMException("the plugin call was cancelled", "AbortError"));
  };
  const waiting = waitAsync(state, 0, CALL_STATE.RUNNING);
  if (!waiting.async) abortFor(Atomics.load(state, 0));
  else void waiting.value.then(() => abortFor(Atomics.load(state, 0)));
  return controller;
}

/** Marks the call settled; the notify also resolves this worker's own pending waiter. */
function settle(state: Int32Array): void {
  if (Atomics.compareExchange(state, 0, CALL_STATE.RUNNING, CALL_STATE.SETTLED) === CALL_STATE.RUNNING) Atomics.notify(state, 0);
}

async function call(task: Extract<WorkerTask, { op: "call" }>): Promise<WorkerReply> {
  let definition: PluginDefinition;
  try {
    definition = await loadPlugin(task.module, task.version);
  } catch (error) {
    return { type: "unavailable", message: `cannot load ${task.module}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (definition.name !== task.plugin) {
    return { type: "unavailable", message: `${task.module} defines plugin ${definition.name}, not ${task.plugin}` };
  }
  const handler = definition.subscriptions[task.point]?.handler as Handler | undefined;
  if (typeof handler !== "function") return { type: "unavailable", message: `plugin ${task.plugin} has no handler at ${task.point}` };

  const controller = watchAbort(task.state);
  try {
    if (controller.signal.aborted) return { type: "aborted" };
    const event = deepFreeze(decodeValue(task.event));
    const plugin = definition.name;
    const ctx = NEXT_POINTS.has(task.point)
      ? { signal: controller.signal, plugin, next: () => nextUnavailable(plugin, task.point) }
      : { signal: controller.signal, plugin };
    let answer: unknown;
    consoleFields.plugin = plugin;
    try {
      answer = await handler(event, Object.freeze(ctx));
    } catch (error) {
      return { type: "error", error: thrown(error) };
    }
    try {
      return { type: "answer", answer: encodeValue(answer, "answer") };
    } catch (error) {
      return { type: "error", error: { name: "TypeError", message: `${(error as Error).message}; a worker plugin must answer plain data` } };
    }
  } finally {
    settle(task.state);
  }
}

function nextUnavailable(plugin: string, point: PointName): Promise<never> {
  const rejected = Promise.reject(
    new HookdError(
      "plugin_error",
      `plugin ${plugin} at ${point}: next() is not available to plugins running in a worker pool; return pass() to defer to the next plugin`,
    ),
  );
  // Handled here so a handler that drops the promise does not crash its worker; awaiting it still throws.
  rejected.catch(() => {});
  return rejected;
}

/** The piscina task function. */
export default async function runTask(task: WorkerTask): Promise<WorkerReply> {
  switch (task.op) {
    case "describe":
      try {
        return { type: "manifest", manifest: manifestOf(await loadPlugin(task.module, task.version)) };
      } catch (error) {
        return { type: "unavailable", message: `cannot load ${task.module}: ${error instanceof Error ? error.message : String(error)}` };
      }
    case "call":
      return call(task);
  }
}
