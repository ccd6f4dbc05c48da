// deploy/fleet/nginx.conf is what the fleet tests run: nginx itself accepts it (`nginx -t`, the
// real binary, inside a minimal http block with its own prefix), and it hashes on the same key
// and sets the same timeouts as test/fleet/support/nginx.ts. (deploy/fleet/envoy.yaml is marked
// untested: Envoy is not packaged here.) deploy/fleet/hookd.yaml, the instance config beside it,
// passes `hookd check` and turns on what a fleet needs: retries answered once, a drain delay,
// heartbeats below nginx's timeouts.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLI, REPO } from "../support/daemon-process.js";
import { NGINX, SESSION_HASH_KEY } from "./support/nginx.js";

const DEPLOYED = join(REPO, "deploy/fleet/nginx.conf");
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-nginx-t-"));
  await mkdir(join(dir, "tmp"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("deploy/fleet/nginx.conf", () => {
  it("passes nginx -t", async () => {
    const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${dir}/tmp/${kind};`).join("\n");
    const wrapper = `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n${temp}\n  access_log off;\n  include ${DEPLOYED};\n}\n`;
    await writeFile(join(dir, "nginx.conf"), wrapper);
    const { stderr } = await promisify(execFile)(NGINX, ["-t", "-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")]);
    expect(stderr).toContain("test is successful");
  });

  it("hashes on the session header and sets the three idle timeouts the tests shorten", async () => {
    const text = await readFile(DEPLOYED, "utf8");
    expect(text).toContain(`hash ${SESSION_HASH_KEY} consistent;`);
    for (const directive of ["client_body_timeout", "grpc_read_timeout", "grpc_send_timeout"]) expect(text).toMatch(new RegExp(`^\\s*${directive}\\s+\\d+s;`, "m"));
    expect(text).toMatch(/grpc_pass grpc:\/\/hookd;/);
  });
});

describe("deploy/fleet/hookd.yaml", () => {
  it("passes hookd check and sets retries, drain and heartbeats below nginx's idle timeouts", async () => {
    const file = join(REPO, "deploy/fleet/hookd.yaml");
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, "check", "--config", file]);
    expect(stdout).toMatch(/^ok$/m);
    const config = parse(await readFile(file, "utf8")) as { limits: { retryWindowMs: number; drainDelayMs: number }; session: { heartbeatMs: number } };
    const nginxTimeouts = [...(await readFile(DEPLOYED, "utf8")).matchAll(/^\s*(?:client_body_timeout|grpc_read_timeout|grpc_send_timeout)\s+(\d+)s;/gm)].map((match) => Number(match[1]) * 1000);
    expect(config.limits.retryWindowMs).toBeGreaterThan(0);
    expect(config.limits.drainDelayMs).toBeGreaterThan(0);
    expect(nginxTimeouts).toHaveLength(3);
    expect(config.session.heartbeatMs).toBeLessThan(Math.min(...nginxTimeouts));
  });
});
