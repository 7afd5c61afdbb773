type Op = { t: " " | "-" | "+"; line: string };

const CONTEXT = 3;
/** Beyond this much trace memory (Int32 cells) the middle is shown as one replacement. */
const TRACE_BUDGET = 20_000_000;

/** Unified-diff hunks (`@@ -a,b +c,d @@` + lines) turning `a` into `b`, Myers' O(ND) algorithm. */
export function lineDiff(a: string[], b: string[]): string[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ops: Op[] = [
    ...a.slice(0, pre).map((line) => ({ t: " " as const, line })),
    ...myers(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf)),
    ...a.slice(a.length - suf).map((line) => ({ t: " " as const, line })),
  ];
  return hunks(ops);
}

function myers(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    if ((d + 1) * v.length > TRACE_BUDGET) return replaceAll(a, b);
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) (x++, y++);
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, off);
    }
  }
  return replaceAll(a, b);
}

function backtrack(a: string[], b: string[], trace: Int32Array[], off: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? k + 1 : k - 1;
    const prevX = v[off + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) (ops.push({ t: " ", line: a[--x] }), y--);
    if (d > 0) {
      if (x === prevX) ops.push({ t: "+", line: b[--y] });
      else ops.push({ t: "-", line: a[--x] });
    }
  }
  return ops.reverse();
}

function replaceAll(a: string[], b: string[]): Op[] {
  return [...a.map((line) => ({ t: "-" as const, line })), ...b.map((line) => ({ t: "+" as const, line }))];
}

function hunks(ops: Op[]): string[] {
  const out: string[] = [];
  let i = 0;
  let aLine = 1;
  let bLine = 1;
  const counts = (o: Op) => [o.t === "+" ? 0 : 1, o.t === "-" ? 0 : 1];
  while (i < ops.length) {
    const firstChange = ops.findIndex((o, j) => j >= i && o.t !== " ");
    if (firstChange < 0) break;
    const start = Math.max(i, firstChange - CONTEXT);
    for (let j = i; j < start; j++) (aLine++, bLine++);
    let end = firstChange;
    // extend while the next change is within 2*CONTEXT unchanged lines
    for (let j = firstChange; j < ops.length; j++) {
      if (ops[j].t !== " ") end = j;
      else if (j - end > 2 * CONTEXT) break;
    }
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const body = ops.slice(start, stop);
    const aLen = body.reduce((s, o) => s + counts(o)[0], 0);
    const bLen = body.reduce((s, o) => s + counts(o)[1], 0);
    out.push(`@@ -${range(aLine, aLen)} +${range(bLine, bLen)} @@`, ...body.map((o) => o.t + o.line));
    aLine += aLen;
    bLine += bLen;
    i = stop;
  }
  return out;
}

function range(start: number, len: number): string {
  const s = len === 0 ? start - 1 : start;
  return len === 1 ? `${s}` : `${s},${len}`;
}
