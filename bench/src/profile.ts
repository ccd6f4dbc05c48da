// Summarizes a V8 .cpuprofile (node --cpu-prof): busy time by code origin (grpc-js, protobuf-es,
// hookd's sdk and daemon, node internals, GC), the top functions by self time, and hookd's own
// functions by inclusive time. Percentages are of busy (non-idle) time.
// Also a CLI: node bench/dist/profile.js FILE.cpuprofile [...]

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

function isProfile(value: unknown): value is CpuProfile {
  const p = value as Partial<CpuProfile> | null;
  return typeof p === "object" && p !== null && Array.isArray(p.nodes) && Array.isArray(p.samples) && Array.isArray(p.timeDeltas);
}

const ORIGINS: readonly [string, RegExp][] = [
  ["grpc-js", /node_modules\/@grpc\/grpc-js\//],
  ["protobuf-es", /node_modules\/@bufbuild\/protobuf\//],
  ["zod", /node_modules\/zod\//],
  ["lossless-json", /node_modules\/lossless-json\//],
  ["piscina", /node_modules\/piscina\//],
  ["other node_modules", /node_modules\//],
  ["hookd sdk", /\/sdk\/(dist|src)\//],
  ["hookd daemon", /\/daemon\/(dist|src)\//],
  ["bench plugin", /\/bench\/dist\//],
  ["node internals", /^node:/],
];

export function originOf(frame: CallFrame): string {
  if (frame.url === "") {
    if (frame.functionName === "(idle)" || frame.functionName === "(program)" || frame.functionName === "(garbage collector)" || frame.functionName === "(root)") {
      return frame.functionName;
    }
    return "native/builtin";
  }
  return ORIGINS.find(([, pattern]) => pattern.test(frame.url))?.[0] ?? "other";
}

function label(frame: CallFrame): string {
  const file = frame.url.replace(/^.*\/node_modules\//, "").replace(/^file:\/\/.*\/(sdk|daemon|bench)\/dist\//, "$1/");
  return `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
}

/** `calls`: how many calls the process served, when known, for busy time per call. */
export function summarizeProfile(raw: unknown, calls?: number, top = 25): string {
  if (!isProfile(raw)) return "not a V8 cpu profile\n";
  const byId = new Map(raw.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  raw.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (raw.timeDeltas[index] ?? 0)));
  const parent = new Map<number, number>();
  for (const node of raw.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  let total = 0;
  let idle = 0;
  const origins = new Map<string, number>();
  const functions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (node === undefined) continue;
    total += us;
    const origin = originOf(node.callFrame);
    if (origin === "(idle)") {
      idle += us;
      continue;
    }
    origins.set(origin, (origins.get(origin) ?? 0) + us);
    functions.set(label(node.callFrame), (functions.get(label(node.callFrame)) ?? 0) + us);
    // Inclusive time of hookd functions: credit each distinct hookd frame on the stack once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame === undefined) break;
      const o = originOf(frame);
      if (o !== "hookd sdk" && o !== "hookd daemon") continue;
      const key = label(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const busy = total - idle;
  const pct = (us: number): string => `${((us / Math.max(1, busy)) * 100).toFixed(1).padStart(5)}%`;
  const ms = (us: number): string => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  const perCall = calls === undefined || calls === 0 ? "" : `, ~${Math.round(busy / calls)} µs busy per call over ${calls} calls (start-up included)`;
  const lines: string[] = [`busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled (idle ${((idle / Math.max(1, total)) * 100).toFixed(0)}%)${perCall}`, "by origin (self time):"];
  for (const [origin, us] of [...origins].sort((a, b) => b[1] - a[1])) lines.push(`  ${pct(us)} ${ms(us)}  ${origin}`);
  lines.push(`top ${top} functions (self time):`);
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(us)} ${ms(us)}  ${name}`);
  lines.push(`hookd functions (inclusive time):`);
  for (const [name, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(us)} ${ms(us)}  ${name}`);
  return `${lines.join("\n")}\n`;
}

if (process.argv[1]?.endsWith("/profile.js") === true) {
  const { readFileSync } = await import("node:fs");
  for (const file of process.argv.slice(2)) process.stdout.write(`== ${file}\n${summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as unknown)}\n`);
}
