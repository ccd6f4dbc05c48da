// What every point shares: `pass` (defer to the next plugin, or contribute nothing) and the
// exhaustiveness helper. Each point's own decisions and constructors live in its file under
// points/.

/** Defer to the next plugin (waterfalls) or contribute nothing (notifications). */
export interface Pass {
  readonly kind: "pass";
}

const PASS: Pass = Object.freeze({ kind: "pass" });

export const pass = (): Pass => PASS;

/** For exhaustive switches over decision unions. */
export function unreachable(value: never, what = "value"): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
