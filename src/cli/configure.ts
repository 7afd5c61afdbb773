import { loadConfig } from "../config/load.ts";
import { applyRoleChanges, askRoleChanges, type RoleChange } from "../onboarding/configure.ts";
import { Prompter } from "../onboarding/prompter.ts";
import { findProjectDir } from "../session/project.ts";
import { bool, parseArgs, str, usage } from "./args.ts";

const HELP = `Usage: agentmux configure --role ROLE [--provider P] [--model M]
       agentmux configure            (in a terminal: asks role by role)

Change which provider and model a role uses, in .agentmux/config.yaml (created when
missing). The file is edited in place: comments and key order are kept. The result is
validated before it is written; on an error nothing changes.

Options:
  --role ROLE       product-manager, architect, planner, designer, coder, reviewer_logic,
                    reviewer_quality, reviewer_expert, code-researcher, web-researcher
  --provider P      a configured provider (claude, codex, gemini, opencode, copilot, qwen, sim, …);
                    "default" removes the override so the role follows defaults.provider
  --model M         a model name for that CLI; "default" removes the override
`;

const orNull = (v: string | undefined) => (v === undefined ? undefined : v === "default" ? null : v);

export async function run(argv: string[]): Promise<number> {
  const args = parseArgs("configure", argv, {
    flags: { role: { type: "string" }, provider: { type: "string" }, model: { type: "string" } },
    maxPositionals: 0,
  });
  if (bool(args.flags.help)) {
    process.stdout.write(HELP);
    return 0;
  }
  const projectDir = findProjectDir();
  const role = str(args.flags.role);
  let changes: RoleChange[];
  if (role !== undefined) {
    const change: RoleChange = { role, provider: orNull(str(args.flags.provider)), model: orNull(str(args.flags.model)) };
    if (change.provider === undefined && change.model === undefined) throw usage("configure", "give --provider and/or --model with --role");
    changes = [change];
  } else if (args.flags.provider !== undefined || args.flags.model !== undefined) {
    throw usage("configure", "--provider and --model need --role");
  } else if (process.stdin.isTTY && process.stdout.isTTY) {
    const prompter = Prompter.forTerminal();
    try {
      changes = await askRoleChanges(prompter, loadConfig({ projectDir }).config);
    } finally {
      prompter.close();
    }
  } else {
    throw usage("configure", "not a terminal: give --role with --provider and/or --model");
  }
  if (changes.length === 0) {
    process.stdout.write("nothing changed\n");
    return 0;
  }
  const { path, changed } = applyRoleChanges(projectDir, changes);
  const rel = path.slice(projectDir.length + 1);
  for (const c of changes) {
    const parts = [c.provider !== undefined && `provider ${c.provider ?? "(default)"}`, c.model !== undefined && `model ${c.model ?? "(default)"}`].filter(Boolean);
    process.stdout.write(`${c.role}: ${parts.join(", ")}\n`);
  }
  process.stdout.write(changed ? `wrote ${rel}\n` : `${rel} already had these values\n`);
  return 0;
}
