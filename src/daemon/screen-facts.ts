/**
 * What a pane's text says, read without tmux (pure functions of the captured screen): how
 * often a pattern shows, the question an agent's turn ended with, the reset time a usage-limit
 * screen names.
 */
import type { MainColumn } from "../effects/tmux/screen.ts";

const globalCache = new Map<string, RegExp>();

/** How many times `re` matches `text` (its source, as a global multi-line regex). */
export function countMatches(re: RegExp, text: string): number {
  let g = globalCache.get(re.source);
  if (!g) globalCache.set(re.source, (g = new RegExp(re.source, "gm")));
  g.lastIndex = 0;
  let n = 0;
  while (g.exec(text)) {
    n++;
    if (g.lastIndex === 0) break;
  }
  return n;
}

/** The last non-empty lines of a screen (right-trimmed). */
export function tailLines(screen: string, n: number): string[] {
  return screen
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim())
    .slice(-n);
}

/** The last line of `screen` on which `re` matches, trimmed, or null. */
export function lineMatching(screen: string, re: RegExp): string | null {
  const lines = screen.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) if (re.test(lines[i]!)) return lines[i]!.trim();
  return null;
}

/**
 * Lines that are decoration, not what the agent said: rules, boxes, empty prompts, hints,
 * claude's right-aligned effort level above its box (`◐ medium · /effort`), gemini's mode and
 * MCP line above its box (`YOLO Ctrl+Y … 1 MCP server`).
 */
const CHROME =
  /^[\s─━│┃┌┐└┘├┤┬┴┼╭╮╰╯═║╔╗╚╝▔▁-]*$|^\s*[›>❯*](\s|\u00a0)*$|^\s*[✻✽✶✢·*]\s+\w+ for \d|Worked for <?\d|for shortcuts|esc to (interrupt|cancel)|Type your message|^\s*\S?\s*\w+ · \/effort$|^\s*(YOLO|auto-accept edits) |\d+ MCP servers?$|Press Ctrl\+O to expand/;

/**
 * The question the agent's turn ended with: the last line the agent wrote above the line of its
 * idle input prompt (the ready pattern's last match), when it ends with a question mark. Null
 * otherwise. With a sidebar (`main.sidebarGap`), each line's main-column part only; the CLI's
 * own decoration lines (`main.chrome`) skipped.
 */
