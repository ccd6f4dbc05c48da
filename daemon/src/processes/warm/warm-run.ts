// One hook run in a forked child of a fork server, with the outcome a spawn through `/bin/sh -c`
// gives: the same captured streams, timeout and cancellation killing the child's process group,
// the same grace for pipes a background child holds open, and a signal death reported as the
// shell reports it (exit code 128 + the signal's number, since the shell does not exec the script).
import { realpathSync, statSync } from "node:fs";
import type { Socket } from "node:net";
import type { RunResult } from "../hook-run.js";
import { armStops, killGroup, runCapture, settleOnce, stoppedResult } from "../runner.js";
import type { RunSpec } from "../runner.js";
import type { ForkServer } from "./fork-server.js";
import type { PythonPlan } from "./plan.js";
import type { StreamBroker } from "./stream-broker.js";

/** The environment as the shell hands it on: dash exports PWD, keeping an inherited one only when it names the cwd. */
export function shellEnv(env: NodeJS.ProcessEnv, cwd: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  const inherited = out.PWD;
  if (inherited === undefined || directoryId(inherited) !== directoryId(cwd)) out.PWD = physicalPath(cwd);
  return out;
}

function directoryId(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

function physicalPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** How long a stopped run waits for its exit status before it ends without it. */
const STOP_GRACE_MS = 1_000;

export function runWarm(server: ForkServer, broker: StreamBroker, plan: PythonPlan, spec: RunSpec, env: Readonly<Record<string, string>>): Promise<RunResult> {
  const { stdout, stderr, captured } = runCapture(spec);
  if (spec.signal.aborted) return Promise.resolve({ ...captured(undefined), end: "cancelled" });

  return new Promise<RunResult>((resolve) => {
    let pgid: number | undefined;
    let status: number | undefined;
    let stoppedBy: "timeout" | "cancelled" | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let outputsClosed = 0;
    const sockets: Socket[] = [];

    let stopTimer: NodeJS.Timeout | undefined;
    const stop = (why: "timeout" | "cancelled"): void => {
      stoppedBy ??= why;
      if (pgid !== undefined) killGroup(pgid);
      // A fork server that does not answer (stopped, overloaded) must not hold the run past its
      // end: after the grace it ends without the exit status (a late start is killed on arrival).
      stopTimer ??= setTimeout(() => {
        status ??= -9;
        conclude();
      }, STOP_GRACE_MS);
    };
    const disarm = armStops(spec, stop);

    const { finish, settled } = settleOnce(resolve, () => {
      disarm();
      clearTimeout(graceTimer);
      clearTimeout(stopTimer);
      broker.release(token);
      for (const socket of sockets) socket.destroy();
    });
    const conclude = (): void => {
      if (status === undefined) return;
      if (stoppedBy !== undefined) return finish(stoppedResult(stoppedBy, captured(pgid), spec.timeoutMs));
      finish({ ...captured(pgid), end: "exited", code: status >= 0 ? status : 128 - status });
    };

    const token = broker.register((fd, socket, rest) => {
      if (settled()) return void socket.destroy();
      sockets.push(socket);
      socket.on("error", () => {});
      if (fd === 0) return void socket.end(spec.stdin);
      const capture = fd === 1 ? stdout : stderr;
      if (rest.length > 0) capture.push(rest);
      socket.on("data", (chunk: Buffer) => capture.push(chunk));
      socket.on("close", () => {
        outputsClosed += 1;
        if (outputsClosed === 2) conclude();
      });
      socket.resume();
    });

    server.fork(
      { socket: broker.path, token, cwd: spec.cwd, env, argv: plan.argv, script: plan.script, executable: plan.interpreter },
      {
        started: (pid) => {
          pgid = pid;
          if (stoppedBy !== undefined) killGroup(pid);
          spec.onSpawn?.(pid);
        },
        ended: (code) => {
          status = code;
          if (outputsClosed === 2) return conclude();
          // A background child may hold the streams open: let them go after the grace, as a spawn does.
          graceTimer = setTimeout(() => {
            for (const socket of sockets) socket.destroy();
            conclude();
          }, spec.closeGraceMs ?? 250);
        },
        lost: (why) => {
          if (pgid !== undefined) killGroup(pgid);
          finish({ ...captured(pgid), end: "spawn_error", message: `the warm interpreter ${plan.interpreter} ${why}` });
        },
      },
    );
  });
}
