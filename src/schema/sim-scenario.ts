import { z } from "zod";
import { ReviewerRole } from "./catalog.ts";
import { ROLES } from "./role-names.ts";
import type { SimSwitchName } from "./sim-switch-names.ts";

/** A role (`coder`) or one agent of it (`coder:1`, `code-researcher:existing-code`): a mistyped role never fires. */
const role = z
  .string({ error: (iss) => (iss.input === true ? "needs a role" : undefined) })
  .trim()
  .min(1, "must name a role")
  .refine((v) => (ROLES as readonly string[]).includes(v.split(":")[0]!), {
    error: (iss) => `unknown role ${JSON.stringify(iss.input)} (roles: ${ROLES.join(", ")}; one agent: coder:1)`,
  });
const ms = z.coerce.number().int().min(0, "must be a whole number of milliseconds");

/**
 * The simulated agent's misbehaviour switches, parsed from AGENTMUX_SIM_SCENARIO
 * ("parallel,review_fail_once,crash=coder,slow_start=300"). Every field is optional.
 */
export const SimScenario = z.strictObject({
  parallel: z.boolean().optional(),
  design: z.boolean().optional(),
  /** with parallel (implied): this many coders in the first, parallel group (default 2) */
  coders: z.coerce.number().int().min(2, "must be at least 2").max(9, "must be at most 9").optional(),
  reviewers: z.array(ReviewerRole).min(1).optional(),
  review_fail_once: z.boolean().optional(),
  /**
   * the first coder writes a bug its own unit test catches (a check such as `npm test` fails);
   * a fixer whose fix request names a failing check mends it
   */
  check_bug: z.boolean().optional(),
  /** the first coder's test file gets a test that hangs (the check runs into its timeout); the fixer takes it out */
  check_hang: z.boolean().optional(),
  /** the first coder's test file gets a test that fails on its first run only (a flaky check) */
  check_flaky: z.boolean().optional(),
  /** `agentmux demo`: the scratch project starts with a test that already fails (a pre-existing failure) */
  check_base_failure: z.boolean().optional(),
  review_fail_always: z.boolean().optional(),
  /** reviewer_logic's first review fails with two line comments (one line, one range) instead of a finding */
  line_comments: z.boolean().optional(),
  malformed_plan_once: z.boolean().optional(),
  /** the planner sets review_strategy as the Python agentmux's contract example does: severity medium, focus [security, testing] */
  review_focus: z.boolean().optional(),
  gate_refuse_once: z.boolean().optional(),
  commit_message: z.boolean().optional(),
  research: z.boolean().optional(),
  crash: role.optional(),
  crash_once: role.optional(),
  stall: role.optional(),
  trust_dialog: z.boolean().optional(),
  slow_start: ms.optional(),
  ignore_first_enter: z.boolean().optional(),
  early_enter_ms: ms.optional(),
  /** a coder that exits (status 3) once, after writing its first file: a relaunch finds partial work */
  crash_midway: role.optional(),
  /** ends its turn once without calling its submit tool (calls it when reminded) */
  forget_submit: role.optional(),
  /** asks a question once and waits for an answer before working */
  ask: role.optional(),
  /** shows a permission dialog once (y allows, Esc declines) before working */
  permission: role.optional(),
  /** shows a usage-limit screen once instead of working, then works when told to continue */
  rate_limit: role.optional(),
  /** with rate_limit: the reset time the limit screen shows, in seconds from now (default 2) */
  limit_reset_s: z.coerce.number().int().min(0).optional(),
  /**
   * Hold the tasks of these prompts (file names without `.md`: `planner_prompt`,
   * `coder_prompt_2`, `review_logic_prompt`, `fix_prompt`…) busy until the release file
   * `.runtime/sim/release/<name>` appears in the session folder — a test's window that never
   * closes early (src/sim/scenario.ts releaseFile).
   */
  /**
   * this role's agent first goes looking for what it must not read (another agent's MCP token,
   * the seal key, files in the user's home) and records what it could (src/sim/probe.ts)
   */
  probe: role.optional(),
  hold: z
    .array(z.string().regex(/^[A-Za-z0-9_.-]+$/, "must be a prompt file's name without .md"))
    .min(1)
    .optional(),
});

/** The switches, for usage errors ("switches: …"). */
export const SIM_SWITCHES: string[] = Object.entries(SimScenario.shape).map(([k, v]) => {
  const inner = (v as z.ZodOptional<z.ZodType>).unwrap();
  if (inner instanceof z.ZodBoolean) return k;
  if (k === "reviewers") return "reviewers=logic+quality+expert";
  if (k === "hold") return "hold=<prompt>+<prompt>";
  return inner instanceof z.ZodString ? `${k}=<role>` : `${k}=<n>`;
});
export type SimScenario = z.infer<typeof SimScenario>;

/** The schema's switches are exactly the names the command table completes (sim-switch-names.ts). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const switchNamesMatch: Same<keyof typeof SimScenario.shape, SimSwitchName> = true;
void switchNamesMatch;

const SHORT_REVIEWERS: Record<string, string> = { logic: "reviewer_logic", quality: "reviewer_quality", expert: "reviewer_expert" };

/**
 * Parse scenario switches: `name` or `name=value`, comma-separated (or a list of them);
 * `reviewers=logic+quality+expert`. Returns the problems instead of throwing.
 */
export function parseScenarioText(text: string | string[] | undefined): { ok: true; value: SimScenario } | { ok: false; message: string } {
  const raw: Record<string, unknown> = {};
  const parts = (Array.isArray(text) ? text.join(",") : (text ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const part of parts) {
    const eq = part.indexOf("=");
    const name = eq < 0 ? part : part.slice(0, eq).trim();
    const value = eq < 0 ? undefined : part.slice(eq + 1).trim();
    if (name === "reviewers")
      raw.reviewers = (value ?? "")
        .split(/[+ ]/)
        .filter(Boolean)
        .map((r) => SHORT_REVIEWERS[r] ?? r);
    else if (name === "hold") raw.hold = (value ?? "").split(/[+ ]/).filter(Boolean);
    else raw[name] = value === undefined ? true : value;
  }
  const parsed = SimScenario.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((i) => {
    const at = i.path.join(".");
    if (i.message === "needs a role") return `${at} needs a role: ${at}=<role> (e.g. ${at}=coder)`;
    return at ? `${at}: ${i.message}` : i.message;
  });
  return { ok: false, message: problems.join("; ") };
}
