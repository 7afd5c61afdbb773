import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, normalize, relative, sep } from "node:path";
import type { CheckFinding, CheckParser, TestCounts } from "../../schema/checks.ts";
import { parseCargo } from "./cargo.ts";
import { parseEslint } from "./eslint.ts";
import { parseGeneric } from "./generic.ts";
import { parseGo } from "./go.ts";
import { parseJunit } from "./junit.ts";
import { parsePytest } from "./pytest.ts";
import { summaryCounts } from "./summary.ts";
import { parseTap } from "./tap.ts";
import { parseTsc } from "./tsc.ts";
import type { OutputParser, Parsed, RawFinding } from "./types.ts";

const PARSERS: Record<Exclude<CheckParser, "auto" | "generic" | "none">, OutputParser> = {
  tsc: parseTsc,
  eslint: parseEslint,
  pytest: parsePytest,
  go: parseGo,
  cargo: parseCargo,
  tap: parseTap,
};

export type ParseContext = {
  check: string;
  parser: CheckParser;
  /** the checkout the check ran in (repository root or the run's worktree) */
  root: string;
  /** the check's folder, relative to `root` */
  cwd: string;
  /** the text of its JUnit report, when it writes one */
  junit?: string | null;
};

export type CheckOutput = { findings: CheckFinding[]; tests?: TestCounts };

/**
 * Findings and test counts from a check's output (control sequences already stripped): the
 * chosen parser, or with `auto` every tool parser, then the generic `path:line` reader when
 * none of them found anything. Paths become relative to the repository root.
 */
export function parseCheckOutput(text: string, ctx: ParseContext): CheckOutput {
  const results: Parsed[] = [];
  if (ctx.junit) results.push(parseJunit(ctx.junit));
  if (ctx.parser === "auto") results.push(...Object.values(PARSERS).map((p) => p(text)));
  else if (ctx.parser !== "generic" && ctx.parser !== "none") results.push(PARSERS[ctx.parser](text));
  const known = new Map<string, boolean>();
  const exists = (p: string) => {
    let yes = known.get(p);
    if (yes === undefined) known.set(p, (yes = !p.split(/[\\/]/).includes("node_modules") && fileIn(ctx.root, toRepoPath(p, ctx))));
    return yes;
  };
  if (ctx.parser !== "none" && results.every((r) => r.findings.length === 0)) results.push(parseGeneric(text, exists));
  const tests = results.find((r) => r.tests)?.tests ?? (ctx.parser === "none" ? undefined : summaryCounts(text));
  return { findings: dedupe(results.flatMap((r) => r.findings).map((f) => anchored(f, ctx))), ...(tests ? { tests } : {}) };
}

function anchored(f: RawFinding, ctx: ParseContext): CheckFinding {
  const out: CheckFinding = { check: ctx.check, message: f.message.trim() };
  if (f.file) out.file = toRepoPath(f.file, ctx);
  if (f.line !== undefined && f.line > 0) out.line = f.line;
  if (f.column !== undefined && f.column > 0) out.column = f.column;
  if (f.severity) out.severity = f.severity;
  return out;
}

/** A printed path as a repository-relative one; a path outside the checkout stays as printed. */
export function toRepoPath(printed: string, ctx: Pick<ParseContext, "root" | "cwd">): string {
  const p = printed.replace(/^file:\/\//, "");
  const abs = isAbsolute(p) ? normalize(p) : join(ctx.root, ctx.cwd, p);
  const rel = relative(ctx.root, abs);
  if (rel.startsWith("..") || isAbsolute(rel)) return p;
  return rel.split(sep).join("/");
}

function fileIn(root: string, rel: string): boolean {
  if (isAbsolute(rel) || rel.startsWith("..")) return false;
  const abs = join(root, rel);
  try {
    return existsSync(abs) && statSync(abs).isFile();
  } catch {
    return false;
  }
}

function dedupe(findings: CheckFinding[]): CheckFinding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.file ?? ""}:${f.line ?? ""}:${f.column ?? ""}:${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
