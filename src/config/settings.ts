import { ROLES } from "../schema/catalog.ts";
import type { Config } from "../schema/config.ts";
import type { Settings } from "../orchestrator/types.ts";
import type { Origin } from "./merge.ts";
import { resolveRole } from "../providers/resolve.ts";

/** The workflow settings the pure orchestrator needs, resolved once from config. */
/**
 * Headless runs skip the final approval — unless a config file explicitly sets
 * `defaults.completion.skip_final_approval: false`, in which case the run waits for
 * approval.json / changes.md written by a person or a bot.
 */
export function skipFinalApproval(config: Config, originOf: ((path: string) => Origin) | undefined, headless: boolean): boolean {
  const explicit = originOf?.("defaults.completion.skip_final_approval");
  if (config.defaults.completion.skip_final_approval) return true;
  return headless && (!explicit || explicit.layer === "built-in");
}

export function settingsFrom(config: Config, opts: { keepSession?: boolean; headless?: boolean; originOf?: (path: string) => Origin } = {}): Settings {
  const role_agents: Settings["role_agents"] = {};
  for (const role of ROLES) {
    const r = resolveRole(config, role);
    const fallback = config.roles[role]?.fallback ?? [];
    role_agents[role] = { provider: r.providerName, model: r.model, ...(fallback.length ? { fallback } : {}) };
  }
  return {
    max_review_iterations: config.defaults.max_review_iterations,
    skip_final_approval: skipFinalApproval(config, opts.originOf, opts.headless === true),
    commit_on_loop_cap: config.defaults.completion.commit_on_loop_cap,
    single_coder: resolveRole(config, "coder").provider.single_coder,
    keep_session: opts.keepSession ?? config.defaults.keep_session,
    role_agents,
    on_bug: "fail_run",
    headless: opts.headless === true,
    nudges: config.watchdog.nudges,
    nudge_backoff_ms: config.watchdog.nudge_backoff_s * 1000,
    restarts: config.watchdog.restarts,
    questions: config.headless.questions,
    limits: { max_cost_usd: config.limits.max_cost_usd, max_tokens: config.limits.max_tokens },
    checks: Object.fromEntries(Object.entries(config.checks).map(([name, c]) => [name, { when: c.when, required: c.required, command: c.command }])),
    checks_order: config.defaults.checks_order,
  };
}
