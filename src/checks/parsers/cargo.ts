import { int, lines, type OutputParser, type RawFinding } from "./types.ts";

// `error[E0308]: mismatched types` / `warning: unused variable: `x`` then `  --> src/main.rs:4:18`
const HEADER = /^(error|warning)(?:\[(\w+)\])?: (.+)$/;
const ARROW = /^\s*--> (.+?):(\d+):(\d+)$/;
// a failing test: `thread 'tests::it_works' panicked at src/lib.rs:10:9:` (message on the next line) or `…at 'msg', src/lib.rs:10:9`
const PANIC_NEW = /^thread '([^']+)' panicked at (.+?):(\d+):(\d+):$/;
const PANIC_OLD = /^thread '([^']+)' panicked at '(.*)', (.+?):(\d+):(\d+)$/;
const RESULT = /^test result: \w+\. (\d+) passed; (\d+) failed/;

/** cargo build / clippy / test and rustc. */
export const parseCargo: OutputParser = (text) => {
  const findings: RawFinding[] = [];
  const all = lines(text);
  let header: { severity: "error" | "warning"; message: string } | null = null;
  let passing = 0;
  let failing = 0;
  let sawResult = false;
  for (let i = 0; i < all.length; i++) {
    const line = all[i]!;
    const h = HEADER.exec(line);
    if (h && !/^aborting due to|^could not compile|^\d+ warnings? emitted/.test(h[3]!)) {
      header = { severity: h[1] as "error" | "warning", message: h[2] ? `${h[2]}: ${h[3]}` : h[3]! };
      continue;
    }
    const a = ARROW.exec(line);
    if (a && header) {
      findings.push({ file: a[1], line: int(a[2]), column: int(a[3]), severity: header.severity, message: header.message });
      header = null;
      continue;
    }
    const p = PANIC_NEW.exec(line);
    if (p) {
      findings.push({ file: p[2], line: int(p[3]), column: int(p[4]), severity: "error", message: `${p[1]}: ${(all[i + 1] ?? "panicked").trim()}` });
      continue;
    }
    const o = PANIC_OLD.exec(line);
    if (o) findings.push({ file: o[3], line: int(o[4]), column: int(o[5]), severity: "error", message: `${o[1]}: ${o[2]}` });
    const r = RESULT.exec(line);
    if (r) {
      sawResult = true;
      passing += Number(r[1]);
      failing += Number(r[2]);
    }
  }
  return { findings, tests: sawResult ? { passing, failing, total: passing + failing } : undefined };
};
