import { z } from "zod";
import { CheckFinding, CheckKind, CheckStatus, CheckWhen, TestCounts } from "./checks.ts";

/**
 * What state.json keeps of one check's result (the whole result, log included, is in the
 * session folder: `log` and `file`). `findings` and `tail` are bounded, and an outcome a later
 * run of the same check superseded drops them (the counts stay).
 */
export const CheckOutcome = z.object({
  status: CheckStatus,
  command: z.string(),
  kind: CheckKind.optional(),
  required: z.boolean(),
  /** it failed the same way on the run's base commit: not the agents' doing, blocks nothing */
  pre_existing: z.boolean().optional(),
  exit_code: z.number().int().nullable(),
  duration_ms: z.number().min(0),
  /** failing lines read from its output (0 when the output named none) */
  failures: z.number().int().min(0),
  findings: z.array(CheckFinding).optional(),
  /** the lines that matter for the fixer, else the last lines of its output (failing checks only), control characters removed */
  tail: z.array(z.string()).optional(),
  tests: TestCounts.optional(),
  /** why it could not run (status `error`) */
  error: z.string().optional(),
  /** its output log, session-relative */
  log: z.string(),
  /** its whole result as JSON, session-relative */
  file: z.string(),
  finished_at: z.string(),
});
export type CheckOutcome = z.infer<typeof CheckOutcome>;

/**
 * One batch of checks the run started (a `run_checks` effect): which checks, when, in which
 * review round (0: the implementation, N: fix round N), and their outcomes as they come. A
 * name without an outcome is still to run: a resumed orchestrator runs it again.
 */
export const CheckRun = z.object({
  id: z.number().int().min(1),
  when: CheckWhen,
  round: z.number().int().min(0),
  names: z.array(z.string()).min(1),
  started_at: z.string(),
  /** name → when its process started (check_started) */
  running: z.record(z.string(), z.string()).optional(),
  results: z.record(z.string(), CheckOutcome),
});
export type CheckRun = z.infer<typeof CheckRun>;

/** The session folder's place for a batch of checks: `06_checks/run_<id>` (logs and results by check name). */
export const checkRunDir = (id: number) => `06_checks/run_${id}`;
const fileName = (name: string) => name.replace(/[^A-Za-z0-9_.-]/g, "_");
export const checkLogPath = (id: number, name: string) => `${checkRunDir(id)}/${fileName(name)}.log`;
export const checkResultPath = (id: number, name: string) => `${checkRunDir(id)}/${fileName(name)}.json`;
/** the seeds' Inspector completion record, written by agentmux from the checks it ran */
export const INSPECTOR_RECORD = "06_checks/inspector.json"; // = F.inspector
/** the same checks on the run's base commit (run when one fails, once per check): logs and results by name */
export const CHECKS_BASE_DIR = "06_checks/base";

/** The checks a run has: name → when and whether it blocks (from config, passed into every transition). */
export const CheckPlan = z.record(z.string(), z.object({ when: z.array(CheckWhen), required: z.boolean(), command: z.string() }));
export type CheckPlan = z.infer<typeof CheckPlan>;
