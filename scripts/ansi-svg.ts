/**
 * ANSI terminal text (what `tmux capture-pane -e -p` prints) → an SVG picture of the screen.
 *
 *   tmux capture-pane -e -p -t <pane> | bun scripts/ansi-svg.ts --title "agentmux" > screen.svg
 *
 * It understands what tmux writes: SGR colours (16, 256 and 24-bit), bold, dim, italic,
 * underline and inverse. Each run of same-styled text is placed at its column and stretched to
 * its exact cell width, so the grid holds whatever monospace font the viewer has. Nothing but
 * the text and rectangles: no fonts or scripts are embedded.
 */
import { cells } from "../src/views/width.ts";

type Style = { fg?: string; bg?: string; bold?: boolean; dim?: boolean; italic?: boolean; underline?: boolean; inverse?: boolean };
type Run = { col: number; text: string; style: Style };

const BASE = ["#1e1e2e", "#f38ba8", "#a6e3a1", "#f9e2af", "#89b4fa", "#f5c2e7", "#94e2d5", "#bac2de"];
const BRIGHT = ["#585b70", "#f38ba8", "#a6e3a1", "#f9e2af", "#89b4fa", "#f5c2e7", "#94e2d5", "#a6adc8"];
const FG = "#cdd6f4";
const BG = "#1e1e2e";

function color256(n: number): string {
  if (n < 8) return BASE[n]!;
  if (n < 16) return BRIGHT[n - 8]!;
  if (n < 232) {
    const v = [0, 95, 135, 175, 215, 255];
    const i = n - 16;
    return rgb(v[Math.floor(i / 36)]!, v[Math.floor(i / 6) % 6]!, v[i % 6]!);
  }
  const g = 8 + (n - 232) * 10;
  return rgb(g, g, g);
}
const rgb = (r: number, g: number, b: number) => `#${[r, g, b].map((x) => x.toString(16).padStart(2, "0")).join("")}`;

/** Apply one SGR parameter list to a style. */
export function sgr(style: Style, params: number[]): Style {
  const s = { ...style };
  for (let i = 0; i < params.length; i++) {
    const p = params[i]!;
    if (p === 0) for (const k of Object.keys(s)) delete s[k as keyof Style];
    else if (p === 1) s.bold = true;
    else if (p === 2) s.dim = true;
    else if (p === 3) s.italic = true;
    else if (p === 4) s.underline = true;
    else if (p === 7) s.inverse = true;
    else if (p === 22) ((s.bold = false), (s.dim = false));
    else if (p === 23) s.italic = false;
    else if (p === 24) s.underline = false;
    else if (p === 27) s.inverse = false;
    else if (p >= 30 && p <= 37) s.fg = BASE[p - 30];
    else if (p === 39) delete s.fg;
    else if (p >= 40 && p <= 47) s.bg = BASE[p - 40];
    else if (p === 49) delete s.bg;
    else if (p >= 90 && p <= 97) s.fg = BRIGHT[p - 90];
    else if (p >= 100 && p <= 107) s.bg = BRIGHT[p - 100];
    else if ((p === 38 || p === 48) && params[i + 1] === 5) {
      const c = color256(params[i + 2] ?? 0);
      if (p === 38) s.fg = c;
      else s.bg = c;
      i += 2;
    } else if ((p === 38 || p === 48) && params[i + 1] === 2) {
      const c = rgb(params[i + 2] ?? 0, params[i + 3] ?? 0, params[i + 4] ?? 0);
      if (p === 38) s.fg = c;
      else s.bg = c;
      i += 4;
    }
  }
  return s;
}

/** One line of ANSI text → runs of same-styled text at their columns (other escapes dropped). */
export function parseLine(line: string, start: Style = {}): { runs: Run[]; end: Style } {
  const runs: Run[] = [];
  let style = start;
  let col = 0;
  let cur: Run | null = null;
  const re = /\x1b\[([0-9;:]*)m|\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b./g;
  let last = 0;
  const text = (t: string) => {
    for (const ch of t) {
      if (ch < " ") continue;
      if (!cur) cur = { col, text: "", style };
      cur.text += ch;
      col += cells(ch);
    }
  };
  for (let m = re.exec(line); m; m = re.exec(line)) {
    text(line.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] === undefined) continue;
    if (cur) (runs.push(cur), (cur = null));
    style = sgr(
      style,
      (m[1] || "0").split(/[;:]/).map((x) => Number(x) || 0),
    );
  }
  text(line.slice(last));
  if (cur) runs.push(cur);
  return { runs, end: style };
}

const esc = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export type SvgOptions = { title?: string; fontSize?: number; cols?: number };

/** The whole screen as an SVG document (a window frame with the title, the grid of text). */
export function ansiToSvg(ansi: string, o: SvgOptions = {}): string {
  const fs = o.fontSize ?? 14;
  const cw = fs * 0.6;
  const lh = Math.round(fs * 1.2);
  const lines = ansi.replace(/\n+$/, "").split("\n");
  let style: Style = {};
  const parsed = lines.map((l) => {
    const p = parseLine(l, style);
    style = p.end;
    return p.runs;
  });
  const cols = o.cols ?? Math.max(1, ...parsed.map((runs) => runs.reduce((n, r) => Math.max(n, r.col + cells(r.text)), 0)));
  const pad = 16;
  const bar = 28;
  const w = Math.ceil(cols * cw + pad * 2);
  const h = bar + lines.length * lh + pad * 2;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(o.title ?? "terminal")}">`,
    `<rect width="${w}" height="${h}" rx="8" fill="${BG}"/>`,
    `<circle cx="18" cy="14" r="5" fill="#f38ba8"/><circle cx="34" cy="14" r="5" fill="#f9e2af"/><circle cx="50" cy="14" r="5" fill="#a6e3a1"/>`,
    o.title ? `<text x="${w / 2}" y="18" fill="#a6adc8" font-family="sans-serif" font-size="12" text-anchor="middle">${esc(o.title)}</text>` : "",
    `<g font-family="ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono','Liberation Mono',monospace" font-size="${fs}" xml:space="preserve">`,
  ];
  parsed.forEach((runs, row) => {
    const y = bar + pad + row * lh;
    for (const r of runs) {
      let fg = r.style.fg ?? FG;
      let bg = r.style.bg;
      if (r.style.inverse) [fg, bg] = [bg ?? BG, fg];
      const x = pad + r.col * cw;
      const width = cells(r.text) * cw;
      if (bg) out.push(`<rect x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${lh}" fill="${bg}"/>`);
      if (!r.text.trim()) continue;
      const attrs = [
        `x="${x.toFixed(1)}"`,
        `y="${y + Math.round(lh * 0.78)}"`,
        `fill="${fg}"`,
        `textLength="${width.toFixed(1)}"`,
        `lengthAdjust="spacingAndGlyphs"`,
        r.style.bold ? `font-weight="bold"` : "",
        r.style.dim ? `opacity="0.6"` : "",
        r.style.italic ? `font-style="italic"` : "",
        r.style.underline ? `text-decoration="underline"` : "",
      ].filter(Boolean);
      out.push(`<text ${attrs.join(" ")}>${esc(r.text)}</text>`);
    }
  });
  out.push("</g>", "</svg>");
  return out.filter(Boolean).join("\n") + "\n";
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const file = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
  const input = file ? await Bun.file(file).text() : await new Response(Bun.stdin.stream()).text();
  process.stdout.write(ansiToSvg(input, { title: opt("--title"), cols: opt("--cols") ? Number(opt("--cols")) : undefined }));
}
