// A free loopback TCP port for a server a test starts (nginx, HAProxy, a collector, an agent's
// HTTP endpoint): bound once by the kernel's choice, released, handed out.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
