// Where a warm run's stdin, stdout and stderr come from: a Unix socket in a directory only the
// daemon's user can enter. Each forked child connects three times, saying its run's secret token
// and which descriptor the connection becomes; the broker hands the socket to that run.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { Server, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

/** Receives a run's descriptor (0, 1 or 2) as a socket; `rest` is what arrived after the header. */
export type Attach = (fd: 0 | 1 | 2, socket: Socket, rest: Buffer) => void;

const HEADER_LIMIT = 128;

export class StreamBroker {
  readonly #dir = mkdtempSync(join(tmpdir(), "hookd-warm-"));
  readonly path = join(this.#dir, "streams.sock");
  readonly #runs = new Map<string, Attach>();
  readonly #server: Server;
  readonly listening: Promise<void>;

  constructor() {
    this.#server = createServer((socket) => this.#accept(socket));
    this.listening = new Promise((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(this.path, () => resolve());
    });
  }

  /** A new run's token; its connections go to `attach` until `release`. */
  register(attach: Attach): string {
    const token = randomBytes(16).toString("hex");
    this.#runs.set(token, attach);
    return token;
  }

  release(token: string): void {
    this.#runs.delete(token);
  }

  #accept(socket: Socket): void {
    let header = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      header = Buffer.concat([header, chunk]);
      const end = header.indexOf(0x0a);
      if (end < 0) {
        if (header.length > HEADER_LIMIT) socket.destroy();
        return;
      }
      socket.off("data", onData);
      socket.pause();
      const [token = "", fd] = header.subarray(0, end).toString("latin1").split(" ");
      const attach = this.#runs.get(token);
      if (attach === undefined || (fd !== "0" && fd !== "1" && fd !== "2")) return void socket.destroy();
      attach(Number(fd) as 0 | 1 | 2, socket, header.subarray(end + 1));
    };
    socket.on("data", onData);
    socket.on("error", () => socket.destroy());
  }

  close(): void {
    this.#server.close();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
