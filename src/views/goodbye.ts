import { fit, seg, toAnsi, wrapText, type Line, type Style } from "./line.ts";
import { duration } from "./time.ts";

export type GoodbyeKind = "success" | "canceled" | "failed";
export type GoodbyeData = {
  feature: string;
  session?: string;
  commit?: string;
  prUrl?: string | null;
  branch?: string;
  elapsedMs?: number;
  resumeCommand?: string;
  reason?: string;
  logPath?: string | null;
  /** what the completion skipped or could not do (no push, no PR, checkout not restored), with why */
  notes?: string[];
  /** tokens and estimated cost of the run (views/usage.ts usageLine) */
  usage?: string;
  /** the latest round's checks, one line each (report/checks.ts checkSummaryLines) */
  checks?: string[];
};

const LOGO = ["▄▀█ █▀▀ █▀▀ █▄ █ ▀█▀   █▀▄▀█ █ █ ▀▄▀", "█▀█ █▄█ ██▄ █ ▀█  █    █ ▀ █ █▄█ █ █"];

const HEAD: Record<GoodbyeKind, { title: string; sub: string; style: Style }> = {
  success: { title: "✓ Implementation complete", sub: "The change is committed.", style: "green" },
  canceled: { title: "■ Run canceled", sub: "Nothing was lost.", style: "yellow" },
  failed: { title: "✗ Run failed", sub: "The pipeline stopped on an error.", style: "red" },
};

/** The lines of a goodbye screen; the logo is dropped when the terminal is narrower than it. */
export function goodbyeLines(kind: GoodbyeKind, d: GoodbyeData, width: number): Line[] {
  const h = HEAD[kind];
  const out: Line[] = [];
  if (width >= LOGO[0]!.length + 2) out.push(...LOGO.map((l): Line => [seg("  " + l, "cyan", "bold")]), []);
  // a cancel says who canceled (the monitor, Ctrl-C, a signal): never a guess
  // a run whose folder agentmux clean removed has lost its session: no "nothing was lost"
  const sub = kind === "canceled" && d.reason ? `${d.reason[0]!.toUpperCase()}${d.reason.slice(1)}${d.resumeCommand ? "; nothing was lost" : ""}.` : h.sub;
  out.push([seg("  " + h.title, h.style, "bold")], ...wrapText(sub, Math.max(10, width - 2)).map((l): Line => [seg("  " + l, "dim")]), []);
  const row = (k: string, v: string | undefined | null, ...st: Style[]) => {
    if (!v) return;
    // a key given as "" continues the rows above it
    const lines = wrapText(v, Math.max(10, width - 14));
    out.push([seg(`  ${k.padEnd(10)}`, "dim"), seg(lines[0]!, ...st)]);
    for (const more of lines.slice(1)) out.push([seg(" ".repeat(12)), seg(more, ...st)]);
  };
  row("Feature", d.feature, "bold");
  if (kind === "success") {
    row("Commit", d.commit);
    row("PR", d.prUrl, "cyan");
    row("Branch", d.branch);
    for (const n of d.notes ?? []) row("Note", n, "yellow");
    (d.checks ?? []).forEach((c, i) => row(i ? "" : "Checks", c, c.startsWith("✓") ? "green" : c.startsWith("✗") ? "red" : "yellow"));
    if (d.elapsedMs !== undefined) row("Elapsed", duration(d.elapsedMs));
    row("Usage", d.usage);
    out.push([], [seg("  Thanks for building with agentmux.", "dim")]);
  } else {
    if (kind === "failed") row("Reason", d.reason ?? "unknown", "red");
    row("Session", d.session);
    (d.checks ?? []).forEach((c, i) => row(i ? "" : "Checks", c, c.startsWith("✓") ? "green" : c.startsWith("✗") ? "red" : "yellow"));
    if (d.elapsedMs !== undefined) row("Elapsed", duration(d.elapsedMs));
    row("Usage", d.usage);
    row("Resume", d.resumeCommand, "cyan");
    row("Log", d.logPath ?? undefined);
  }
  return out.map((l) => fit(l, width));
}

/** A goodbye screen as terminal text (ANSI when `color`), ending with a newline. */
export function goodbye(kind: GoodbyeKind, data: GoodbyeData, opts: { color: boolean; width: number }): string {
  return (
    goodbyeLines(kind, data, opts.width)
      .map((l) => toAnsi(l, { color: opts.color }))
      .join("\n") + "\n"
  );
}
