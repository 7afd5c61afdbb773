/** Optimal string alignment distance: edits, with a swap of two neighbours counting as one. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate a mistyped word most likely meant: the closest within two edits (one for words
 * of up to four characters; ties: the first candidate), else the only candidate it is a
 * prefix of (3+ characters; not with `prefix: false`). Case-insensitive.
 */
export function didYouMean(word: string, candidates: readonly string[], o: { prefix?: boolean; maxEdits?: number } = {}): string | undefined {
  const w = word.toLowerCase();
  if (!w) return undefined;
  const max = Math.min(o.maxEdits ?? 2, w.length <= 4 ? 1 : 2);
  let best: { c: string; d: number } | undefined;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase());
    if (d <= max && (!best || d < best.d)) best = { c, d };
  }
  if (best) return best.c;
  if (o.prefix === false) return undefined;
  const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(w));
  return w.length >= 3 && prefixed.length === 1 ? prefixed[0] : undefined;
}

/**
 * A config key's suggestion: the closest key (didYouMean) when `word` is also its letters in
 * order or nothing abbreviates better, else the one key `word` abbreviates (its letters in order,
 * the same first letter, 2+ letters shorter): `cmd` → `command`, where one edit said `cwd`;
 * `codr` stays `coder`, not `code-researcher`, and so does `coders` (the key with a letter more).
 */
export function suggestKey(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const near = didYouMean(word, candidates);
  const abbreviates = (c: string) => inOrder(w, c.toLowerCase()) && c[0]?.toLowerCase() === w[0];
  // `coders` is `coder` with a letter more: that key, not one `coders` would abbreviate (code-researcher)
  const within = (c: string) => inOrder(c.toLowerCase(), w);
  if (w.length < 3 || (near && (abbreviates(near) || within(near)))) return near;
  const hits = candidates.filter((c) => c.length - w.length >= 2 && abbreviates(c));
  return hits.length === 1 ? hits[0] : near;
}

/** Whether every letter of `short` occurs in `long`, in order. */
function inOrder(short: string, long: string): boolean {
  let i = 0;
  for (const ch of long) if (ch === short[i]) i++;
  return i === short.length;
}
