// Plain-text tables for the operator commands: left-aligned columns, two spaces apart, an
// optional header row. Widths count code points, which is right for the ASCII hookd prints.

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = header.length > 0 ? [header, ...rows] : rows;
  const widths: number[] = [];
  for (const row of all) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return all
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell + " ".repeat((widths[i] ?? 0) - [...cell].length)))
        .join("  ")
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join("");
}
