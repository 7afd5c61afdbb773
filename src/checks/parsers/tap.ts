import { counts, int, lines, type OutputParser, type RawFinding } from "./types.ts";

const RESULT = /^\s*(ok|not ok) \d+(?:\s*-\s*)?(.*?)(\s+#\s*(?:TODO|SKIP)\b.*)?$/i;
// node --test's totals (its nested subtests are counted once there)
const TOTAL = /^# (pass|fail) (\d+)$/;
// inside the YAML block of a failure: `at: file:12:3`, `location: '/abs/file.js:12:3'`, or `file:` + `line:`
const AT = /^\s+(?:at|location):\s*['"]?(?:.*\()?([^\s'"()]+?):(\d+)(?::(\d+))?\)?['"]?\s*$/;
const FILE = /^\s+file:\s*['"]?([^'"]+?)['"]?\s*$/;
const LINE = /^\s+line:\s*(\d+)\s*$/;

/** TAP (node --test, tap, prove): `not ok` lines with the location their YAML block gives. */
export const parseTap: OutputParser = (text) => {
  const findings: RawFinding[] = [];
  let passing = 0;
  let failing = 0;
  let open: RawFinding | null = null;
  const totals: { pass?: number; fail?: number } = {};
  for (const line of lines(text)) {
    const r = RESULT.exec(line);
    const total = TOTAL.exec(line);
    if (total) totals[total[1] as "pass" | "fail"] = Number(total[2]);
    if (r) {
      open = null;
      if (r[3]) continue; // TODO and SKIP do not count
      if (r[1]!.toLowerCase() === "ok") passing++;
      else {
        failing++;
        open = { severity: "error", message: r[2]!.trim() || "not ok" };
        findings.push(open);
      }
      continue;
    }
    if (!open) continue;
    const at = AT.exec(line);
    if (at && open.file === undefined) Object.assign(open, { file: at[1], line: int(at[2]), column: int(at[3]) });
    const f = FILE.exec(line);
    if (f && open.file === undefined) open.file = f[1];
    const l = LINE.exec(line);
    if (l && open.line === undefined) open.line = int(l[1]);
  }
  if (totals.pass !== undefined && totals.fail !== undefined) return { findings, tests: counts(totals.pass, totals.fail) };
  return { findings, tests: counts(passing, failing) };
};
