// LazyAbort: the signal is made on first read, carries the first reason, and fires once.
import { describe, expect, test } from "vitest";
import { getEventListeners } from "node:events";
import { LazyAbort, signalOf, whenAborted } from "../src/internal.js";
import { CountingAbort } from "./support/counting-abort.js";

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

  test("onAbort callbacks run once, before the signal's listeners, and can be taken back; none is kept after the abort", () => {
    const abort = new LazyAbort();
    const order: string[] = [];
    abort.signal.addEventListener("abort", () => order.push("signal"));
    abort.onAbort(() => order.push("first"));
    const takeBack = abort.onAbort(() => order.push("taken back"));
    abort.onAbort(() => order.push("second"));
    takeBack();
    abort.abort("why");
    abort.abort("again");
    expect(order).toEqual(["first", "second", "signal"]);
    abort.onAbort(() => order.push("too late"));
    expect(order).toEqual(["first", "second", "signal"]);
  });

  test("whenAborted follows a LazyAbort without making its signal, and an AbortSignal by a listener it removes", () => {
    const lazy = new CountingAbort();
    let lazyCalls = 0;
    whenAborted(lazy, () => lazyCalls++);
    lazy.abort("x");
    expect([lazyCalls, lazy.reads]).toEqual([1, 0]);

    const controller = new AbortController();
    let calls = 0;
    const unlink = whenAborted(controller.signal, () => calls++);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    unlink();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    whenAborted(controller.signal, () => calls++);
    controller.abort();
    expect(calls).toBe(1);
  });
});
