import type { LogRecord } from "../schema/log.ts";
import { seg, type Line, type Style } from "./line.ts";

const LEVEL_STYLE: Record<LogRecord["level"], Style> = { debug: "dim", info: "dim", warn: "yellow", error: "red" };

/** A record for people: `12:03:04.512  warn  delivery_failed  [coder]  <msg>`, continuation lines indented. */
export function logLines(records: LogRecord[]): Line[] {
  const out: Line[] = [];
  for (const r of records) {
    const time = r.ts ? r.ts.slice(11, 23) : "            ";
    const who = r.agent ? `[${r.agent}] ` : r.pane ? `[${r.pane}] ` : "";
    const [first = "", ...rest] = r.msg.split("\n");
    out.push([seg(`${time}  `, "dim"), seg(r.level.padEnd(5), LEVEL_STYLE[r.level]), seg(`  ${r.event.padEnd(20)} `, "cyan"), seg(`${who}${first}`)]);
    for (const l of rest) out.push([seg(`${" ".repeat(36)}${l}`, "dim")]);
    if (r.error && !r.msg.includes(r.error)) for (const l of r.error.split("\n")) out.push([seg(`${" ".repeat(36)}${l}`, "red")]);
  }
  return out;
}
