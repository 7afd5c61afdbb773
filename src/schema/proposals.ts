import { z } from "zod";

/** A preference an agent proposed; it reaches prompts only once the user approves it. */
export const Proposal = z.object({
  /** stable per (target_role, bullet): the handle the user approves or rejects by */
  id: z.string().regex(/^[0-9a-f]{8}$/),
  target_role: z.string(),
  bullet: z.string(),
  proposed_by: z.object({ role: z.string(), agent: z.string(), session: z.string() }),
  at: z.string(),
});
export type Proposal = z.infer<typeof Proposal>;

/** `<project>/.agentmux/proposed_preferences.json`: the proposals waiting for the user. */
export const ProposalFile = z.object({ version: z.literal(1), proposals: z.array(Proposal) });
export type ProposalFile = z.infer<typeof ProposalFile>;
