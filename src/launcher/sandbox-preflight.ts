import { ROLES } from "../schema/catalog.ts";
import type { Config } from "../schema/config.ts";
import type { Runner } from "../effects/process/run.ts";
import { findOnPath } from "../providers/doctor.ts";
import { sandboxAvailability, sandboxedRoles } from "../sandbox/available.ts";
import { SandboxUnavailable } from "../sandbox/errors.ts";
import { ChecksNotRunnable } from "../checks/errors.ts";
import { preflightChecks } from "../checks/preflight.ts";

/**
 * A run (or a resume) whose configuration puts agents in the sandbox stops here, before any
 * session, branch, tmux server or agent exists, when this system cannot make one.
 */
export async function requireSandbox(config: Config, o: { path: string; exec: Runner; platform?: NodeJS.Platform }): Promise<void> {
  const roles = sandboxedRoles(config, ROLES);
  if (!roles.length) return;
  const a = await sandboxAvailability({ bwrap: findOnPath("bwrap", o.path), exec: o.exec, ...(o.platform ? { platform: o.platform } : {}) });
  if (a.ok) return;
  const where = config.sandbox ? "sandbox" : roles.map((r) => `roles.${r}.sandbox`).join(", ");
  throw new SandboxUnavailable({ roles, where, reason: a.reason, fix: a.fix });
}

/**
 * A run (or a resume) whose configured checks cannot run — a program that is neither on PATH nor
 * a file in its folder, a folder that does not exist — stops here, before any agent starts,
 * naming each check and field (#26.1).
 */
export function requireRunnableChecks(config: Config, projectDir: string, env: Record<string, string | undefined> = process.env): void {
  const problems = preflightChecks(config, projectDir, env);
  if (problems.length) throw new ChecksNotRunnable({ problems });
}