export function questionAtEnd(screen: string, ready: RegExp | null, main: MainColumn = { sidebarGap: null, chrome: null }): string | null {
  let text = screen;
  if (ready) {
    // the last match: codex's ready pattern (`› `) also matches the submitted prompt above the answer
    const g = new RegExp(ready.source, "gm");
    let at = -1;
    for (let m = g.exec(screen); m; m = g.exec(screen)) {
      at = m.index;
      if (m[0] === "") g.lastIndex++;
    }
    if (at >= 0) text = screen.slice(0, screen.lastIndexOf("\n", at - 1) + 1);
  }
  const lines = mainColumn(text.split("\n"), main.sidebarGap)
    .map((l) => l.trim())
    .filter((l) => l && !CHROME.test(l) && !main.chrome?.test(l));
  const last = lines.at(-1);
  if (!last) return null;
  const said = last.replace(/^[●⏺✦•◦]\s*/, "");
  return /\?["'”’)\]]*$/.test(said) ? said : null;
}

/**
 * The lines cut where the sidebar starts: the column at which most lines' text resumes after a
 * gap of `gap`+ spaces (the sidebar is one column for the whole screen); a line with nothing left
 * of it is the sidebar's alone. No line with such a gap: the lines as they are.
 */
function mainColumn(lines: string[], gap: number | null): string[] {
  if (!gap) return lines;
  const split = new RegExp(`(?<=\\S) {${gap},}(?=\\S)`, "g");
  const starts = new Map<number, number>();
  for (const l of lines) for (const m of l.matchAll(split)) starts.set(m.index + m[0].length, (starts.get(m.index + m[0].length) ?? 0) + 1);
  if (!starts.size) return lines;
  const [column] = [...starts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
  return lines.map((l) => l.slice(0, column));
}

const UNITS: Record<string, number> = { s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60, h: 3600, hr: 3600, hour: 3600, d: 86400, day: 86400 };

/**
 * When a usage-limit screen says the limit resets, as an ISO time, or null when it does not
 * say: "resets in 2s", "try again in 1 hour 20 minutes", "retry after 30 seconds",
 * "resets 3pm", "resets at 15:30", "try again at 3:05 PM". A clock time is the next such time
 * of day (local time), today or tomorrow.
 */
export function parseResetTime(text: string, now: Date): string | null {
  const rel = /(?:in|after)\s+((?:\d+\s*(?:d(?:ays?)?|h(?:(?:ou)?rs?)?|m(?:in(?:ute)?s?)?|s(?:ec(?:ond)?s?)?)\b[\s,]*(?:and\s+)?)+)/i.exec(text);
  if (rel) {
    let secs = 0;
    for (const m of rel[1]!.matchAll(/(\d+)\s*([a-z]+)/gi)) {
      const unit = m[2]!.toLowerCase().replace(/s$/, "");
      const key =
        Object.keys(UNITS).find((k) => unit === k || unit.startsWith(k)) ??
        (unit.startsWith("h") ? "h" : unit.startsWith("d") ? "d" : unit.startsWith("m") ? "m" : "s");
      secs += Number(m[1]) * UNITS[key]!;
    }
    if (secs > 0) return new Date(now.getTime() + secs * 1000).toISOString();
  }
  const clock = /(?:resets?|try again|available)\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?/i.exec(text);
  if (clock) {
    let h = Number(clock[1]);
    const min = Number(clock[2] ?? 0);
    const ampm = clock[3]?.toLowerCase().replace(/\./g, "");
    if (!clock[2] && !ampm) return null; // "resets 3" is not a time
    if (ampm === "pm" && h < 12) h += 12;
    if (ampm === "am" && h === 12) h = 0;
    if (h > 23 || min > 59) return null;
    const at = new Date(now);
    at.setHours(h, min, 0, 0);
    if (at.getTime() <= now.getTime()) at.setDate(at.getDate() + 1);
    return at.toISOString();
  }
  return null;
}

const BOX_LINE = /^[─━│┃╭╮╰╯\s]+$/;
/** a box's side walls around a line (gemini's and qwen's dialogs are drawn in a box) */
const BOX_WALLS = /^[│┃]\s*|\s*[│┃]$/g;
/** a line that asks: it ends with a question mark (a closing quote or bracket may follow) */
const ASKS = /\?["'”’)\]]*$/;
/** how far above the line that matched the dialog's question may be (claude's choices and hints sit between) */
const QUESTION_ABOVE = 10;

/**
 * A dialog's own words, for the monitor's narrow row and the run's state: its question first
 * (the line that asks, e.g. "Do you want to proceed?" above claude's numbered choices, found
 * near the line that matched, which may be a hint such as "Chat about this"), then up to three
 * lines of what it is about above the question (up to the box rule that opens the dialog), then
 * up to three lines after it (its choices); box lines and walls left out, joined. Without a line
 * that asks, the line that matched comes first. No line matched (the title did): the question in
 * the screen's last lines, else the title.
 */
export function dialogText(screen: string, title: string, re: RegExp): string {
  const lines = screen.split("\n").map((l) => l.trim().replace(BOX_WALLS, "").trim());
  let i = -1;
  for (let k = lines.length - 1; k >= 0; k--)
    if (re.test(lines[k]!)) {
      i = k;
      break;
    }
  const from = i >= 0 ? i : lines.length - 1;
  let q = -1;
  for (let k = from; k >= Math.max(0, from - QUESTION_ABOVE) && q < 0; k--) if (ASKS.test(lines[k]!)) q = k;
  if (q < 0) q = i;
  if (q < 0) return title.trim() || "a dialog waits for an answer";
  const before: string[] = [];
  for (let k = q - 1; k >= 0 && before.length < 3; k--) {
    if (BOX_LINE.test(lines[k]!) && lines[k]!.trim()) break;
    if (lines[k]) before.unshift(lines[k]!);
  }
  const after = lines
    .slice(q + 1)
    .filter((l) => l && !BOX_LINE.test(l))
    .slice(0, 3);
  return [lines[q]!, ...before, ...after].join(" · ").slice(0, 400);
}
