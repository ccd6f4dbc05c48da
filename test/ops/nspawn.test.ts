// Real systemd 252 booted in systemd-nspawn on a throwaway overlay of this machine's root
// (test/ops/nspawn/run.sh; scripts/setup-nspawn.sh installs systemd-container when missing).
// Inside, check.sh installs hookd exactly as the README says (deploy/install.sh) and drives the
// shipped hookd.socket and hookd.service through systemctl; this test reads what it saw:
// activation on the first connection, READY from the main process (NotifyAccess=main), the
// socket's group after the service started, a plugin child that cannot change the unit's status,
// reload with a hosted session connected, a refused reload failing `systemctl reload` and
// showing in `journalctl -p warning`, restart without a refused connection, the watchdog, and a
// stop with an open session finishing as success.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support.js";

const run = promisify(execFile);

function readSteps(report: string): Map<string, string> {
  return new Map(
    report
      .split("\n")
      .filter((line) => line.startsWith("STEP "))
      .map((line) => {
        const [, name = "", ...value] = line.split(" ");
        return [name, value.join(" ")] as const;
      }),
  );
}

describe("hookd under real systemd (systemd-nspawn)", () => {
  it("installs as documented, is socket-activated, reloads, restarts and stops cleanly", async () => {
    await run("bash", [join(ROOT, "scripts/setup-nspawn.sh")], { timeout: 300_000 });
    const out = mkdtempSync(join(tmpdir(), "hookd-nspawn-"));
    try {
      await run("bash", [join(ROOT, "test/ops/nspawn/run.sh"), out], { timeout: 330_000, maxBuffer: 16 * 1024 * 1024 });
      const report = readFileSync(join(out, "out/report.txt"), "utf8");
      const steps = readSteps(report);
      const at = (name: string): string | undefined => steps.get(name);
      const context = `report:\n${report}`;
      // Installed by deploy/install.sh: hookd on the PATH where the unit expects it.
      expect(at("install-exit"), context).toBe("0");
      expect(at("hookd-on-path"), context).toBe("/usr/bin/hookd");
      expect(at("hookd-runs"), context).toBe("usage: hookd <command> [options]");
      // The shipped config and example plugin load (the plugin imports @hookd/sdk from /etc/hookd/plugins).
      expect(at("check-shipped-config"), context).toBe("0");
      // Activation on the first connection, READY from the main process.
      expect(at("socket-active"), context).toBe("active");
      expect(at("service-before-connect"), context).toBe("inactive");
      expect(at("health"), context).toBe('{"status":"SERVING"}');
      expect(at("evaluate-denied"), context).toContain('"deny":{"reason":"policy: a recursive remove of / is never run"}');
      expect(at("evaluate-passed"), context).toContain('"allow":{}');
      expect(at("service-after-connect"), context).toBe("active/running");
      expect(at("status-text"), context).toBe("serving on unix:///run/hookd/admin/admin.sock, systemd:agents; meddler subscribed by config");
      expect(at("notify-access"), context).toBe("main");
      expect(at("user"), context).toBe("hookd");
      expect(at("admin-mode"), context).toBe("600");
      // SocketGroup= holds after the service started: members connect, others cannot.
      expect(at("socket-owner-before"), context).toBe("root:hookd-agents:660");
      expect(at("socket-owner-after"), context).toBe("root:hookd-agents:660");
      expect(at("member-connects"), context).toBe('{"status":"SERVING"}');
      expect(at("outsider-refused"), context).not.toBe("0");
      // A plugin child gets no NOTIFY_SOCKET, and what it sends to systemd's socket is ignored.
      expect(at("meddler-env"), context).toBe("meddler env NOTIFY_SOCKET='' WATCHDOG_USEC=''");
      expect(at("meddler-sent"), context).toMatch(/^meddler \/run\/systemd\/notify: (sent|refused)/);
      expect(at("status-after-meddler"), context).toBe("serving on unix:///run/hookd/admin/admin.sock, systemd:agents; meddler subscribed by config");
      // Reload with a hosted session connected: it waits, applies, and turn 2 completes.
      expect(at("reload-exit"), context).toBe("0");
      expect(at("generation"), context).toBe("config generation 1");
      expect(at("agent-turns"), context).toBe("turn1 completed turn2 completed");
      expect(at("state-after-reload"), context).toBe("active/running");
      // A refused reload fails `systemctl reload`, the service keeps serving, the journal has it as a warning.
      expect(at("refused-reload-exit"), context).not.toBe("0");
      expect(at("state-after-refused"), context).toBe("active/running");
      expect(Number(at("warnings")), context).toBeGreaterThanOrEqual(1);
      expect(Number(at("audit-lines")), context).toBeGreaterThanOrEqual(2);
      // Restart: the socket stays with systemd; every connection made meanwhile is answered.
      expect(at("restart-answers"), context).toBe("40/40");
      expect(at("state-after-restart"), context).toBe("active/running");
      // The watchdog restarts a main process that stopped answering.
      expect(at("watchdog-restarted"), context).toBe("yes");
      expect(Number(at("watchdog-journal")), context).toBeGreaterThanOrEqual(1);
      // Stop with an open hosted session: drained within the grace period, result success.
      expect(at("stop-result"), context).toBe("inactive/success");
      expect(at("agent-ended"), context).toMatch(/^ended (14|clean)$/);
      expect(Number(at("journal-stopped")), context).toBeGreaterThanOrEqual(1);
      expect(at("socket-after-stop"), context).toBe("active");
      expect(Number(at("security")), context).toBeLessThanOrEqual(1.7);
      expect(report, context).toContain("DONE");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 660_000);
});
