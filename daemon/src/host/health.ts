// The standard grpc.health.v1 service: overall health ("") and one status per served service.
// Watch streams the current status and every change until the caller goes away.
import { status } from "@grpc/grpc-js";
import type { Server } from "@grpc/grpc-js";
import { StatusError, addService, pb } from "@hookd/sdk/internal";

type ServingStatus = pb.health.HealthCheckResponse_ServingStatus;
const { SERVING, NOT_SERVING, SERVICE_UNKNOWN } = pb.health.HealthCheckResponse_ServingStatus;

export class HealthState {
  readonly #statuses = new Map<string, ServingStatus>();
  readonly #watchers = new Set<(service: string, status: ServingStatus) => void>();

  set(service: string, serving: boolean): void {
    const next = serving ? SERVING : NOT_SERVING;
    if (this.#statuses.get(service) === next) return;
    this.#statuses.set(service, next);
    for (const watcher of this.#watchers) watcher(service, next);
  }

  /** Marks every service NOT_SERVING (drain). */
  setAll(serving: boolean): void {
    for (const service of [...this.#statuses.keys()]) this.set(service, serving);
  }

  get(service: string): ServingStatus | undefined {
    return this.#statuses.get(service);
  }

  register(server: Server): void {
    addService(server, pb.health.Health, {
      check: async (request) => {
        const current = this.#statuses.get(request.service);
        if (current === undefined) throw new StatusError(status.NOT_FOUND, `service "${request.service}" is unknown`);
        return { status: current };
      },
      list: async () => ({ statuses: Object.fromEntries([...this.#statuses].map(([name, s]) => [name, { status: s }])) }),
      watch: async (request, call) => {
        let wake: (() => void) | undefined;
        const queue: ServingStatus[] = [this.#statuses.get(request.service) ?? SERVICE_UNKNOWN];
        const watcher = (service: string, next: ServingStatus): void => {
          if (service !== request.service) return;
          queue.push(next);
          wake?.();
        };
        this.#watchers.add(watcher);
        try {
          while (!call.signal.aborted) {
            const next = queue.shift();
            if (next !== undefined) {
              await call.send({ status: next });
              continue;
            }
            await new Promise<void>((resolve) => {
              wake = resolve;
              call.signal.addEventListener("abort", () => resolve(), { once: true });
            });
          }
        } finally {
          this.#watchers.delete(watcher);
        }
      },
    });
  }
}
