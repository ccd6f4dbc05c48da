// Unix datagrams from the daemon's own process: what sd_notify and the journal's native protocol
// need and Node cannot do (its dgram module has no AF_UNIX). libc's socket/sendto are called
// through koffi, an FFI library that ships prebuilt binaries, so nothing forks per message and the
// sender is the main PID (NotifyAccess=main). Owns one close-on-exec socket; knows no protocol.
import koffi from "koffi";

const AF_UNIX = 1;
const SOCK_DGRAM = 2;
const SOCK_CLOEXEC = 0o2000000;
const MSG_DONTWAIT = 0x40;
const MSG_NOSIGNAL = 0x4000;
/** sizeof(struct sockaddr_un): a 2-byte family and 108 bytes of path. */
const SUN_PATH_BYTES = 108;

interface Libc {
  readonly socket: (domain: number, type: number, protocol: number) => number;
  readonly sendto: (fd: number, buffer: Buffer, length: number, flags: number, address: Buffer, addressLength: number) => number;
  readonly close: (fd: number) => number;
}

let libc: Libc | undefined;

function loadLibc(): Libc {
  if (libc !== undefined) return libc;
  const lib = koffi.load("libc.so.6");
  libc = {
    socket: lib.func("int socket(int domain, int type, int protocol)") as Libc["socket"],
    sendto: lib.func("intptr_t sendto(int fd, const void *buf, size_t len, int flags, const void *addr, uint32_t addrlen)") as Libc["sendto"],
    close: lib.func("int close(int fd)") as Libc["close"],
  };
  return libc;
}

/** struct sockaddr_un for a path; "@name" is the abstract namespace (a leading NUL byte). */
function socketAddress(path: string): { readonly address: Buffer; readonly length: number } {
  const name = path.startsWith("@") ? Buffer.concat([Buffer.from([0]), Buffer.from(path.slice(1))]) : Buffer.from(path);
  if (name.length >= SUN_PATH_BYTES) throw new Error(`socket path too long (${name.length} bytes): ${path}`);
  const address = Buffer.alloc(2 + SUN_PATH_BYTES);
  address.writeUInt16LE(AF_UNIX, 0);
  name.copy(address, 2);
  // A path socket's address includes its terminating NUL; an abstract one is exactly its bytes.
  return { address, length: 2 + name.length + (path.startsWith("@") ? 0 : 1) };
}

/** One Unix datagram socket sending to one address. Sends are synchronous and never block. */
export class UnixDatagramSender {
  readonly #libc: Libc;
  readonly #fd: number;
  readonly #address: Buffer;
  readonly #length: number;

  /** Throws when libc cannot be reached or the socket cannot be made. */
  constructor(readonly path: string) {
    this.#libc = loadLibc();
    const { address, length } = socketAddress(path);
    this.#address = address;
    this.#length = length;
    this.#fd = this.#libc.socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (this.#fd < 0) throw new Error("socket(AF_UNIX, SOCK_DGRAM) failed");
  }

  /** Sends one datagram; false when the kernel refused it (no listener, queue full). */
  send(message: string | Buffer): boolean {
    const bytes = typeof message === "string" ? Buffer.from(message) : message;
    return this.#libc.sendto(this.#fd, bytes, bytes.length, MSG_DONTWAIT | MSG_NOSIGNAL, this.#address, this.#length) === bytes.length;
  }

  close(): void {
    this.#libc.close(this.#fd);
  }
}
