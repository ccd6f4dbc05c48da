// Types of scripts/test-lanes.mjs (plain JavaScript, as the Node running npm reads it without a
// build), for vitest.config.ts and the tests that check the lanes.

export interface Lane {
  readonly name: string;
  readonly kind: "unit" | "e2e";
  readonly nodes: "every" | "first";
  readonly paths: readonly string[];
}

export interface ResolvedLane {
  readonly lane: Lane;
  readonly files: readonly string[];
}

export const LANES: readonly Lane[];
export const NOT_OURS: readonly string[];
export function findTestFiles(root: string): string[];
export function resolveLanes(root: string, lanes?: readonly Lane[]): ResolvedLane[];
export function lanesForNode(resolved: readonly ResolvedLane[], first: boolean): ResolvedLane[];
