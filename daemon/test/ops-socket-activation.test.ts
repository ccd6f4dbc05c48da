// Socket activation: reading LISTEN_* (and clearing it for children), and choosing which
// inherited sockets the listeners name.
import { describe, expect, it } from "vitest";
import { selectSockets, takeInheritedSockets } from "../src/ops/socket-activation.js";

describe("takeInheritedSockets", () => {
  it("reads fds from 3 with their names and clears the variables", () => {
    const env: NodeJS.ProcessEnv = { LISTEN_FDS: "2", LISTEN_PID: "42", LISTEN_FDNAMES: "agents:admin", OTHER: "x" };
    expect(takeInheritedSockets(env, 42)).toEqual([
      { fd: 3, name: "agents" },
      { fd: 4, name: "admin" },
    ]);
    expect(env).toEqual({ OTHER: "x" });
  });

  it("ignores sockets meant for another process, and names unnamed ones unknown", () => {
    expect(takeInheritedSockets({ LISTEN_FDS: "1", LISTEN_PID: "7" }, 42)).toEqual([]);
    expect(takeInheritedSockets({ LISTEN_FDS: "1" }, 42)).toEqual([{ fd: 3, name: "unknown" }]);
    expect(takeInheritedSockets({}, 42)).toEqual([]);
  });
});

describe("selectSockets", () => {
  const inherited = [
    { fd: 3, name: "agents" },
    { fd: 4, name: "extra" },
  ];

  it("serves the named sockets, or every inherited one when no listener names one", () => {
    expect(selectSockets([{ systemd: "extra" }, { unix: "/x.sock", mode: "0600" }], inherited)).toEqual([{ fd: 4, name: "extra" }]);
    expect(selectSockets([{ unix: "/x.sock", mode: "0600" }], inherited)).toEqual(inherited);
  });

  it("names the listener whose socket was not passed", () => {
    expect(() => selectSockets([{ unix: "/x", mode: "0600" }, { systemd: "admin" }], inherited)).toThrow('listeners[1].systemd: no socket named "admin" was passed by systemd; passed: "agents", "extra"');
  });
});
