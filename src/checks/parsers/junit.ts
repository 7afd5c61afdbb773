import { counts, int, type Parsed, type RawFinding } from "./types.ts";

const TESTCASE = /<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g;
const PROBLEM = /<(failure|error)\b([^>]*?)(?:\/>|>([\s\S]*?)<\/\1>)/;
const SKIPPED = /<skipped\b/;
const ATTR = /([\w:-]+)\s*=\s*"([^"]*)"|([\w:-]+)\s*=\s*'([^']*)'/g;

function attrs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(ATTR)) out[(m[1] ?? m[3])!] = unescapeXml((m[2] ?? m[4])!);
  return out;
}

function unescapeXml(s: string): string {
  return s
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, "&");
}

// a `file:line` in the failure's text when the testcase has no file/line attributes
const ANCHOR = /([\w./-]+\.\w+):(\d+)(?::(\d+))?/;

/** A JUnit XML report (pytest --junitxml, jest-junit, go-junit-report, cargo2junit, surefire). */
export function parseJunit(xml: string): Parsed {
  const findings: RawFinding[] = [];
  let passing = 0;
  let failing = 0;
  for (const tc of xml.matchAll(TESTCASE)) {
    const a = attrs(tc[1]!);
    const body = tc[2] ?? "";
    if (SKIPPED.test(body)) continue;
    const p = PROBLEM.exec(body);
    if (!p) {
      passing++;
      continue;
    }
    failing++;
    const pa = attrs(p[2]!);
    const detail = unescapeXml(p[3] ?? "").trim();
    const name = [a.classname, a.name].filter(Boolean).join(".");
    const message = `${name}: ${(pa.message ?? detail.split("\n")[0] ?? p[1]!).trim() || p[1]}`;
    const anchor = a.file ? null : ANCHOR.exec(detail);
    findings.push({
      file: a.file ?? anchor?.[1],
      line: int(a.line) ?? int(anchor?.[2]),
      column: a.file ? undefined : int(anchor?.[3]),
      severity: "error",
      message,
    });
  }
  return { findings, tests: counts(passing, failing) };
}
