#!/usr/bin/env node
// Trusts the Codex hooks that run hookd's forwarder, the way Codex's own review does. Codex runs
// no untrusted hook when headless (`codex exec`) and says nothing about it, so a hooks file that
// forwards to hookd silently does nothing until its hooks are trusted. This asks Codex itself
// (`codex app-server`: hooks/list) which hooks it sees and their trust, and for each hook whose
// command runs hookd's forwarder (`hookd hook`, `hookd-hook`, forward/main.js) and is not trusted,
// records Codex's own hash of it (config/value/write: hooks.state."<key>".trusted_hash in
// $CODEX_HOME/config.toml). A changed hook needs trusting again, as in Codex.
//
//   node trust-hookd-hooks.mjs [--check] [--cwd DIR] [--codex PATH]
//     --check   trust nothing: list hookd's hooks and exit 1 (with a warning) when one is untrusted
//     --cwd     the project whose .codex/hooks.json counts too (default: the current directory)
//     --codex   the codex binary (default: codex on PATH)
// Exit: 0 all of hookd's hooks trusted (or none configured), 1 untrusted ones left (--check), 2 error.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { createInterface } from "node:readline";

const HOOKD_COMMAND = /(^|[\s/"'])hookd(-hook)?(\s|$|["'])|hookd(\s|["'])+hook\b|forward\/main\.js\b/;

function options(argv) {
  const out = { check: false, cwd: process.cwd(), codex: "codex" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--check") out.check = true;
    else if (arg === "--cwd" && argv[i + 1]) out.cwd = resolve(argv[++i]);
    else if (arg === "--codex" && argv[i + 1]) out.codex = argv[++i];
    else throw new Error(`unknown or incomplete option ${arg}; usage: trust-hookd-hooks.mjs [--check] [--cwd DIR] [--codex PATH]`);
  }
  return out;
}

/** A JSON-RPC client over `codex app-server`'s stdio (one JSON message a line). */
function appServer(codex, cwd) {
  const child = spawn(codex, ["app-server"], { cwd, stdio: ["pipe", "pipe", "ignore"] });
  const pending = new Map();
  let next = 1;
  const failAll = (error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  child.on("error", (error) => failAll(new Error(`cannot run ${codex}: ${error.message}`)));
  child.on("exit", (code) => failAll(new Error(`codex app-server exited (${code}) before answering`)));
  createInterface({ input: child.stdout }).on("line", (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (waiter === undefined) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`${waiter.method}: ${message.error.message ?? JSON.stringify(message.error)}`));
    else waiter.resolve(message.result);
  });
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  return {
    request(method, params) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { method, resolve, reject });
        send({ id, method, params });
      });
    },
    notify: (method) => send({ method }),
    close: () => child.kill(),
  };
}

async function main() {
  const opts = options(process.argv.slice(2));
  const server = appServer(opts.codex, opts.cwd);
  try {
    await server.request("initialize", { clientInfo: { name: "hookd-trust", version: "0.1.0" } });
    server.notify("initialized");
    const listed = await server.request("hooks/list", { cwds: [opts.cwd] });
    const hooks = (listed.data ?? []).flatMap((entry) => entry.hooks ?? []).filter((hook) => hook.handlerType === "command" && HOOKD_COMMAND.test(hook.command ?? ""));
    const untrusted = hooks.filter((hook) => hook.trustStatus !== "trusted" && hook.trustStatus !== "managed");
    for (const hook of hooks) process.stdout.write(`${hook.trustStatus.padEnd(9)} ${hook.eventName} ${hook.key}\n`);
    if (opts.check) {
      if (untrusted.length > 0) {
        process.stderr.write(`warning: Codex will not run ${untrusted.length} of hookd's hooks headless (codex exec skips untrusted hooks silently); trust them with: node ${process.argv[1]}\n`);
        return 1;
      }
      return 0;
    }
    for (const hook of untrusted) {
      await server.request("config/value/write", { keyPath: `hooks.state."${hook.key}".trusted_hash`, value: hook.currentHash, mergeStrategy: "upsert" });
      process.stdout.write(`trusted   ${hook.eventName} ${hook.key}\n`);
    }
    return 0;
  } finally {
    server.close();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    process.stderr.write(`trust-hookd-hooks: ${error.message}\n`);
    process.exitCode = 2;
  },
);
