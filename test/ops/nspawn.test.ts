// Opt-in (HOOKD_TEST_NSPAWN=1, root, package systemd-container): boots real systemd in
// systemd-nspawn with deploy/hookd.socket and deploy/hookd.service (test/ops/nspawn/run.sh), and
// checks what check.sh saw inside: socket activation on the first connection, Type=notify
// readiness with the status text, the watchdog, the service user and socket modes, reload
// through ExecReload, the audit log, and a clean stop.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support.js";

const run = promisify(execFile);
const enabled = process.env.HOOKD_TEST_NSPAWN === "1";

describe.runIf(enabled)("hookd under real systemd (systemd-nspawn)", () => {
  it("is socket-activated, reports ready, reloads and stops cleanly", async () => {
    const out = mkdtempSync(join(tmpdir(), "hookd-nspawn-"));
    try {
      await run("bash", [join(ROOT, "test/ops/nspawn/run.sh"), out], { timeout: 200_000, maxBuffer: 16 * 1024 * 1024 });
      const report = readFileSync(join(out, "out/report.txt"), "utf8");
      const steps = new Map(
        report
          .split("\n")
          .filter((line) => line.startsWith("STEP "))
          .map((line) => {
            const [, name = "", ...value] = line.split(" ");
            return [name, value.join(" ")] as const;
          }),
      );
      const context = `report:\n${report}`;
      expect(steps.get("socket-active"), context).toBe("active");
      expect(steps.get("service-before-connect"), context).toBe("inactive");
      expect(steps.get("evaluate"), context).toContain('"deny":{"reason":"nobash"}');
      expect(steps.get("service-after-connect"), context).toBe("active/running");
      expect(steps.get("health"), context).toBe('{"status":"SERVING"}');
      expect(steps.get("status-text"), context).toBe("serving on unix:///run/hookd/admin.sock, systemd:agents");
      expect(steps.get("watchdog-usec"), context).toBe("30s");
      expect(steps.get("listeners"), context).toBe("listeners unix:///run/hookd/admin.sock, systemd:agents");
      expect(steps.get("socket-mode"), context).toBe("660");
      expect(steps.get("admin-mode"), context).toBe("600");
      expect(steps.get("user"), context).toBe("hookd");
      expect(steps.get("reload-exit"), context).toBe("0");
      expect(steps.get("generation"), context).toBe("config generation 1");
      expect(steps.get("state-after-reload"), context).toBe("active/running");
      expect(Number(steps.get("audit-lines")), context).toBeGreaterThanOrEqual(2);
      expect(steps.get("stop-result"), context).toBe("inactive/success");
      expect(steps.get("journal-stopped"), context).toBe("1");
      expect(report, context).toContain("DONE");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
