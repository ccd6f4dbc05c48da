// LazyAbort: the signal is made on first read, carries the first reason, and fires once.
import { describe, expect, test } from "vitest";
import { LazyAbort, signalOf } from "../src/internal.js";

describe("LazyAbort", () => {
  test("a signal read before the abort fires with the reason", () => {
    const abort = new LazyAbort();
    const signal = abort.signal;
    expect(abort.signal).toBe(signal);
    const fired: unknown[] = [];
    signal.addEventListener("abort", () => fired.push(signal.reason));
    abort.abort("first");
    abort.abort("second");
    expect(fired).toEqual(["first"]);
    expect([abort.aborted, abort.reason]).toEqual([true, "first"]);
  });

  test("aborting before any read records the reason; a signal read later is born aborted with it", () => {
    const abort = new LazyAbort();
    expect(abort.aborted).toBe(false);
    const reason = new Error("gone");
    abort.abort(reason);
    abort.abort(new Error("later"));
    expect(abort.reason).toBe(reason);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe(reason);
  });

  test("throwIfAborted throws the reason once aborted, without making the signal", () => {
    const abort = new LazyAbort();
    expect(() => abort.throwIfAborted()).not.toThrow();
    const reason = new Error("gone");
    abort.abort(reason);
    expect(() => abort.throwIfAborted()).toThrow(reason);
  });

  test("signalOf gives an AbortSignal as it is, and a LazyAbort's own signal", () => {
    const controller = new AbortController();
    expect(signalOf(controller.signal)).toBe(controller.signal);
    const abort = new LazyAbort();
    expect(signalOf(abort)).toBe(abort.signal);
  });
});
