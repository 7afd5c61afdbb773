import { z } from "zod";

/**
 * Checks (#26): the project's own commands — test, lint, typecheck, build, or any — that
 * agentmux runs itself, so a gate rests on evidence, not on an agent's word. `checks:` in the
 * config is a map name → CheckSpec; one run of one check is a CheckResult (state.json, the run
 * API, `agentmux checks --json`).
 */

/** When a check runs: after each coder, after the implementation phase, before the commit. */
export const CHECK_WHEN = ["after_coder", "after_implementation", "before_commit"] as const;
export const CheckWhen = z.enum(CHECK_WHEN);
export type CheckWhen = z.infer<typeof CheckWhen>;

/** What a check stands for in the Inspector record (type check, lint, build, tests); `other` counts in none. */
export const CHECK_KINDS = ["test", "lint", "type_check", "build", "other"] as const;
export const CheckKind = z.enum(CHECK_KINDS);
export type CheckKind = z.infer<typeof CheckKind>;

/** Which output parser reads a check's findings; `auto` tries every parser on the output. */
export const CHECK_PARSERS = ["auto", "tsc", "eslint", "pytest", "go", "cargo", "tap", "generic", "none"] as const;
export const CheckParser = z.enum(CHECK_PARSERS);
export type CheckParser = z.infer<typeof CheckParser>;

/** A check's name: it names its log file and shows on terminals, so it is a plain word. */
export const CHECK_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const CheckName = z.string().regex(CHECK_NAME_RE, "must be a plain name: letters, digits, '.', '_' and '-' (at most 64)");

/** A folder relative to the repository root that stays inside it. */
const RelativeFolder = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(p), "must be relative to the repository root")
  .refine((p) => !p.split(/[\\/]/).includes(".."), "must stay inside the repository (no '..')");

export const CheckSpec = z.strictObject({
  /** run with `sh -c` in `cwd`, in its own process group */
  command: z.string().min(1),
  /** folder relative to the repository root (or the run's worktree) */
  cwd: RelativeFolder.default("."),
  /** the whole process group is killed (TERM, then KILL) after this long */
  timeout_s: z.number().int().min(1).max(86400).default(600),
  /** added to the environment of the command (after the run's port offset) */
  env: z.record(z.string(), z.string()).default({}),
  when: z.array(CheckWhen).min(1).default(["after_implementation"]),
  /** true: a failure blocks the run (fix round, no commit); false: advisory, reported only */
  required: z.boolean().default(true),
  /** what it checks, for the Inspector record; inferred from the name and command when absent */
  kind: CheckKind.optional(),
  parser: CheckParser.default("auto"),
  /** a JUnit XML report the command writes (relative to `cwd`), read for findings and test counts */
  junit: RelativeFolder.optional(),
});
export type CheckSpec = z.infer<typeof CheckSpec>;
export type CheckSpecInput = z.input<typeof CheckSpec>;

export const Checks = z.record(CheckName, CheckSpec);
export type Checks = z.infer<typeof Checks>;

export const FindingSeverity = z.enum(["error", "warning", "info"]);
export type FindingSeverity = z.infer<typeof FindingSeverity>;

/** One thing a check's output names, with its `file:line[:column]` anchor when the output gives one. */
export const CheckFinding = z.object({
  check: z.string(),
  /** repository-relative path */
  file: z.string().optional(),
  line: z.number().int().min(1).optional(),
  column: z.number().int().min(1).optional(),
  severity: FindingSeverity.optional(),
  message: z.string(),
  /** the base commit fails with the same finding */
  pre_existing: z.boolean().optional(),
});
export type CheckFinding = z.infer<typeof CheckFinding>;

/** Test counts read from a test runner's summary (or a JUnit report). */
export const TestCounts = z.object({
  passing: z.number().int().min(0),
  failing: z.number().int().min(0),
  total: z.number().int().min(0),
});
export type TestCounts = z.infer<typeof TestCounts>;

/** `error`: the command could not be run at all (not found, cwd missing, spawn failed). */
export const CheckStatus = z.enum(["passed", "failed", "timed_out", "error"]);
export type CheckStatus = z.infer<typeof CheckStatus>;

/** What one run of one check produced. */
export const CheckResult = z.object({
  name: z.string(),
  command: z.string(),
  kind: CheckKind,
  /** `manual`: run by hand (`agentmux checks`), outside a run; `ci`: a job of the pull request's CI, read from GitHub */
  when: z.union([CheckWhen, z.literal("manual"), z.literal("ci")]),
  /** the fix round it ran in (0: before any fix) */
  round: z.number().int().min(0),
  status: CheckStatus,
  /** the check also fails on the base commit (undefined: not compared) */
  pre_existing: z.boolean().optional(),
  /** null when it was killed by a signal, timed out or never started */
  exit_code: z.number().int().nullable(),
  signal: z.string().optional(),
  duration_ms: z.number().int().min(0),
  started_at: z.string(),
  finished_at: z.string(),
  /** its output log, relative to the session folder */
  log: z.string(),
  /** the last lines of its output, control characters stripped */
  tail: z.array(z.string()),
  /** the lines that matter for a fix request (errors, failures), control characters stripped */
  failing_lines: z.array(z.string()).default([]),
  findings: z.array(CheckFinding),
  /** findings left out beyond the first MAX_FINDINGS (state.json stays small; the log has them all) */
  findings_omitted: z.number().int().min(0).optional(),
  tests: TestCounts.optional(),
  required: z.boolean(),
  /** the output was larger than the log's cap: its middle was dropped (head and tail kept) */
  truncated: z.boolean(),
  /** why it could not run (status `error`) */
  error: z.string().optional(),
});
export type CheckResult = z.infer<typeof CheckResult>;
export type CheckResultInput = z.input<typeof CheckResult>;

/** At most this many findings are kept per result. */
export const MAX_FINDINGS = 100;

/** A failing result that blocks: required, failed in any way, and not already failing on the base. */
export const checkBlocks = (r: Pick<CheckResult, "required" | "status" | "pre_existing">): boolean =>
  r.required && r.status !== "passed" && r.pre_existing !== true;
