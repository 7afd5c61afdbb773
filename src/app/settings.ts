import { ROLES } from "../schema/catalog.ts";
import type { Config } from "../schema/config.ts";
import type { Settings } from "../orchestrator/types.ts";
import { resolveRole } from "../providers/resolve.ts";

/** The workflow settings the pure orchestrator needs, resolved once from config. */
export function settingsFrom(config: Config, opts: { keepSession?: boolean; headless?: boolean } = {}): Settings {
  const role_agents: Settings["role_agents"] = {};
  for (const role of ROLES) {
    const r = resolveRole(config, role);
    role_agents[role] = { provider: r.providerName, model: r.model };
  }
  return {
    max_review_iterations: config.defaults.max_review_iterations,
    skip_final_approval: config.defaults.completion.skip_final_approval || opts.headless === true,
    single_coder: resolveRole(config, "coder").provider.single_coder,
    keep_session: opts.keepSession ?? config.defaults.keep_session,
    role_agents,
  };
}
