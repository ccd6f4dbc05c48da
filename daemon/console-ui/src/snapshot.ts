// The shape of /api/snapshot (daemon/src/console/snapshot.ts) as the page reads it.
export interface PluginRow {
  readonly name: string;
  readonly kind: string;
  readonly target: string;
  readonly health: string;
  readonly points: readonly string[];
  readonly restarts: number;
  readonly lastError: string;
  readonly transport?: string;
  readonly calls: number;
  readonly failures: number;
  readonly p50Us: number;
  readonly p99Us: number;
}

export interface OrderEntry {
  readonly plugin: string;
  readonly kind: string;
  readonly priority: number;
  readonly deadlineMs: number;
  readonly failurePolicy: string;
  readonly mode: string;
}

export interface Snapshot {
  readonly status: { readonly version: string; readonly agentsConnected: number; readonly sessionsOpen: number; readonly configGeneration: number };
  readonly plugins: readonly PluginRow[];
  readonly order: readonly { readonly point: string; readonly plugins: readonly OrderEntry[] }[];
  readonly bucketsUs: readonly number[];
  readonly latency: readonly { readonly plugin: string; readonly point: string; readonly shadow: boolean; readonly counts: readonly number[]; readonly count: number }[];
  readonly failures: readonly { readonly plugin: string; readonly point: string; readonly shadow: boolean; readonly cause: string; readonly count: number }[];
}

export async function fetchSnapshot(signal: AbortSignal): Promise<Snapshot> {
  const response = await fetch("/api/snapshot", { signal, credentials: "same-origin" });
  if (response.status === 401) {
    location.assign("/login");
    throw new Error("signed out");
  }
  if (!response.ok) throw new Error(`/api/snapshot answered ${response.status}`);
  return (await response.json()) as Snapshot;
}
