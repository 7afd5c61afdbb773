import { seg, wrapText, type Line, type Seg, type Style } from "./line.ts";
import { cells } from "./width.ts";

/** Inline Markdown: **bold**, __bold__, `code`; everything else is text. */
export function inline(text: string, base: Style[] = []): Seg[] {
  const out: Seg[] = [];
  const re = /(\*\*|__)(.+?)\1|`([^`]+)`/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push(seg(text.slice(last, m.index), ...base));
    if (m[2] !== undefined) out.push(seg(m[2], ...base, "bold"));
    else out.push(seg(m[3]!, ...base, "yellow"));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(seg(text.slice(last), ...base));
  return out;
}

/** Wrap inline-styled text: wrapping works on the plain text, styles are re-applied per word. */
function wrapInline(text: string, width: number, first: string, rest: string, base: Style[] = []): Line[] {
  const words = inline(text, base).flatMap((s) =>
    s.t
      .split(/(\s+)/)
      .filter(Boolean)
      .map((t) => ({ ...s, t })),
  );
  const lines: Line[] = [];
  let cur: Line = [seg(first)];
  let len = first.length;
  for (const w of words) {
    const space = /^\s+$/.test(w.t);
    if (space) {
      if (len > rest.length && len < width) (cur.push({ ...w, t: " " }), len++);
      continue;
    }
    if (len + cells(w.t) > width && len > rest.length) {
      while (cur.length && /^\s+$/.test(cur[cur.length - 1]!.t)) cur.pop();
      lines.push(cur);
      cur = [seg(rest)];
      len = rest.length;
    }
    cur.push(w);
    len += cells(w.t);
  }
  lines.push(cur);
  return lines;
}

/** Render Markdown (headings, bullets, numbered items, code blocks, quotes, bold, code) to lines. */
export function markdownLines(md: string, width: number): Line[] {
  const w = Math.max(10, width);
  const out: Line[] = [];
  let code = false;
  let para: string[] = [];
  const flush = () => {
    if (para.length) out.push(...wrapInline(para.join(" "), w, "", ""));
    para = [];
  };
  for (const raw of md.replace(/\r\n/g, "\n").split("\n")) {
    if (/^\s*(```|~~~)/.test(raw)) {
      flush();
      code = !code;
      continue;
    }
    if (code) {
      out.push([seg("  " + raw.replace(/\t/g, "  "), "green")]);
      continue;
    }
    const line = raw.trimEnd();
    let m: RegExpExecArray | null;
    if (!line.trim()) {
      flush();
      if (out.length && out[out.length - 1]!.length) out.push([]);
    } else if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      flush();
      if (out.length && out[out.length - 1]!.length) out.push([]);
      const style: Style[] = m[1]!.length === 1 ? ["bold", "cyan"] : m[1]!.length === 2 ? ["bold", "cyan"] : ["bold"];
      for (const t of wrapText(m[2]!.replace(/[*_`]/g, ""), w)) out.push([seg(t, ...style)]);
    } else if ((m = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line))) {
      flush();
      const indent = " ".repeat(Math.min(8, m[1]!.length));
      const bullet = /\d/.test(m[2]!) ? m[2]! + " " : "• ";
      out.push(
        ...wrapInline(
          m[3]!.replace(/^\[( |x)\]\s*/i, (_, x) => (x === " " ? "☐ " : "☑ ")),
          w,
          indent + bullet,
          indent + " ".repeat(bullet.length),
        ),
      );
    } else if ((m = /^>\s?(.*)$/.exec(line))) {
      flush();
      out.push(...wrapInline(m[1]!, w, "│ ", "│ ", ["dim"]));
    } else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      out.push([seg("─".repeat(w), "dim")]);
    } else para.push(line.trim());
  }
  flush();
  while (out.length && !out[out.length - 1]!.length) out.pop();
  return out;
}
