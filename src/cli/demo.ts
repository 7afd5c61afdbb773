import { mkdirSync, mkdtempSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { initWithCommit } from "../effects/git/init.ts";
import { noticeOut } from "../launcher/notices.ts";
import { stringify } from "yaml";
import { AgentmuxError } from "../errors.ts";
import { DemoDirNotEmpty, DemoDirUnusable, InvalidThinkMs } from "./errors.ts";
import { isHeadless, startRun } from "../launcher/start.ts";
import type { ParsedArgs } from "./args.ts";
import type { demo } from "./specs/start.ts";
import { parseScenario } from "../sim/scenario.ts";

export const DEMO_REQUEST = "Add a greeting module: a function greet(name) that returns a friendly greeting, with a unit test.";

/** A test that fails on the scratch project's first commit (scenario check_base_failure): a failure that is not the run's. */
const LEGACY_FAILURE =
  'import { test } from "node:test";\nimport assert from "node:assert/strict";\n\ntest("legacy rounding", () => {\n  assert.equal(0.1 + 0.2, 0.3);\n});\n';

/** The scratch project's own test on its first commit: `npm test` passes there. */
const BASE_TEST =
  'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { main } from "../src/index.js";\n\ntest("main names the app", () => {\n  assert.equal(main(), "demo-app");\n});\n';

/** A small project to work on, committed on main with isomorphic-git (`legacyFailure`: with a test that already fails). */
export async function createScratchRepo(dir: string, o: { legacyFailure?: boolean } = {}): Promise<void> {
  const files: Record<string, string> = {
    ...(o.legacyFailure ? { "test/legacy.test.js": LEGACY_FAILURE } : {}),
    "README.md": "# demo-app\n\nA tiny project that agentmux's simulated agents work on.\n",
    // `node --test` alone walks the whole checkout, the run's session folder too, and fails when one of
    // agentmux's temp files vanishes between its listing and its look (a check alongside the reviewers)
    "package.json": JSON.stringify({ name: "demo-app", version: "1.0.0", type: "module", scripts: { test: "node --test test/" } }, null, 2) + "\n",
    "src/index.js": 'export function main() {\n  return "demo-app";\n}\n',
    "test/index.test.js": BASE_TEST,
    ".gitignore": "node_modules/\n.agentmux/.sessions/\n.agentmux/.last_completion.json\n",
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  await initWithCommit(dir, {
    branch: "main",
    files: Object.keys(files),
    author: { name: "agentmux demo", email: "demo@agentmux.invalid" },
    message: "Initial commit",
  });
}

export async function run({ flags }: ParsedArgs<typeof demo>): Promise<number> {
  const headless = isHeadless(flags.ci);
  const think = flags["think-ms"] ?? (headless ? "0" : "600");
  if (!/^\d{1,5}$/.test(think)) throw new InvalidThinkMs({ given: think });
  // a bad scenario is a usage error before anything is created (the sim would die at start)
  const scenario = parseScenario(flags.scenario, "demo --scenario");
  const dir = flags.dir ? emptyFolder(flags.dir) : realpathSync(mkdtempSync(join(tmpdir(), "agentmux-demo-")));
  await createScratchRepo(dir, { legacyFailure: scenario.check_base_failure === true });
  const npm = Bun.which("npm") !== null;
  const config = {
    version: 2,
    defaults: { provider: "sim", completion: { skip_final_approval: headless || !flags.approve } },
    github: { pull_request: false, push: false },
    // the project's own test suite, run by agentmux after the implementation and each fix round
    // (without npm the run would stop at the checks' preflight: the demo goes on without it)
    // (check_hang: a short timeout, so the demo shows the hung test killed without a long wait)
    ...(npm ? { checks: { test: { command: "npm test", timeout_s: scenario.check_hang ? 15 : 120 } } } : {}),
    sim: {
      think_ms: Number(think),
      scenario: (flags.scenario ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    },
  };
  mkdirSync(join(dir, ".agentmux"), { recursive: true });
  writeFileSync(join(dir, ".agentmux", "config.yaml"), stringify(config));
  const print = (l: string) => process.stdout.write(l + "\n");
  // with --json every stdout line is a JSON object, the demo's own lines too
  const out = noticeOut(flags.json ? "json" : "plain", print);
  out(`agentmux demo: scratch repository ${dir}`);
  if (!npm) out("agentmux demo: npm is not on PATH, so the demo runs without its test check (checks: in docs/checks.md)");
  const code = await startRun({
    cwd: dir,
    request: DEMO_REQUEST,
    slugSource: "greeting module",
    productManager: false,
    worktree: false,
    keepSession: flags["keep-session"],
    configPath: flags.config ? resolve(flags.config) : undefined,
    headless,
    progress: flags.json ? "json" : "plain",
    serve: flags.serve,
    out: print,
  });
  out(`agentmux demo: repository ${dir}`);
  return code;
}

/** demo --dir: a new or empty folder, made when missing; a file or an unmakeable path is a usage error. */
function emptyFolder(given: string): string {
  const dir = resolve(given);
  try {
    const st = statSync(dir, { throwIfNoEntry: false });
    if (st && !st.isDirectory()) throw new DemoDirUnusable({ dir });
    if (st && readdirSync(dir).length > 0) throw new DemoDirNotEmpty({ dir });
    mkdirSync(dir, { recursive: true });
    return realpathSync(dir);
  } catch (e) {
    if (e instanceof AgentmuxError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new DemoDirUnusable({
      dir,
      reason: code === "ENOTDIR" ? "a part of its path is a file" : code === "EACCES" ? "permission denied" : (e as Error).message,
    });
  }
}
