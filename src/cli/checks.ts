import { join } from "node:path";
import { loadConfig } from "../config/load.ts";
import { ChecksBaseMissing, ChecksNotRunnable, UnknownCheck } from "../checks/errors.ts";
import { BaseBranchMissing } from "../effects/git/errors.ts";
import { preflightChecks } from "../checks/preflight.ts";
import { runCheck } from "../checks/run.ts";
import { runChecksOnBase } from "../checks/base.ts";
import { compareAllWithBase } from "../checks/compare.ts";
import { resolveBaseRef, type BaseRef } from "../effects/git/base-ref.ts";
import { checkBlocks, type CheckResult, type CheckSpec } from "../schema/checks.ts";
import { terminalJson } from "../schema/inert-text.ts";
import { SESSIONS_DIR } from "../protocol/paths.ts";
import { findProjectDir } from "../session/project.ts";
import { checkResultLines } from "../views/checks.ts";
import type { ParsedArgs } from "./args.ts";
import type { checks } from "./specs/setup.ts";

/** Where `agentmux checks` keeps each check's output: ignored like the sessions, never listed as one. */
export const MANUAL_CHECKS_DIR = `${SESSIONS_DIR}/.checks`;

/** `agentmux checks [name…] [--json]`: the configured checks, by hand, in this checkout. */
export async function run(args: ParsedArgs<typeof checks>): Promise<number> {
  const root = findProjectDir();
  const { config } = loadConfig({ projectDir: root, configPath: args.flags.config });
  const known = Object.keys(config.checks);
  const names = args.positionals.length > 0 ? [...new Set(args.positionals)] : known;
  for (const name of names) if (!known.includes(name)) throw new UnknownCheck({ name, known });
  if (names.length === 0) {
    process.stderr.write(
      "agentmux: no checks are configured: add them under checks: in .agentmux/config.yaml (agentmux init detects the usual ones; see docs/checks.md)\n",
    );
    if (args.flags.json) process.stdout.write("[]\n");
    return 0;
  }
  const selected = Object.fromEntries(names.map((n) => [n, config.checks[n]!]));
  const problems = preflightChecks({ checks: selected }, root);
  if (problems.length > 0) throw new ChecksNotRunnable({ problems });
  const base = args.flags.base !== undefined ? await baseOf(root, args.flags.base) : null;
  const show = (r: CheckResult) => process.stdout.write(`${checkResultLines(r, { width: Math.max(60, process.stdout.columns ?? 100) }).join("\n")}\n`);
  let results: CheckResult[] = [];
  for (const name of names) {
    const logName = `${MANUAL_CHECKS_DIR}/${name}.log`;
    const r = await runCheck(name, selected[name]!, { root, logPath: join(root, logName), logName, round: 0, when: "manual" });
    results.push(r);
    if (!args.flags.json && !base) show(r);
  }
  if (base) {
    results = await compareOnBase(results, selected, root, base);
    if (!args.flags.json) results.forEach(show);
  }
  if (args.flags.json) process.stdout.write(`${terminalJson(results)}\n`);
  else if (results.some((r) => r.status !== "passed")) process.stdout.write(`output of each check: ${join(root, MANUAL_CHECKS_DIR)}/<name>.log\n`);
  return results.some(checkBlocks) ? 1 : 0;
}

/** The failing results compared with the same checks on `base`'s commit (only those run there). */
async function compareOnBase(results: CheckResult[], specs: Record<string, CheckSpec>, root: string, base: BaseRef): Promise<CheckResult[]> {
  const failing = results.filter((r) => r.status !== "passed");
  if (failing.length === 0) return results;
  process.stderr.write(`agentmux: running ${failing.length} failing check(s) on ${base.name} (${base.oid.slice(0, 7)}) in a temporary worktree\n`);
  const onBase = await runChecksOnBase({
    repoDir: root,
    baseCommit: base.oid,
    checkout: root,
    checks: Object.fromEntries(failing.map((r) => [r.name, specs[r.name]!])),
    logDir: join(root, MANUAL_CHECKS_DIR, "base"),
    logName: `${MANUAL_CHECKS_DIR}/base`,
    when: "manual",
  });
  return compareAllWithBase(results, onBase);
}

async function baseOf(root: string, branch: string): Promise<BaseRef> {
  const ref = await resolveBaseRef(root, branch).catch((e) => {
    throw e instanceof BaseBranchMissing ? new ChecksBaseMissing({ branch, root }) : e;
  });
  if (!ref) throw new ChecksBaseMissing({ branch, root });
  return ref;
}
