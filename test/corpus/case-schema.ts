import { z } from "zod";

/**
 * One bad-input case (test/corpus/cases/*.yaml). Strings may hold placeholders:
 * {work} the case's work folder, {canary} a file that must never be created,
 * {{c*N}} the character c repeated N times (big inputs without big fixture files).
 */
export const CorpusCase = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  /** what is wrong with the input, in one line */
  about: z.string().min(1),
  /**
   * cli: `bun src/main.ts <args>` in the work folder; tool-lines: readToolLines + toolLineToEvent;
   * gate: the submit_done handler (done_<N>.json + the verification gate); commit: approval.json
   * through parseArtifact + commitChanges; session: createSessionDir; tmux: a pane command and a
   * pane label on a private tmux server
   */
  run: z.enum(["cli", "tool-lines", "gate", "commit", "session", "tmux"]),
  /** make the work folder a real isomorphic-git repository; `files` go into its first commit */
  repo: z.boolean().default(false),
  files: z.record(z.string(), z.string()).default({}),
  /** written after the first commit (uncommitted changes) */
  worktree: z.record(z.string(), z.string()).default({}),
  /** symlinks to create after the commit: path → target */
  symlinks: z.record(z.string(), z.string()).default({}),
  /** named pipes (FIFOs) to create in the work folder; nothing ever writes to them */
  fifos: z.array(z.string()).default([]),
  /** files under the fake HOME (outside the snapshot), e.g. .config/agentmux/config.yaml */
  home_files: z.record(z.string(), z.string()).default({}),
  args: z.array(z.string()).default([]),
  /** gate: the subplan index submit_done is called with */
  subplan: z.number().int().min(1).default(1),
  /** session: the request text; tmux: the hostile argument and label */
  text: z.string().default(""),
  /** cli: the exit code; API runners: "refused" (an error or rejection) or "accepted" */
  exit: z.number().int().optional(),
  outcome: z.enum(["refused", "accepted"]).optional(),
  /** fragments that must all appear in the output (stdout + stderr, or the API's message) */
  expect: z.array(z.string()).default([]),
  /** fragments that must not appear */
  reject: z.array(z.string()).default([]),
  /** path prefixes (relative to the work folder) the case is allowed to create or change */
  may_change: z.array(z.string()).default([]),
});
export type CorpusCase = z.infer<typeof CorpusCase>;

export const CorpusFile = z.array(CorpusCase).min(1);
