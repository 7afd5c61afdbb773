import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO_ROOT } from "../helpers/tmp.ts";
import { closure, code, sources, specifiers } from "../architecture/imports.ts";

const ROOT = join(REPO_ROOT, "src", "orchestrator");

const FORBIDDEN_IMPORT_DIRS = [
  "app",
  "daemon",
  "launcher",
  "effects",
  "tui",
  "views",
  "bus",
  "providers",
  "mcp",
  "cli",
  "config",
  "sim",
  "onboarding",
  "prompts",
];
const FORBIDDEN_MODULES = [/^node:/, /^fs(\/|$)/, /^child_process$/, /^os$/, /^path$/];

const FORBIDDEN_CODE: [string, RegExp][] = [
  ["Bun.", /\bBun\./],
  ["process.", /\bprocess\./],
  ["await", /\bawait\b/],
  ["Date.now", /\bDate\.now\b/],
  ["new Date(", /\bnew\s+Date\s*\(/],
  ["Math.random", /\bMath\.random\b/],
  ["require(", /\brequire\s*\(/],
];

/** Violations of the house rule "phase handlers are pure" in one file's source. */
export function violations(path: string, text: string): string[] {
  const src = code(text);
  const out: string[] = [];
  for (const spec of specifiers(src)) {
    if (FORBIDDEN_MODULES.some((re) => re.test(spec))) out.push(`imports ${spec}`);
    if (spec.startsWith(".")) {
      const target = relative(join(REPO_ROOT, "src"), join(path, "..", spec)).split("/")[0]!;
      if (FORBIDDEN_IMPORT_DIRS.includes(target)) out.push(`imports ${spec} (src/${target}/)`);
    }
  }
  for (const [name, re] of FORBIDDEN_CODE) if (re.test(src)) out.push(`uses ${name}`);
  return out;
}

describe("src/orchestrator is pure", () => {
  const files = sources(ROOT);

  test("there is something to check", () => {
    expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(["transition.ts", "step.ts", "phases/implementing.ts", "phases/reviewing.ts"]));
  });

  test("no file imports the impure layers, node modules or Bun, nor reads the clock or randomness", () => {
    const found = files.flatMap((f) => violations(f, readFileSync(f, "utf8")).map((v) => `${relative(REPO_ROOT, f)}: ${v}`));
    expect(found).toEqual([]);
  });

  test("neither does any file the orchestrator imports, directly or not (schema/, protocol/paths.ts)", () => {
    const reach = closure(files).filter((f) => !f.startsWith(ROOT + "/"));
    expect(reach.map((f) => relative(REPO_ROOT, f))).toEqual(expect.arrayContaining(["src/schema/state.ts", "src/protocol/paths.ts"]));
    const found = reach.flatMap((f) => violations(f, readFileSync(f, "utf8")).map((v) => `${relative(REPO_ROOT, f)}: ${v}`));
    expect(found).toEqual([]);
  });

  test("the scanner catches each forbidden construct", () => {
    const at = join(ROOT, "phases", "x.ts");
    const bad: [string, string][] = [
      [`import { writeState } from "../../app/store.ts";`, "src/app/"],
      [`import { Tmux } from "../../effects/tmux/runner.ts";`, "src/effects/"],
      [`import { view } from "../../tui/views/monitor.ts";`, "src/tui/"],
      [`import { ToolTail } from "../../bus/tool-tail.ts";`, "src/bus/"],
      [`import { launchSpec } from "../../providers/launch.ts";`, "src/providers/"],
      [`import { server } from "../../mcp/server.ts";`, "src/mcp/"],
      [`import { parseArgs } from "../../cli/args.ts";`, "src/cli/"],
      [`import { readFileSync } from "node:fs";`, "node:fs"],
      [`import * as fs from "fs";`, "imports fs"],
      [`import { spawn } from "child_process";`, "child_process"],
      [`const m = await import("node:path");`, "node:path"],
      [`const t = Bun.file("x");`, "Bun."],
      [`const e = process.env.HOME;`, "process."],
      [`async function f() { await g(); }`, "await"],
      [`const t = Date.now();`, "Date.now"],
      [`const d = new Date();`, "new Date("],
      [`const r = Math.random();`, "Math.random"],
    ];
    for (const [line, what] of bad) {
      const v = violations(at, line);
      expect(v.join("; ")).toContain(what);
    }
    expect(violations(at, `import { F } from "../../protocol/paths.ts";\n// never await here, no Date.now()\nconst at = event.at;`)).toEqual([]);
  });
});
