// What the bench's helper processes share: reading a required `--name value` argument, and
// announcing readiness ("ready" on stdout) then closing on SIGTERM/SIGINT.
import type { Server } from "@grpc/grpc-js";

export function argument(name: string, fallback?: string): string {
  const argv = process.argv.slice(2);
  const index = argv.indexOf(name);
  const value = index === -1 ? fallback : argv[index + 1];
  if (value === undefined || value === "") throw new Error(`missing ${name} VALUE`);
  return value;
}

export function serveUntilSignal(server: Server): void {
  const stop = (): void => {
    server.tryShutdown(() => process.exit(0));
    setTimeout(() => process.exit(0), 1_000).unref();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  process.stdout.write("ready\n");
}
