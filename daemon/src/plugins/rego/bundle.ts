// Reads an OPA bundle built for Wasm (`opa build -t wasm`): a gzipped tar holding /policy.wasm and
// /data.json. Owns the unpacking and the errors for a file that is not such a bundle, each naming
// the config key that points at it.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { HookdError } from "@hookd/sdk";

export interface RegoBundle {
  /** The compiled policy (WebAssembly). */
  readonly wasm: Uint8Array;
  /** The bundle's base document (`data`), or undefined when it has none. */
  readonly data: unknown;
}

const BLOCK = 512;
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

/** Reads the bundle at `path`; `key` ("plugins.NAME.bundle") names the config key in every error. */
export function readBundle(path: string, key: string): RegoBundle {
  const fail = (detail: string): HookdError => new HookdError("invalid_plugin", `${key}: ${path}: ${detail}`);
  let packed: Buffer;
  try {
    packed = readFileSync(path);
  } catch (error) {
    throw fail(`cannot be read: ${(error as Error).message}`);
  }
  let tar: Buffer;
  try {
    tar = gunzipSync(packed);
  } catch {
    throw fail("not an OPA bundle (expected the .tar.gz of `opa build -t wasm -e ENTRYPOINT`): not gzip data");
  }
  const files = untar(tar, fail);
  const wasm = files.get("policy.wasm");
  if (wasm === undefined) {
    throw fail("the bundle holds no policy.wasm: it was not built for Wasm (build it with `opa build -t wasm -e ENTRYPOINT`)");
  }
  if (!WASM_MAGIC.every((byte, i) => wasm[i] === byte)) throw fail("policy.wasm is not WebAssembly");
  return { wasm, data: readData(files.get("data.json"), fail) };
}

function readData(text: Buffer | undefined, fail: (detail: string) => HookdError): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text.toString("utf8")) as unknown;
  } catch (error) {
    throw fail(`data.json is not JSON: ${(error as Error).message}`);
  }
}

/** The regular files of a tar archive by name ("./" and "/" prefixes dropped); OPA writes plain ustar. */
function untar(tar: Buffer, fail: (detail: string) => HookdError): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    // Two zero blocks end the archive; one is enough to stop reading.
    if (header.every((byte) => byte === 0)) return files;
    if (header.toString("latin1", 257, 262) !== "ustar" && !validChecksum(header)) throw fail("not an OPA bundle: the gzip data is not a tar archive");
    const size = Number.parseInt(header.toString("latin1", 124, 136).replace(/\0.*$/s, "").trim() || "0", 8);
    if (!Number.isSafeInteger(size) || offset + BLOCK + size > tar.length) throw fail("not an OPA bundle: the tar archive is truncated");
    const type = header.toString("latin1", 156, 157);
    if (type === "0" || type === "\0") {
      const prefix = cString(header, 345, 155);
      const name = `${prefix === "" ? "" : `${prefix}/`}${cString(header, 0, 100)}`.replace(/^(\.?\/)+/, "");
      files.set(name, tar.subarray(offset + BLOCK, offset + BLOCK + size));
    }
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  if (files.size === 0) throw fail("not an OPA bundle: the gzip data is not a tar archive");
  return files;
}

function cString(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.toString("utf8", 0, end === -1 ? length : end);
}

/** A pre-POSIX tar header: the checksum (field 148, the header's byte sum with itself as spaces). */
function validChecksum(header: Buffer): boolean {
  const stored = Number.parseInt(header.toString("latin1", 148, 156).replace(/\0.*$/s, "").trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
  return stored === sum;
}
