// The two charts (Chart.js, bundled): latency histograms per plugin and point, one bar series
// each over the daemon's bucket bounds, and failures per plugin stacked by cause. Updated in
// place from each snapshot.
import { BarController, BarElement, CategoryScale, Chart, Colors, Legend, LinearScale, Tooltip } from "chart.js";
import type { Snapshot } from "./snapshot.js";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip, Colors);

function bucketLabel(us: number): string {
  return us >= 1_000_000 ? `≤${us / 1_000_000} s` : us >= 1_000 ? `≤${us / 1_000} ms` : `≤${us} µs`;
}

export class Charts {
  readonly #latency: Chart<"bar">;
  readonly #failures: Chart<"bar">;

  constructor(latency: HTMLCanvasElement, failures: HTMLCanvasElement) {
    const options = { animation: false as const, responsive: true, maintainAspectRatio: false };
    this.#latency = new Chart(latency, {
      type: "bar",
      data: { labels: [], datasets: [] },
      options: { ...options, scales: { x: { title: { display: true, text: "call duration" } }, y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: "calls" } } } },
    });
    this.#failures = new Chart(failures, {
      type: "bar",
      data: { labels: [], datasets: [] },
      options: { ...options, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: "failures" } } } },
    });
  }

  update(snapshot: Snapshot): void {
    const labels = [...snapshot.bucketsUs.map(bucketLabel), `>${bucketLabel(snapshot.bucketsUs.at(-1) ?? 0).slice(1)}`];
    this.#latency.data.labels = labels;
    this.#latency.data.datasets = snapshot.latency.map((series) => ({
      label: `${series.plugin} @ ${series.point}${series.shadow ? " (shadow)" : ""}`,
      data: [...series.counts],
    }));
    this.#latency.update();
    // What each chart shows, readable without reaching into Chart.js (the console test reads it).
    this.#latency.canvas.dataset.series = this.#latency.data.datasets.map((d) => d.label).join("|");

    const plugins = [...new Set(snapshot.plugins.map((p) => p.name))];
    const causes = [...new Set(snapshot.failures.map((f) => f.cause))];
    this.#failures.data.labels = plugins;
    this.#failures.data.datasets = causes.map((cause) => ({
      label: cause,
      data: plugins.map((plugin) => snapshot.failures.filter((f) => f.plugin === plugin && f.cause === cause).reduce((sum, f) => sum + f.count, 0)),
    }));
    this.#failures.update();
    this.#failures.canvas.dataset.series = causes.map((cause, i) => `${cause}=${String(this.#failures.data.datasets[i]?.data)}`).join("|");
  }
}
