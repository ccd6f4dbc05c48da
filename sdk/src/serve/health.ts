// The standard grpc.health.v1 service of a plugin server: SERVING for the server ("") and for
// hookd.v1.HookPlugin until shutdown begins, NOT_SERVING after. Watch streams follow changes and
// end when the server shuts down, so a graceful shutdown never waits on them.
import { status } from "@grpc/grpc-js";
import type { ServiceImpl } from "../grpc/server.js";
import { StatusError } from "../grpc/status.js";
import * as pb from "../proto.js";

const { HealthCheckResponse_ServingStatus: ServingStatus } = pb.health;
type ServingStatus = pb.health.HealthCheckResponse_ServingStatus;

export class HealthState {
  #serving = true;
  #closed = false;
  readonly #waiters = new Set<() => void>();

  /** Names with a status: the whole server and the plugin service. */
  static readonly SERVICES: readonly string[] = ["", pb.HookPlugin.typeName];

  /** Reports NOT_SERVING and ends every Watch stream. */
  shutDown(): void {
    this.#serving = false;
    this.#closed = true;
    for (const wake of this.#waiters) wake();
  }

  #statusOf(service: string): ServingStatus | undefined {
    if (!HealthState.SERVICES.includes(service)) return undefined;
    return this.#serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
  }

  /** Resolves true at the next change, false when the signal aborts first. */
  #changed(signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (changed: boolean): void => {
        this.#waiters.delete(wake);
        signal.removeEventListener("abort", onAbort);
        resolve(changed);
      };
      const wake = (): void => done(true);
      const onAbort = (): void => done(false);
      if (signal.aborted) return resolve(false);
      this.#waiters.add(wake);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  service(): Partial<ServiceImpl<typeof pb.health.Health>> {
    return {
      check: async (request) => {
        const current = this.#statusOf(request.service);
        if (current === undefined) throw new StatusError(status.NOT_FOUND, `unknown service ${JSON.stringify(request.service)}`);
        return { status: current };
      },
      list: async () => ({
        statuses: Object.fromEntries(HealthState.SERVICES.map((service) => [service, { status: this.#statusOf(service) ?? ServingStatus.UNKNOWN }])),
      }),
      watch: async (request, call) => {
        let last: ServingStatus | undefined;
        for (;;) {
          const current = this.#statusOf(request.service) ?? ServingStatus.SERVICE_UNKNOWN;
          if (current !== last) await call.send({ status: current });
          last = current;
          if (this.#closed || !(await this.#changed(call.signal))) return;
        }
      },
    };
  }
}
