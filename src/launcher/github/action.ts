import { randomUUID } from "node:crypto";
import { loadConfig } from "../../config/load.ts";
import { defineError, formatError, isAgentmuxError } from "../../errors.ts";
import { fetchIssue, fetchPullRequest } from "../../effects/gh.ts";
import { roundRefusal } from "./round.ts";
import { resolveAuthor } from "../../effects/git/author.ts";
import { findRepoRoot } from "../../effects/git/repo.ts";
import { NotAGitRepo } from "../../effects/git/errors.ts";
import { NPM_SPEC, type ActionInputs } from "../../schema/github-action.ts";
import { ROLES } from "../../schema/catalog.ts";
import type { Config } from "../../schema/config.ts";
import { providersInUse } from "../../providers/resolve.ts";
import { InvalidActionInput, artifactName, githubContext, maskSecrets, readInputs, readPayload, setOutputs, type Env, type GithubContext } from "./context.ts";
import { writeActionConfig } from "./config-layer.ts";
import { decide, type Trigger } from "./trigger.ts";
import { runTriggered } from "./run.ts";

export const NoCheckout = defineError(
  "NoCheckout",
  "usage",
  (d: { dir: string }) => ({
    message: "the job's workspace is not a git repository",
    where: d.dir,
    hint: "add `- uses: actions/checkout@v4` before the agentmux step",
  }),
  { exitCode: 2 },
);

export type ActionIO = { env: Env; cwd: string; out: (line: string) => void };

type Decided = { ctx: GithubContext; inputs: ActionInputs; trigger: Trigger; projectDir: string };

async function decideFromEnv(io: ActionIO): Promise<Decided> {
  const ctx = githubContext(io.env);
  const inputs = readInputs(io.env);
  const trigger = decide(ctx.event, readPayload(ctx.eventPath), inputs, { path: ctx.eventPath, actor: ctx.actor });
  const projectDir =
    trigger.kind === "ignore"
      ? io.cwd
      : await findRepoRoot(io.cwd).catch((e) => {
          throw e instanceof NotAGitRepo ? new NoCheckout({ dir: io.cwd }) : e;
        });
  return { ctx, inputs, trigger, projectDir };
}

const targetOf = (t: Exclude<Trigger, { kind: "ignore" }>) => (t.kind === "issue" ? `issue-${t.issue}` : t.kind === "round" ? `pr-${t.pr}` : "run");

/** The npm packages of the CLIs the configured roles use, plus the cli_packages input. */
export function cliPackages(config: Config, inputs: ActionInputs): string[] {
  const out = new Set<string>();
  for (const name of providersInUse(config, ROLES)) {
    const pkg = config.providers[name]?.npm_package;
    if (!pkg) continue;
    if (!NPM_SPEC.test(pkg)) throw new InvalidActionInput({ problems: [`providers.${name}.npm_package: "${pkg}" is not an npm package name`] });
    out.add(pkg);
  }
  for (const p of inputs.cli_packages) out.add(p);
  return [...out];
}

function ignored(d: { ctx: GithubContext }, reason: string, io: ActionIO): number {
  io.out(`agentmux: not running: ${reason}`);
  setOutputs(d.ctx, { run: false, reason });
  return 0;
}

/**
 * `agentmux github-action check`: decide from the event whether this job runs at all, and
 * which CLI packages it needs — before anything is installed. Exit 0 either way.
 */
export async function actionCheck(io: ActionIO): Promise<number> {
  const d = await decideFromEnv(io);
  if (d.trigger.kind === "ignore") return ignored(d, d.trigger.reason, io);
  if (d.trigger.kind === "round") {
    // before anything is installed: is this a pull request a round may push to?
    const refused = roundRefusal(await fetchPullRequest(d.ctx.repo, d.trigger.pr), d.ctx.repo);
    if (refused) return ignored(d, refused, io);
  }
  const configPath = writeActionConfig(d.inputs, d.projectDir, d.ctx.tempDir);
  const { config } = loadConfig({ projectDir: d.projectDir, ...(configPath ? { configPath } : {}) });
  const packages = cliPackages(config, d.inputs);
  const target = targetOf(d.trigger);
  const what =
    d.trigger.kind === "issue" ? `issue #${d.trigger.issue}` : d.trigger.kind === "round" ? `a review of pull request #${d.trigger.pr}` : "a request";
  io.out(`agentmux: running for ${what} (started by @${d.trigger.actor})`);
  setOutputs(d.ctx, { run: true, target, packages: packages.join(" "), artifact: artifactName(d.ctx, target) });
  return 0;
}

/** `agentmux github-action run`: the whole run for the triggering event; returns agentmux's exit code. */
export async function actionRun(io: ActionIO): Promise<number> {
  maskSecrets(io.env, io.out);
  const d = await decideFromEnv(io);
  if (d.trigger.kind === "ignore") return ignored(d, d.trigger.reason, io);
  const configPath = writeActionConfig(d.inputs, d.projectDir, d.ctx.tempDir);
  const { config } = loadConfig({ projectDir: d.projectDir, ...(configPath ? { configPath } : {}) });
  await ensureCommitAuthor(d.projectDir);
  const trigger = d.trigger;
  const target = targetOf(trigger);
  // Agents and their tools print into this log: nothing they say may act as a workflow command.
  const token = randomUUID();
  io.out(`::stop-commands::${token}`);
  try {
    return await runTriggered({
      ...d,
      trigger,
      config,
      configPath,
      artifact: artifactName(d.ctx, target),
      out: io.out,
      fetchIssue: (n) => fetchIssue(String(n), d.projectDir),
    });
  } catch (e) {
    io.out(isAgentmuxError(e) ? formatError(e) : `agentmux: internal error: ${(e as Error)?.stack ?? String(e)}`);
    const code = isAgentmuxError(e) ? e.exitCode : 1;
    setOutputs(d.ctx, { run: true, exit_code: code, outcome: "failed" });
    return code;
  } finally {
    io.out(`::${token}::`);
  }
}

/** A runner has no git identity: commit as github-actions[bot] unless the job set one. */
async function ensureCommitAuthor(projectDir: string): Promise<void> {
  try {
    await resolveAuthor(projectDir);
  } catch {
    process.env.GIT_AUTHOR_NAME = "github-actions[bot]";
    process.env.GIT_AUTHOR_EMAIL = "41898282+github-actions[bot]@users.noreply.github.com";
  }
}
