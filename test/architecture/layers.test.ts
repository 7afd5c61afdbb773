import { describe, expect, test } from "bun:test";
import { relative } from "node:path";
import { area, localImports, sources, SRC } from "./imports.ts";

/**
 * Which folders each folder of src/ may import. The folder says which process runs a file:
 * launcher/ runs in the user's terminal, daemon/ in the detached orchestrator, tui/ in the
 * blessed programs (monitor, home, panel), mcp/ in the orchestrator (the run's MCP endpoint) and in
 * the stdio bridge `agentmux mcp-server`, sim/ in the simulated agent;
 * the other folders are libraries they share. A new edge is a design decision: add it here.
 */
const ALLOWED: Record<string, string[]> = {
  "main.ts": ["cli", "errors.ts", "version.ts"],
  // formatError prints error data (paths, titles, causes) inert: the one sanitizer is in schema/
  "errors.ts": ["schema"],
  "version.ts": [],
  schema: [],
  // the session folder's protocol: its file names (paths.ts) and what each file holds (files.ts); pure data
  protocol: ["schema"],
  orchestrator: ["schema", "protocol", "errors.ts"],
  session: ["schema", "protocol", "effects", "errors.ts"],
  // adapters: of the session folder they know only its protocol, never session/ (which uses them)
  effects: ["schema", "protocol", "errors.ts"],
  artifacts: ["schema", "session", "protocol", "effects", "errors.ts"],
  config: ["schema", "session", "protocol", "effects", "errors.ts", "orchestrator", "providers"],
  // the agents' sandbox (bubblewrap command lines, its availability): a library of the launches
  sandbox: ["schema", "session", "protocol", "effects", "errors.ts"],
  providers: ["schema", "session", "protocol", "effects", "errors.ts", "config", "sandbox"],
  prompts: ["schema", "session", "protocol", "effects", "errors.ts", "providers", "config"],
  bus: ["schema", "session", "protocol", "effects", "errors.ts", "artifacts"],
  mcp: ["schema", "session", "protocol", "effects", "errors.ts", "artifacts", "bus", "version.ts"],
  sim: ["schema", "session", "protocol", "effects", "errors.ts", "artifacts"],
  // the project's own commands (#26): run on effects/process, parsed, compared with the base
  checks: ["schema", "session", "protocol", "effects", "errors.ts"],
  // the run API: one snapshot / event / result derivation that every view and output reads
  report: ["schema", "session", "protocol"],
  views: ["schema", "session", "protocol", "report"],
  tui: ["schema", "session", "protocol", "effects", "errors.ts", "artifacts", "views", "report"],
  // daemon → mcp: the orchestrator hosts the run's one MCP endpoint (#15.1)
  daemon: [
    "schema",
    "session",
    "protocol",
    "effects",
    "errors.ts",
    "artifacts",
    "bus",
    "config",
    "orchestrator",
    "prompts",
    "providers",
    "mcp",
    "checks",
    "report",
  ],
  launcher: [
    "schema",
    "session",
    "protocol",
    "effects",
    "errors.ts",
    "artifacts",
    "bus",
    "config",
    "orchestrator",
    "prompts",
    "providers",
    "onboarding",
    "views",
    "checks",
    "report",
    "sandbox",
  ],
  onboarding: ["schema", "session", "protocol", "effects", "errors.ts", "artifacts", "config", "providers", "prompts", "checks"],
  completions: ["cli", "errors.ts"],
  // web/ runs in `agentmux serve`: it reads sessions and writes only the decision files session/ writes
  web: ["schema", "session", "protocol", "effects", "errors.ts", "views", "report"],
  cli: ["*"],
};

/** Files a lower layer may import from a folder that is otherwise above it. */
const ONLY: Record<string, string[]> = {
  // errors.ts stays a leaf: of schema/ it uses only the text sanitizer
  "errors.ts->schema": ["schema/inert-text.ts"],
};

export function layerViolations(files: string[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const from = area(f);
    const allowed = ALLOWED[from];
    for (const t of localImports(f)) {
      const to = area(t);
      if (to === from) continue;
      const rel = relative(SRC, t);
      if (!allowed) out.push(`${relative(SRC, f)}: src/${from} has no entry in the layer table`);
      else if (!allowed.includes("*") && !allowed.includes(to)) out.push(`${relative(SRC, f)} imports ${rel} (${from} → ${to} is not allowed)`);
      else if (ONLY[`${from}->${to}`] && !ONLY[`${from}->${to}`]!.includes(rel))
        out.push(`${relative(SRC, f)} imports ${rel} (${from} may import only ${ONLY[`${from}->${to}`]!.join(", ")})`);
    }
  }
  return out;
}

describe("layers: the folders of src/ import only downwards", () => {
  test("every import follows the layer table", () => {
    expect(layerViolations(sources(SRC))).toEqual([]);
  });

  test("every folder of src/ is in the table", () => {
    const areas = new Set(sources(SRC).map(area));
    expect([...areas].filter((a) => !(a in ALLOWED))).toEqual([]);
  });

  test("the checker reports a wrong-way import", () => {
    // daemon/loop.ts really imports orchestrator/; pretend daemon/ may not
    const saved = ALLOWED.daemon;
    ALLOWED.daemon = saved!.filter((a) => a !== "orchestrator");
    try {
      expect(layerViolations(sources(SRC)).join("\n")).toContain("daemon → orchestrator is not allowed");
    } finally {
      ALLOWED.daemon = saved!;
    }
  });
});
