import { inertLine } from "../schema/inert-text.ts";
import { cells, cutCells } from "./width.ts";

/**
 * Styled text as data. Views build `Line`s (arrays of segments); a renderer turns them into
 * blessed tags, ANSI for a terminal, or plain text. Widths are terminal columns (width.ts):
 * a wide character (CJK, emoji) takes two.
 * Segment text is untrusted (titles, notes, file names): it is made inert (one line, no
 * control characters or escape sequences) when a segment is made and again when it is
 * rendered, so a segment built by hand cannot carry an escape to the terminal either.
 */
export type Style = "green" | "cyan" | "yellow" | "red" | "magenta" | "blue" | "white" | "dim" | "bold" | "inverse";
export type Seg = { t: string; s?: Style[]; link?: string };
export type Line = Seg[];

export const seg = (t: string, ...s: Style[]): Seg => ({ t: inertLine(t), s });
export const link = (t: string, url: string, ...s: Style[]): Seg => ({ t: inertLine(t), s, link: inertLine(url) });
export const blank = (): Line => [];

export const plainWidth = (line: Line): number => line.reduce((n, x) => n + cells(x.t), 0);

/** Cut a line to `width` columns, ending in "…" when something was cut. */
export function fit(line: Line, width: number): Line {
  if (width <= 0) return [];
  if (plainWidth(line) <= width) return line;
  const out: Line = [];
  let left = width - 1;
  for (const x of line) {
    if (left <= 0) break;
    const t = cutCells(x.t, left);
    out.push({ ...x, t });
    left -= cells(t);
    if (t.length < x.t.length) break;
  }
  out.push(seg("…", "dim"));
  return out;
}

/** Word-wrap plain text into lines of at most `width` columns (long words are hard-split). */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(2, width);
  const out: string[] = [];
  for (const para of text.split("\n")) {
    let cur = "";
    for (let word of para.split(/\s+/).filter(Boolean)) {
      while (cells(word) > w) {
        if (cur) (out.push(cur), (cur = ""));
        const head = cutCells(word, w);
        out.push(head);
        word = word.slice(head.length);
      }
      if (!cur) cur = word;
      else if (cells(cur) + 1 + cells(word) <= w) cur += " " + word;
      else (out.push(cur), (cur = word));
    }
    out.push(cur);
  }
  return out;
}

const ANSI: Record<Style, [number, number]> = {
  green: [32, 39],
  cyan: [36, 39],
  yellow: [33, 39],
  red: [31, 39],
  magenta: [35, 39],
  blue: [34, 39],
  white: [37, 39],
  dim: [2, 22],
  bold: [1, 22],
  inverse: [7, 27],
};
const TAG: Record<Style, string> = {
  green: "green-fg",
  cyan: "cyan-fg",
  yellow: "yellow-fg",
  red: "red-fg",
  magenta: "magenta-fg",
  blue: "blue-fg",
  white: "white-fg",
  dim: "gray-fg",
  bold: "bold",
  inverse: "inverse",
};

export const escapeTags = (t: string) => t.replace(/[{}]/g, (c) => (c === "{" ? "{open}" : "{close}"));
export const osc8 = (text: string, url: string) => `\x1b]8;;${inertLine(url)}\x07${inertLine(text)}\x1b]8;;\x07`;

export const toPlain = (line: Line): string => line.map((x) => inertLine(x.t)).join("");

/** ANSI for a terminal; `color: false` (NO_COLOR, not a TTY) drops styles but keeps OSC 8 links when `links`. */
export function toAnsi(line: Line, opts: { color: boolean; links?: boolean }): string {
  return line
    .map((x) => {
      let t = x.link && opts.links ? osc8(x.t, x.link) : inertLine(x.t);
      if (opts.color && x.s?.length) t = x.s.map((s) => `\x1b[${ANSI[s][0]}m`).join("") + t + `\x1b[0m`;
      return t;
    })
    .join("");
}

/** blessed tag markup (`tags: true` boxes); with `color: false` only the escaped text. */
export function toTags(line: Line, color = true): string {
  return line
    .map((x) => {
      const t = escapeTags(inertLine(x.t));
      if (!color || !x.s?.length) return t;
      return (
        x.s.map((s) => `{${TAG[s]}}`).join("") +
        t +
        [...x.s]
          .reverse()
          .map((s) => `{/${TAG[s]}}`)
          .join("")
      );
    })
    .join("");
}

/** Whether output may be coloured: https://no-color.org plus a TTY check. */
export function colorEnabled(stream: { isTTY?: boolean } = process.stdout, env: Record<string, string | undefined> = process.env): boolean {
  return !env.NO_COLOR && !!stream.isTTY;
}

/**
 * A long report line (`✓ label: detail`, `    fix: …`) wrapped at `width` columns, its
 * continuation lines indented under the text after its mark; a line that fits is left as it is.
 */
export function wrapHanging(line: string, width: number): string[] {
  const lead = /^\s*\S+\s/.exec(line)?.[0] ?? "";
  if (cells(line) <= width || cells(lead) * 2 >= width) return [line];
  const indent = " ".repeat(cells(lead));
  return wrapText(line.slice(lead.length), width - cells(lead)).map((l, i) => (i ? indent : lead) + l);
}
