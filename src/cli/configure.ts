import { loadConfig } from "../config/load.ts";
import { applyRoleChanges, askRoleChanges, type RoleChange } from "../onboarding/configure.ts";
import { Prompter } from "../onboarding/prompter.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import { NeedsTerminal, RoleChangeIncomplete } from "./errors.ts";
import type { configure } from "./specs/setup.ts";

const orNull = (v: string | undefined) => (v === undefined ? undefined : v === "default" ? null : v);

export async function run(args: ParsedArgs<typeof configure>): Promise<number> {
  const projectDir = findProjectDir();
  const role = args.flags.role;
  let changes: RoleChange[];
  if (role !== undefined) {
    const change: RoleChange = { role, provider: orNull(args.flags.provider), model: orNull(args.flags.model) };
    if (change.provider === undefined && change.model === undefined) throw new RoleChangeIncomplete({ missing: "provider-or-model" });
    changes = [change];
  } else if (args.flags.provider !== undefined || args.flags.model !== undefined) {
    throw new RoleChangeIncomplete({ missing: "role" });
  } else if (process.stdin.isTTY && process.stdout.isTTY) {
    const prompter = Prompter.forTerminal();
    try {
      changes = await askRoleChanges(prompter, loadConfig({ projectDir }).config);
    } finally {
      prompter.close();
    }
  } else {
    throw new NeedsTerminal({ command: "configure" });
  }
  if (changes.length === 0) {
    process.stdout.write("nothing changed\n");
    return 0;
  }
  const { path, changed } = applyRoleChanges(projectDir, changes);
  const rel = path.slice(projectDir.length + 1);
  for (const c of changes) {
    const parts = [c.provider !== undefined && `provider ${c.provider ?? "(default)"}`, c.model !== undefined && `model ${c.model ?? "(default)"}`].filter(
      Boolean,
    );
    process.stdout.write(`${c.role}: ${parts.join(", ")}\n`);
  }
  process.stdout.write(changed ? `wrote ${rel}\n` : `${rel} already had these values\n`);
  return 0;
}
