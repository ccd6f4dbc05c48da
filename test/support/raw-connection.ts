// Raw client connections for the tests of hookd's accept loop: one that sends some bytes of the
// HTTP/2 client preface and then nothing, and one that sends the whole preface and waits until the
// server has read it. Each comes with its 'close' as a promise.
import { createConnection } from "node:net";
import type { Socket } from "node:net";

export const MAGIC = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
/** An empty SETTINGS frame: length 0, type 4, no flags, stream 0. */
const SETTINGS = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);
/** The server's SETTINGS ack: it has read the client's SETTINGS. */
const SETTINGS_ACK = Buffer.from([0, 0, 0, 4, 1, 0, 0, 0, 0]);

export interface RawConnection {
  readonly socket: Socket;
  readonly closed: Promise<void>;
}

export type RawTarget = string | { readonly host: string; readonly port: number };

/** `socket` with its 'close' as a promise; errors (a reset) are expected. */
export function watched(socket: Socket): RawConnection {
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, closed };
}

/** A plain connection that sends `bytes` and then nothing; resolved once connected. */
export async function sending(to: RawTarget, bytes: Buffer): Promise<RawConnection> {
  const socket = typeof to === "string" ? createConnection(to) : createConnection(to.port, to.host);
  const result = watched(socket);
  socket.resume(); // read (and drop) what the server sends, so that its end is seen
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  if (bytes.length > 0) socket.write(bytes);
  return result;
}

/** A plain connection that sends the whole preface; resolved once the server has read it (its SETTINGS ack). */
export async function prefaced(to: RawTarget): Promise<RawConnection> {
  const result = await sending(to, Buffer.concat([MAGIC, SETTINGS]));
  let received = Buffer.alloc(0);
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      if (!received.includes(SETTINGS_ACK)) return;
      result.socket.off("data", onData);
      resolve();
    };
    result.socket.on("data", onData);
    void result.closed.then(() => reject(new Error("the server closed a connection that sent its preface")));
  });
  return result;
}
