// A listen socket with a configured group, in a directory hookd creates: the directory lets that
// group traverse it (0750, chgrp), so a process of another user in the group can connect; an
// existing directory is left as the admin made it. Runs as root (it chowns and switches uid).
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { Workdir, pluginEntry, startDaemon, which } from "./support.js";
import type { RunningDaemon } from "./support.js";

const asRoot = process.getuid?.() === 0 && which("setpriv") !== undefined;

let work: Workdir | undefined;
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  daemon = undefined;
  work?.cleanup();
  work = undefined;
});

function gidOf(group: string): number {
  return Number(execFileSync("getent", ["group", group], { encoding: "utf8" }).split(":")[2]);
}

async function serve(dir: Workdir, socket: string, group: string): Promise<void> {
  daemon = await startDaemon({ configFile: dir.writeConfig({ listeners: [{ unix: socket, mode: "0660", group }], plugins: [pluginEntry("policy")] }), awaitServing: false });
  await daemon.waitLog("hookd ready");
}

/** Connects to the socket as uid nobody with only `gid`; "connected" or the error code. */
function connectAs(gid: number, socket: string): Promise<string> {
  const script = `require("node:net").connect(process.argv[1]).on("connect", () => { console.log("connected"); process.exit(0); }).on("error", (e) => { console.log(e.code); process.exit(0); });`;
  const child = spawn("setpriv", ["--reuid=nobody", `--regid=${gid}`, "--clear-groups", process.execPath, "-e", script, socket], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", () => resolve(out.trim()));
  });
}

describe.skipIf(!asRoot)("a socket with a group", () => {
  it("is put in a created directory of mode 0750 owned by that group, and a member of the group can connect", async () => {
    work = new Workdir();
    chmodSync(work.path, 0o755); // the test's own directory stands for /run: traversable by all
    const socket = work.file("run/hookd/hookd.sock");
    const gid = gidOf("daemon");
    await serve(work, socket, "daemon");

    for (const dir of [work.file("run"), work.file("run/hookd")]) {
      const stat = statSync(dir);
      expect({ dir, mode: (stat.mode & 0o777).toString(8), gid: stat.gid }).toEqual({ dir, mode: "750", gid });
    }
    const stat = statSync(socket);
    expect({ mode: (stat.mode & 0o777).toString(8), gid: stat.gid }).toEqual({ mode: "660", gid });
    expect(await connectAs(gid, socket)).toBe("connected");
    // Outside the group, the same user is kept out.
    expect(await connectAs(gidOf("nogroup"), socket)).toBe("EACCES");
  });

  it("leaves an existing directory as the admin made it", async () => {
    work = new Workdir();
    const dir = work.file("private");
    mkdirSync(dir, { mode: 0o700 });
    await serve(work, `${dir}/hookd.sock`, "daemon");
    const stat = statSync(dir);
    expect({ mode: (stat.mode & 0o777).toString(8), gid: stat.gid }).toEqual({ mode: "700", gid: 0 });
  });
});
