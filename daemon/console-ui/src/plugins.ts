// The plugin table (health, kind, calls, failures, latency) and each point's plugins in the order
// they run. Text only, like the decision table.
import type { Snapshot } from "./snapshot.js";

function cells(row: HTMLTableRowElement, values: readonly string[]): void {
  for (const value of values) row.insertCell().textContent = value;
}

const ms = (us: number): string => (us / 1000).toFixed(2);

export function renderPlugins(body: HTMLTableSectionElement, snapshot: Snapshot): void {
  body.replaceChildren(
    ...snapshot.plugins.map((p) => {
      const row = document.createElement("tr");
      row.dataset.plugin = p.name;
      cells(row, [p.name, p.kind]);
      const health = row.insertCell();
      health.textContent = p.health;
      health.className = `health health-${p.health.replace(/[^a-z]/g, "")}`;
      cells(row, [p.points.join(", "), String(p.calls), String(p.failures), ms(p.p50Us), ms(p.p99Us), String(p.restarts), p.transport ?? "", p.lastError]);
      return row;
    }),
  );
}

export function renderOrder(container: HTMLElement, snapshot: Snapshot): void {
  container.replaceChildren(
    ...snapshot.order.map(({ point, plugins }) => {
      const block = document.createElement("div");
      block.className = "point";
      block.dataset.point = point;
      const title = document.createElement("h3");
      title.textContent = point;
      const list = document.createElement("ol");
      for (const entry of plugins) {
        const item = document.createElement("li");
        item.textContent = `${entry.plugin} (${entry.kind}, priority ${entry.priority}, ${entry.deadlineMs} ms, ${entry.failurePolicy}${entry.mode === "shadow" ? ", shadow" : ""})`;
        list.append(item);
      }
      block.append(title, list);
      return block;
    }),
  );
}
