import { z } from "zod";

/**
 * `.runtime/worktree_files.jsonl`: a file agentmux created in an agent's working folder for a
 * CLI that reads it only there (opencode's plugins, cursor's hooks.json, agy's mcp_config.json),
 * one line per file when it was written: its content's SHA-256 and the folders made for it
 * (deepest last). Removed when the run ends while it still has that content.
 */
export const WorktreeFileLine = z.object({
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  dirs: z.array(z.string()),
});
export type WorktreeFileLine = z.infer<typeof WorktreeFileLine>;
