// Test PKI made with the system `openssl` at test time: a CA, a server certificate for
// localhost / 127.0.0.1 (subjectAltName), a client certificate signed by the same CA, and a
// "rogue" CA with its own server and client certificates that the first CA does not vouch for.
// A missing `openssl` is an error (the suite fails), never a skip.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface CertPair {
  readonly cert: string;
  readonly key: string;
}

export interface TestPki {
  readonly dir: string;
  /** The trusted CA's certificate file. */
  readonly ca: string;
  /** Signed by `ca`, for localhost and 127.0.0.1. */
  readonly server: CertPair;
  /** Signed by `ca`. */
  readonly client: CertPair;
  /** Another CA that `ca` knows nothing of. */
  readonly rogueCa: string;
  /** Signed by `rogueCa`, for localhost and 127.0.0.1. */
  readonly rogueServer: CertPair;
  /** Signed by `rogueCa`. */
  readonly rogueClient: CertPair;
  read(file: string): Promise<Buffer>;
  remove(): Promise<void>;
}

async function openssl(cwd: string, args: readonly string[]): Promise<void> {
  try {
    await run("openssl", args, { cwd });
  } catch (error) {
    const detail = error as { code?: unknown; stderr?: unknown; message: string };
    if (detail.code === "ENOENT") throw new Error("openssl is required by test/security (not found on PATH)", { cause: error });
    const stderr = typeof detail.stderr === "string" ? detail.stderr : detail.message;
    throw new Error(`openssl ${args.join(" ")} failed: ${stderr}`, { cause: error });
  }
}

const KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

async function makeCa(dir: string, name: string): Promise<void> {
  await openssl(dir, [
    "req", "-x509", ...KEY, "-keyout", `${name}.key`, "-out", `${name}.crt`, "-days", "2", "-subj", `/CN=${name}`,
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
  ]);
}

async function makeLeaf(dir: string, ca: string, name: string, usage: "serverAuth" | "clientAuth"): Promise<CertPair> {
  const ext = join(dir, `${name}.ext`);
  const lines = ["basicConstraints=CA:FALSE", "keyUsage=critical,digitalSignature,keyEncipherment", `extendedKeyUsage=${usage}`];
  if (usage === "serverAuth") lines.push("subjectAltName=DNS:localhost,IP:127.0.0.1");
  await writeFile(ext, lines.join("\n") + "\n");
  await openssl(dir, ["req", "-new", ...KEY, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`]);
  await openssl(dir, [
    "x509", "-req", "-in", `${name}.csr`, "-CA", `${ca}.crt`, "-CAkey", `${ca}.key`, "-set_serial", `0x${randomBytes(8).toString("hex")}`,
    "-out", `${name}.crt`, "-days", "2", "-sha256", "-extfile", ext,
  ]);
  return { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
}

export async function makePki(): Promise<TestPki> {
  const dir = await mkdtemp(join(tmpdir(), "hookd-pki-"));
  try {
    await openssl(dir, ["version"]);
    await makeCa(dir, "ca");
    await makeCa(dir, "rogue-ca");
    const [server, client, rogueServer, rogueClient] = await Promise.all([
      makeLeaf(dir, "ca", "server", "serverAuth"),
      makeLeaf(dir, "ca", "client", "clientAuth"),
      makeLeaf(dir, "rogue-ca", "rogue-server", "serverAuth"),
      makeLeaf(dir, "rogue-ca", "rogue-client", "clientAuth"),
    ]);
    // The leaves really chain to their own CA only (guards against a PKI that trusts everything).
    await openssl(dir, ["verify", "-CAfile", "ca.crt", "server.crt", "client.crt"]);
    await openssl(dir, ["verify", "-CAfile", "rogue-ca.crt", "rogue-server.crt", "rogue-client.crt"]);
    return {
      dir,
      ca: join(dir, "ca.crt"),
      server,
      client,
      rogueCa: join(dir, "rogue-ca.crt"),
      rogueServer,
      rogueClient,
      read: (file) => readFile(file),
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
