import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO_ROOT } from "../helpers/tmp.ts";

export const SRC = join(REPO_ROOT, "src");

export function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith(".ts") ? [path] : [];
  });
}

/** Source text without comments, so prose never trips a rule. */
export function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
}

/** Every line of code (comments out) a rule matches, as `<path>:<line> <what the rule forbids>: <the line>`. */
export function lineViolations(files: { path: string; text: string }[], rules: readonly [RegExp, string][]): string[] {
  const out: string[] = [];
  for (const f of files)
    code(f.text)
      .split("\n")
      .forEach((line, i) => {
        for (const [re, what] of rules) if (re.test(line)) out.push(`${f.path}:${i + 1} ${what}: ${line.trim().slice(0, 120)}`);
      });
  return out;
}

/** Every module specifier (static import/export-from, dynamic import, require). */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^;]*?from\s*["']([^"']+)["']/g)) out.push(m[1]!);
  for (const m of text.matchAll(/\bimport\s*["']([^"']+)["']/g)) out.push(m[1]!);
  for (const m of text.matchAll(/\b(?:import|require)\s*\(\s*["']([^"']+)["']/g)) out.push(m[1]!);
  return out;
}

/** The src files one file imports (relative specifiers resolved; assets and packages left out). */
export function localImports(file: string): string[] {
  return specifiers(code(readFileSync(file, "utf8")))
    .filter((s) => s.startsWith("."))
    .map((s) => resolve(dirname(file), s))
    .filter((p) => p.startsWith(SRC + "/") && p.endsWith(".ts") && existsSync(p));
}

/** The folder under src/ a file belongs to ("errors.ts" for top-level files). */
export function area(file: string): string {
  const rel = relative(SRC, file).split("/");
  return rel.length === 1 ? rel[0]! : rel[0]!;
}

/** Every file reachable from `roots` through relative imports, roots included. */
export function closure(roots: string[]): string[] {
  const seen = new Set<string>();
  const todo = [...roots];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...localImports(f));
  }
  return [...seen].sort();
}
