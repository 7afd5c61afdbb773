import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, extname, join, relative } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { camel } from "./naming.ts";

/**
 * Deterministic "real" code for the simulated coder: a small JS module per source file and
 * node:test cases per test file. A file that already exists gets a numbered change block
 * appended, so every edit is a real, visible change.
 */
export const isTestFile = (file: string) => /(^|\/)(test|tests|__tests__)\/|\.(test|spec)\.[a-z]+$/.test(file);

const stem = (file: string) =>
  basename(file)
    .replace(/\.(test|spec)(?=\.)/, "")
    .replace(/\.[^.]+$/, "");
const fnName = (file: string) => camel(stem(file).replace(/[^A-Za-z0-9_-]/g, "_")) || "feature";
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 120);

/** The line a source file returns with, right or (scenario check_bug) with the bug its test catches. */
const returnLine = (fn: string, bug = false) => (bug ? `  return \`${fn} - \${input}\`;` : `  return \`${fn}: \${input}\`;`);

function sourceBase(file: string, title: string, bug = false): string {
  const fn = fnName(file);
  return [
    `// ${file} — ${oneLine(title)}`,
    "// written by the agentmux simulated coder",
    "",
    `export function ${fn}(input = "world") {`,
    returnLine(fn, bug),
    "}",
    "",
  ].join("\n");
}

/** Mend the check_bug bug in a source file the simulated coder wrote; true when there was one. */
export function mendBug(workDir: string, file: string): boolean {
  const abs = join(workDir, file);
  if (!existsSync(abs)) return false;
  const fn = fnName(file);
  const text = readFileSync(abs, "utf8");
  if (!text.includes(returnLine(fn, true))) return false;
  writeFileAtomic(abs, text.replace(returnLine(fn, true), returnLine(fn)));
  return true;
}

function testBase(file: string, title: string, owned: string[]): string {
  const fn = fnName(file);
  const target = owned.find((f) => !isTestFile(f) && stem(f) === stem(file));
  if (!target) {
    return [
      `// ${file} — ${oneLine(title)}`,
      'import { test } from "node:test";',
      'import assert from "node:assert/strict";',
      "",
      `test("${fn} is planned", () => {`,
      `  assert.equal(${JSON.stringify(fn)}.length > 0, true);`,
      "});",
      "",
    ].join("\n");
  }
  let rel = relative(dirname(file), target);
  if (!rel.startsWith(".")) rel = "./" + rel;
  return [
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    `import { ${fn} } from ${JSON.stringify(rel)};`,
    "",
    `test("${fn} has a default", () => {`,
    `  assert.equal(${fn}(), "${fn}: world");`,
    "});",
    "",
    `test("${fn} uses its input", () => {`,
    `  assert.equal(${fn}("sim"), "${fn}: sim");`,
    "});",
    "",
  ].join("\n");
}

function changeBlock(file: string, existing: string, label: string): string {
  const n = (existing.match(/change (\d+):/g) ?? []).length + 1;
  const text = oneLine(label);
  if (isTestFile(file)) {
    return `\ntest(${JSON.stringify(`change ${n}: ${text}`)}, () => {\n  assert.equal(${JSON.stringify(text)}.length, ${text.length});\n});\n`;
  }
  if ([".js", ".ts", ".mjs", ".cjs"].includes(extname(file))) {
    return `\n// change ${n}: ${text}\nexport const ${fnName(file)}Change${n} = ${JSON.stringify(text)};\n`;
  }
  return `\nchange ${n}: ${text}\n`;
}

/** Create `file` (base content) or append a change block; returns what was done. */
export function writeOwnedFile(workDir: string, file: string, opts: { title: string; owned: string[]; change?: string; bug?: boolean }): "created" | "changed" {
  const abs = join(workDir, file);
  if (!existsSync(abs)) {
    const ext = extname(file);
    let content: string;
    if (isTestFile(file)) content = testBase(file, opts.title, opts.owned);
    else if ([".js", ".ts", ".mjs", ".cjs"].includes(ext)) content = sourceBase(file, opts.title, opts.bug);
    else if (ext === ".md") content = `# ${oneLine(opts.title)}\n\nWritten by the agentmux simulated coder for \`${file}\`.\n`;
    else content = `${oneLine(opts.title)}\n`;
    writeFileAtomic(abs, content);
    return "created";
  }
  const existing = readFileSync(abs, "utf8");
  writeFileAtomic(abs, existing + changeBlock(file, existing, opts.change ?? opts.title));
  return "changed";
}

/** Test files and test cases among `files` (as they are now in the work dir). */
export function countTests(workDir: string, files: string[]): { files: number; cases: number } {
  let n = 0;
  let cases = 0;
  for (const f of files.filter(isTestFile)) {
    const abs = join(workDir, f);
    if (!existsSync(abs)) continue;
    n++;
    cases += (readFileSync(abs, "utf8").match(/^test\(/gm) ?? []).length;
  }
  return { files: n, cases };
}
