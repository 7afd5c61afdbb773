import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { SRC } from "./imports.ts";

/**
 * What a long-lived process evaluates when it starts (#15.2). In the compiled binary a module
 * reached by static imports is evaluated at start and stays in the process's memory; a dynamic
 * `import()` (or the lazy yamlLib) loads only when it runs. Measured in the compiled binary, at
 * idle: isomorphic-git with its polyfills about 15 MB, yaml about 8 MB, the MCP SDK with ajv
 * about 18 MB, blessed about 17 MB. Each process starts without the ones it does not use at once;
 * `bun bench/footprint.ts` shows what they weigh in a run.
 */
const STARTS: { process: string; entry: string; without: string[] }[] = [
  // every process: main.ts → cli/dispatch.ts → the command table
  {
    process: "every command (dispatch)",
    entry: "cli/dispatch.ts",
    without: ["isomorphic-git", "yaml", "blessed", "@modelcontextprotocol/sdk", "ora", "chokidar", "zod"],
  },
  // the orchestrator commits (and describes an interrupted attempt) with git: loaded then
  { process: "orchestrator", entry: "daemon/main.ts", without: ["isomorphic-git", "blessed", "ora"] },
  // the monitor reads JSON session files only
  { process: "monitor", entry: "tui/monitor-app.ts", without: ["isomorphic-git", "yaml", "@modelcontextprotocol/sdk", "ora"] },
  { process: "agentmux status", entry: "cli/status.ts", without: ["isomorphic-git", "yaml", "blessed", "@modelcontextprotocol/sdk"] },
];

const transpiler = new Bun.Transpiler({ loader: "ts" });

/** Static (evaluated at start) import chains from `entry` to each package it reaches. */
function packagesAtStart(entry: string): Map<string, string[]> {
  const parent = new Map<string, string>();
  const found = new Map<string, string[]>();
  const todo = [resolve(SRC, entry)];
  const seen = new Set(todo);
  const chain = (f: string) => {
    const out = [f];
    while (parent.has(out[0]!)) out.unshift(parent.get(out[0]!)!);
    return out.map((x) => relative(SRC, x));
  };
  while (todo.length) {
    const file = todo.shift()!;
    // type-only imports are erased here, dynamic import() is not an import-statement
    for (const i of transpiler.scan(readFileSync(file, "utf8")).imports) {
      if (i.kind !== "import-statement") continue;
      if (!i.path.startsWith(".")) {
        const pkg = i.path.startsWith("@") ? i.path.split("/").slice(0, 2).join("/") : i.path.split("/")[0]!;
        if (!found.has(pkg)) found.set(pkg, chain(file));
        continue;
      }
      const next = resolve(dirname(file), i.path);
      if (!next.startsWith(SRC + "/") || seen.has(next) || !next.endsWith(".ts")) continue;
      seen.add(next);
      parent.set(next, file);
      todo.push(next);
    }
  }
  return found;
}

for (const s of STARTS) {
  test(`${s.process} starts without ${s.without.join(", ")}`, () => {
    const found = packagesAtStart(s.entry);
    const loaded = s.without.filter((p) => found.has(p)).map((p) => `${p} via ${found.get(p)!.join(" → ")}`);
    expect(loaded).toEqual([]);
  });
}

test("the check sees a package a start module imports (it can fail)", () => {
  expect(packagesAtStart("cli/demo.ts").has("isomorphic-git")).toBe(true);
  expect(packagesAtStart("tui/monitor-app.ts").has("blessed")).toBe(true);
  expect(packagesAtStart("daemon/main.ts").has("yaml")).toBe(true); // config.yaml, plan.yaml
});
