import { UnknownProvider } from "../config/errors.ts";
import type { Role, ToolName } from "../schema/catalog.ts";
import type { Config, Provider } from "../schema/config.ts";
import { adapterFor } from "./adapters/registry.ts";

/** One role's agent: which provider runs it, with which model (null = the CLI's own default). */
export type ResolvedAgent = {
  role: Role;
  providerName: string;
  provider: Provider;
  model: string | null;
  /** role args from `roles.<role>.args`, which replace the provider's role args; null = provider's */
  roleArgs: string[] | null;
  /** the simulated agent's scenario switches (used only by `mcp: sim` providers) */
  sim: Config["sim"];
  /** the agent runs in the sandbox (roles.<role>.sandbox, else the top-level sandbox) */
  sandbox: boolean;
};

/**
 * Provider: roles.<role>.provider, else defaults.provider. Model: roles.<role>.model, else
 * defaults.model when the role runs on the default provider (a model name for one CLI means
 * nothing to another), else the provider's default_model, else null — then no model flag is
 * passed and the CLI picks its own. There is no "sonnet" fallback.
 */
export function resolveRole(config: Config, role: Role, providerOverride?: string): ResolvedAgent {
  const rc = config.roles[role];
  const providerName = providerOverride ?? rc?.provider ?? config.defaults.provider;
  const provider = config.providers[providerName];
  if (!provider) {
    const key = providerOverride ? `roles.${role}.fallback` : rc?.provider ? `roles.${role}.provider` : "defaults.provider";
    throw new UnknownProvider({ refs: [{ key, name: providerName }], valid: Object.keys(config.providers).sort() });
  }
  const defaultModel = providerName === config.defaults.provider ? config.defaults.model : null;
  const sandbox = rc?.sandbox ?? config.sandbox;
  // a fallback provider gets neither the role's model nor its args: they belong to its own CLI
  if (providerOverride && providerOverride !== (rc?.provider ?? config.defaults.provider)) {
    return { role, providerName, provider, model: defaultModel ?? provider.default_model ?? null, roleArgs: null, sim: config.sim, sandbox };
  }
  const model = rc?.model ?? defaultModel ?? provider.default_model ?? null;
  return { role, providerName, provider, model, roleArgs: rc?.args ?? null, sim: config.sim, sandbox };
}

/** The providers the configured roles use, default provider first. */
export function providersInUse(config: Config, roles: readonly Role[]): string[] {
  const names = [config.defaults.provider, ...roles.map((r) => config.roles[r]?.provider ?? config.defaults.provider)];
  return [...new Set(names)];
}

/**
 * The name a CLI's model sees for one of agentmux's MCP tools, for use in prompts. Accepts a
 * built-in provider name or an `mcp` wiring kind (its adapter names it); unknown CLIs use the
 * bare name.
 */
export function toolNameFor(providerName: string, tool: ToolName | string): string {
  return adapterFor(providerName)?.toolName(tool) ?? tool;
}

/** Like toolNameFor, but by the agent's MCP wiring kind, so custom providers get it right. */
export function toolNameForAgent(agent: ResolvedAgent, tool: ToolName | string): string {
  return toolNameFor(agent.provider.mcp, tool);
}
