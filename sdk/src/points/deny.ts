// The deny decision, shared by the two points that may refuse a tool call before it runs.
import { needsReason, kind } from "../schema.js";
import { z } from "zod";

export interface DenyDecision {
  readonly kind: "deny";
  readonly reason: string;
}

export const deny = (reason: string): DenyDecision => ({ kind: "deny", reason });

export const DENY_SCHEMA = z.strictObject({ kind: kind("deny"), reason: needsReason("a deny") });
