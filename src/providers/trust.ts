import { adapterFor } from "./adapters/registry.ts";
import type { PreTrust } from "./adapters/types.ts";
import type { ResolvedAgent } from "./resolve.ts";

export type { PreTrust } from "./adapters/types.ts";

/**
 * Pre-trust the agent's working folder where the CLI allows it (its adapter's preTrust).
 * Measured (reference/real-cli-behaviour.md §1.2, §2.2, §3.2): "yolo" flags do not skip trust
 * dialogs, so a CLI without a switch gets its dialog answered (`trust`). Nothing is passed
 * when `pre_trust` is false for the provider.
 */
export function preTrust(agent: ResolvedAgent, workDir: string, home: string): PreTrust {
  const dialog = agent.provider.trust.length ? "trust dialog answered when it shows" : "no trust dialog expected";
  const none = (note: string): PreTrust => ({ argv: [], env: {}, files: [], note });
  if (!agent.provider.pre_trust) return none(`pre-trust off; ${dialog}`);
  return adapterFor(agent.provider.mcp)?.preTrust?.(agent, workDir, home) ?? none(`no pre-trust switch; ${dialog}`);
}
