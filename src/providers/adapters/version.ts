/** `a` ≥ `b`, both dot-separated numbers ("2026.07.20", "1.1.10"); a missing part counts as 0. */
export function versionAtLeast(a: string, b: string): boolean {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}
