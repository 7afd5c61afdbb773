import { plainWidth, seg, type Line } from "./line.ts";

/**
 * A key bar: `? help · Enter focus · l output`. `drop` orders what goes first when the bar
 * does not fit its lines (higher goes earlier; undefined never goes): the bar first tightens
 * its separators, then wraps onto its `lines`, then drops keys; the keys that stay keep their order.
 */
export type Key = { key: string; label: string; drop?: number };

function layout(keys: Key[], width: number, lines: number, sep: string): Line[] | undefined {
  const out: Line[] = [];
  let cur: Line = [];
  for (const k of keys) {
    const item = [seg(k.key, "cyan", "bold"), seg(` ${k.label}`, "dim")];
    const next = cur.length ? [...cur, seg(sep, "dim"), ...item] : item;
    if (plainWidth(next) <= width) cur = next;
    else if (cur.length && plainWidth(item) <= width) (out.push(cur), (cur = item));
    else return undefined;
  }
  if (cur.length) out.push(cur);
  return out.length <= lines ? out : undefined;
}

/** The bar in at most `lines` lines of `width` columns; [] when not even one key fits. */
export function keyBar(keys: Key[], width: number, lines = 1): Line[] {
  let left = [...keys];
  for (;;) {
    for (const sep of [" · ", "  "]) {
      const out = layout(left, width, lines, sep);
      if (out) return out;
    }
    const droppable = left.filter((k) => k.drop !== undefined);
    if (!droppable.length) return left.length > 1 ? keyBar(left.slice(0, 1), width, lines) : [];
    const first = droppable.reduce((a, b) => (b.drop! > a.drop! ? b : a));
    left = left.filter((k) => k !== first);
  }
}

/** `C-b` (tmux's spelling of a prefix key) as people read it: `Ctrl-b`. */
export const keyName = (tmuxKey: string) => tmuxKey.replace(/^C-/, "Ctrl-").replace(/^M-/, "Alt-");
