import { defineError } from "../errors.ts";

/** The configuration asks for the sandbox and this system cannot make one: no agent was started. */
export const SandboxUnavailable = defineError("SandboxUnavailable", "config", (d: { roles: string[]; where: string; reason: string; fix: string }) => ({
  message: `the configuration runs ${d.roles.length > 3 ? `${d.roles.length} roles` : d.roles.join(", ")} in the sandbox, but it is not available: ${d.reason}; no agent was started`,
  where: d.where,
  hint: d.fix,
}));
