import { defineError } from "../errors.ts";

/** Another live run works in this checkout; resuming here would switch its branch. */
export const CheckoutBusy = defineError("CheckoutBusy", "session", (d: { projectDir: string; holder: string }) => ({
  message: `another run (${d.holder}) is working in this checkout`,
  where: d.projectDir,
  hint: `resume this session once that run has finished (agentmux status ${d.holder}); to stop it, press c in its monitor (agentmux attach ${d.holder})`,
}));

/** A `worktree.setup` command failed or timed out: no agent was started, the worktree is gone. */
export const WorktreeSetupFailed = defineError(
  "WorktreeSetupFailed",
  "config",
  (d: {
    command: string;
    index: number;
    code: number | null;
    signal?: string | null;
    spawnError?: string | null;
    timedOut: boolean;
    timeoutS: number;
    output: string;
  }) => ({
    message: `worktree setup command ${d.index + 1} (${d.command}) ${setupOutcome(d)}${d.output ? `; its last output:\n${d.output}` : " and printed nothing"}`,
    where: `worktree.setup[${d.index}]`,
    hint: "fix the command (run it yourself in a fresh clone to see why), raise worktree.setup_timeout_s, or remove it from worktree.setup",
  }),
  { exitCode: 1 },
);

function setupOutcome(d: { code: number | null; signal?: string | null; spawnError?: string | null; timedOut: boolean; timeoutS: number }): string {
  if (d.timedOut) return `did not finish within ${d.timeoutS} s (its whole process group was killed)`;
  if (d.spawnError) return `could not start: ${d.spawnError}`;
  if (d.code === null) return `was killed by ${d.signal ?? "a signal"}`;
  return `failed with exit code ${d.code}`;
}
