// The agent client's `traceparent`: a W3C trace context, checked when the client or session is made.
import { describe, expect, it } from "vitest";
import { connectHost } from "../src/index.js";

const VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("connectHost traceparent", () => {
  it("accepts a W3C trace context", () => {
    connectHost("unix:///tmp/none.sock", { traceparent: VALID }).close();
  });

  it.each(["", "garbage", VALID.toUpperCase(), `00-${"0".repeat(32)}-00f067aa0ba902b7-01`, `00-4bf92f3577b34da6a3ce929d0e0e4736-${"0".repeat(16)}-01`, `${VALID} `])("refuses %j naming the option", (traceparent) => {
    expect(() => connectHost("unix:///tmp/none.sock", { traceparent })).toThrow(/^connectHost: traceparent must be a W3C trace context/);
  });

  it("checks a session's own traceparent when it opens", () => {
    const client = connectHost("unix:///tmp/none.sock");
    try {
      expect(() => client.openSession({ sessionId: "s", tools: [], traceparent: "nope" }, { runStep: async () => ({ messages: [] }) as never, dispatch: async () => ({}) })).toThrow(
        /^openSession: traceparent must be a W3C trace context/,
      );
    } finally {
      client.close();
    }
  });
});
