import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as nodeFs from "node:fs";
import git from "isomorphic-git";
import { stringify } from "yaml";
import { AgentmuxError } from "../errors.ts";
import { isHeadless, startRun } from "../launcher/start.ts";
import { bool, parseArgs, str } from "./args.ts";

const HELP = `Usage: agentmux demo [--dir PATH] [--ci] [--json] [--scenario LIST] [--think-ms N]

Runs the whole pipeline with simulated agents (no AI subscription needed) in a scratch git
repository: architect → planner → coder → reviewer → commit on a feature branch.

Options:
  --dir PATH        create the scratch repository here (new or empty folder; default: a temp dir)
  --ci              headless: progress lines on stdout, exit 0 on success, 1 on failure
  --json            with --ci: one JSON object per line
  --scenario LIST   simulated-agent scenario switches, comma-separated
                    (e.g. parallel,review_fail_once,reviewers=logic+quality+expert)
  --think-ms N      simulated thinking time per step (default 600 in a terminal, 0 headless)
  --approve         in a terminal: stop at the approval panel instead of auto-approving
  --keep-session    keep the session folder after the commit
`;

export const DEMO_REQUEST = "Add a greeting module: a function greet(name) that returns a friendly greeting, with a unit test.";

/** A small project to work on, committed on main with isomorphic-git. */
export async function createScratchRepo(dir: string): Promise<void> {
  const files: Record<string, string> = {
    "README.md": "# demo-app\n\nA tiny project that agentmux's simulated agents work on.\n",
    "package.json": JSON.stringify({ name: "demo-app", version: "1.0.0", type: "module", scripts: { test: "node --test" } }, null, 2) + "\n",
    "src/index.js": 'export function main() {\n  return "demo-app";\n}\n',
    ".gitignore": "node_modules/\n.agentmux/.sessions/\n.agentmux/.last_completion.json\n",
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  await git.init({ fs: nodeFs, dir, defaultBranch: "main" });
  await git.setConfig({ fs: nodeFs, dir, path: "user.name", value: "agentmux demo" });
  await git.setConfig({ fs: nodeFs, dir, path: "user.email", value: "demo@agentmux.invalid" });
  await git.add({ fs: nodeFs, dir, filepath: Object.keys(files) });
  await git.commit({ fs: nodeFs, dir, message: "Initial commit", author: { name: "agentmux demo", email: "demo@agentmux.invalid" } });
}

export async function run(argv: string[]): Promise<number> {
  const { flags } = parseArgs("demo", argv, {
    flags: {
      dir: { type: "string" },
      ci: { type: "boolean" },
      json: { type: "boolean" },
      scenario: { type: "string" },
      "think-ms": { type: "string" },
      approve: { type: "boolean" },
      "keep-session": { type: "boolean" },
    },
    maxPositionals: 0,
  });
  if (flags.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const headless = isHeadless(bool(flags.ci));
  const think = str(flags["think-ms"]) ?? (headless ? "0" : "600");
  if (!/^\d{1,5}$/.test(think)) throw new AgentmuxError("usage", `--think-ms must be a number of milliseconds, got "${think}"`, { where: "demo", hint: "give whole milliseconds, e.g. --think-ms 200", exitCode: 2 });
  let dir: string;
  if (str(flags.dir)) {
    dir = resolve(str(flags.dir)!);
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      throw new AgentmuxError("usage", `${dir} is not empty`, { where: "demo --dir", hint: "give a new or empty folder", exitCode: 2 });
    }
    mkdirSync(dir, { recursive: true });
    dir = realpathSync(dir);
  } else dir = realpathSync(mkdtempSync(join(tmpdir(), "agentmux-demo-")));
  await createScratchRepo(dir);
  const config = {
    version: 2,
    defaults: { provider: "sim", completion: { skip_final_approval: headless || !bool(flags.approve) } },
    github: { pull_request: false, push: false },
    sim: { think_ms: Number(think), scenario: (str(flags.scenario) ?? "").split(",").map((s) => s.trim()).filter(Boolean) },
  };
  mkdirSync(join(dir, ".agentmux"), { recursive: true });
  writeFileSync(join(dir, ".agentmux", "config.yaml"), stringify(config));
  const out = (l: string) => process.stdout.write(l + "\n");
  out(`agentmux demo: scratch repository ${dir}`);
  const code = await startRun({
    cwd: dir,
    request: DEMO_REQUEST,
    slugSource: "greeting module",
    productManager: false,
    worktree: false,
    keepSession: bool(flags["keep-session"]),
    configPath: str(flags.config) ? resolve(str(flags.config)!) : undefined,
    headless,
    progress: bool(flags.json) ? "json" : "plain",
    out,
  });
  out(`agentmux demo: repository ${dir}`);
  return code;
}
