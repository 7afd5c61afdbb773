import type { ProcResult, Runner } from "../effects/process/run.ts";
import { BWRAP_BASE } from "./bwrap.ts";

/** Whether agents can run in the sandbox here: bubblewrap's path and version, or why not. */
export type SandboxAvailability = { ok: true; bwrap: string; version: string } | { ok: false; reason: string; fix: string };

const FIX_INSTALL = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap), or set sandbox: false";

/**
 * Not only "is bwrap on PATH": a sandbox like the agents' is made once (read-only root, its own
 * pid namespace and /proc, a tmpfs) and `true` run in it — a kernel without unprivileged user
 * namespaces, or a container that forbids them, fails here with bwrap's own words. `bwrap`: its
 * path on PATH (providers/doctor.ts findOnPath), or null.
 */
export async function sandboxAvailability(o: {
  bwrap: string | null;
  exec: Runner;
  platform?: NodeJS.Platform;
  timeoutMs?: number;
}): Promise<SandboxAvailability> {
  if ((o.platform ?? process.platform) !== "linux")
    return {
      ok: false,
      reason: `the sandbox needs Linux (bubblewrap); this system is ${o.platform ?? process.platform}`,
      fix: "set sandbox: false (docs/security.md says what holds without it)",
    };
  const bwrap = o.bwrap;
  if (!bwrap) return { ok: false, reason: "bubblewrap (bwrap) is not on PATH", fix: FIX_INSTALL };
  const timeoutMs = o.timeoutMs ?? 5000;
  const failed = (e: unknown): ProcResult => ({ code: 127, stdout: "", stderr: String(e) });
  const version = await o.exec([bwrap, "--version"], { timeoutMs }).catch(failed);
  // the launch's own base, so that what the trial passes the launch can make
  const trial = await o.exec([bwrap, ...BWRAP_BASE, "--tmpfs", "/tmp", "--", "true"], { timeoutMs }).catch(failed);
  if (trial.code !== 0) {
    const said = (trial.stderr.trim() || trial.stdout.trim() || (trial.timedOut ? `timed out after ${timeoutMs / 1000} s` : `exit ${trial.code}`)).split(
      "\n",
    )[0]!;
    return {
      ok: false,
      reason: `${bwrap} cannot make a sandbox here: ${said}`,
      fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; in a container, run it with user namespaces allowed), or set sandbox: false",
    };
  }
  return { ok: true, bwrap, version: (version.stdout.trim() || version.stderr.trim()).split("\n")[0] ?? "bubblewrap" };
}

/** The roles whose agents the config puts in the sandbox. */
export function sandboxedRoles(
  config: { sandbox: boolean; roles: Partial<Record<string, { sandbox?: boolean } | undefined>> },
  roles: readonly string[],
): string[] {
  return roles.filter((r) => config.roles[r]?.sandbox ?? config.sandbox);
}
