import { appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { defineError } from "../../errors.ts";
import { readRegularFile } from "../../effects/fs/read-regular.ts";
import { formatProblem } from "../../session/problems.ts";
import { parseJsonText } from "../../session/syntax.ts";
import { checkRepoSlug } from "../../effects/gh.ts";
import { ActionInputs, INPUT_NAMES } from "../../schema/github-action.ts";

/** What a GitHub Actions job tells a step through its environment. */
export type GithubContext = {
  event: string;
  eventPath: string;
  repo: string;
  actor: string;
  runUrl: string | undefined;
  runId: string | undefined;
  attempt: number;
  outputFile: string | undefined;
  /** GITHUB_STEP_SUMMARY: Markdown shown on the workflow run's page */
  summaryFile: string | undefined;
  tempDir: string;
};

export type Env = Record<string, string | undefined>;

export const NotInActions = defineError(
  "NotInActions",
  "usage",
  (d: { missing: string }) => ({
    message: `${d.missing} is not set: agentmux github-action runs as a step of a GitHub Actions job`,
    where: "github-action",
    hint: "use the action (uses: <owner>/agentmux@v1) in a workflow; to run locally, use agentmux run or agentmux issue",
  }),
  { exitCode: 2 },
);

export const InvalidActionInput = defineError(
  "InvalidActionInput",
  "usage",
  (d: { problems: string[] }) => ({
    message: `invalid action input: ${d.problems.join("; ")}`,
    where: "action inputs",
    hint: "see docs/github-action.md for every input and its values",
  }),
  { exitCode: 2 },
);

/** The event payload file (GITHUB_EVENT_PATH) cannot be read or parsed. */
export const PayloadUnreadable = defineError("PayloadUnreadable", "usage", (d: { path: string; reason: string }) => ({
  message: `cannot read the event payload: ${d.reason}`,
  where: d.path,
}));

/** The `config` input names a file outside the repository. */
export const ActionConfigOutside = defineError("ActionConfigOutside", "usage", (d: { config: string }) => ({
  message: `the config input "${d.config}" points outside the repository`,
  where: "input config",
}));

export function githubContext(env: Env): GithubContext {
  const need = (k: string) => {
    const v = env[k];
    if (!v) throw new NotInActions({ missing: k });
    return v;
  };
  const server = env.GITHUB_SERVER_URL || "https://github.com";
  const repo = checkRepoSlug(need("GITHUB_REPOSITORY"));
  const runId = env.GITHUB_RUN_ID && /^\d+$/.test(env.GITHUB_RUN_ID) ? env.GITHUB_RUN_ID : undefined;
  return {
    event: need("GITHUB_EVENT_NAME"),
    eventPath: need("GITHUB_EVENT_PATH"),
    repo,
    actor: env.GITHUB_ACTOR || "unknown",
    runUrl: runId ? `${server}/${repo}/actions/runs/${runId}` : undefined,
    runId,
    attempt: Number(env.GITHUB_RUN_ATTEMPT) > 1 ? Number(env.GITHUB_RUN_ATTEMPT) : 1,
    outputFile: env.GITHUB_OUTPUT || undefined,
    summaryFile: env.GITHUB_STEP_SUMMARY || undefined,
    tempDir: env.RUNNER_TEMP || tmpdir(),
  };
}

/** The inputs from INPUT_<NAME>; every problem named with its input. */
export function readInputs(env: Env): ActionInputs {
  const raw: Record<string, string> = {};
  for (const name of INPUT_NAMES) {
    const v = env[`INPUT_${name.toUpperCase()}`];
    if (v !== undefined) raw[name] = v;
  }
  const r = ActionInputs.safeParse(raw);
  if (!r.success) throw new InvalidActionInput({ problems: r.error.issues.map((i) => `${String(i.path[0] ?? "")}: ${i.message}`) });
  return r.data;
}

const MAX_PAYLOAD = 25 * 1024 * 1024;

export function readPayload(path: string): unknown {
  const read = readRegularFile(path, MAX_PAYLOAD);
  const parsed = read.ok ? parseJsonText(read.text) : { ok: false as const, problems: [{ path: "", message: read.message }] };
  if (!parsed.ok) throw new PayloadUnreadable({ path, reason: parsed.problems.map(formatProblem).join("; ") });
  return parsed.data;
}

/** Step outputs (`key=value` lines in GITHUB_OUTPUT); values are agentmux's own, one line each. */
export function setOutputs(ctx: GithubContext, values: Record<string, string | number | boolean | null | undefined>): void {
  if (!ctx.outputFile) return;
  const lines = Object.entries(values).map(([k, v]) => `${k}=${String(v ?? "").replace(/[\r\n]+/g, " ")}\n`);
  appendFileSync(ctx.outputFile, lines.join(""));
}

const SECRET_NAME = /(^|_)(API_KEY|APIKEY|TOKEN|SECRET|PASSWORD)$/i;

/**
 * `::add-mask::` for every secret-looking variable (API keys, tokens): GitHub masks the secrets
 * a workflow names itself, not values that reached the job another way (a vault step's output).
 */
export function maskSecrets(env: Env, out: (line: string) => void): number {
  let n = 0;
  for (const [k, v] of Object.entries(env)) {
    if (!v || v.length < 8 || !SECRET_NAME.test(k)) continue;
    for (const line of v.split(/\r?\n/).filter((l) => l.trim().length >= 8)) {
      out(`::add-mask::${line}`);
      n++;
    }
  }
  return n;
}

/** Artifact names must be unique in a workflow run: one per issue or pull request and attempt. */
export function artifactName(ctx: GithubContext, target: string): string {
  return `agentmux-${target}${ctx.attempt > 1 ? `-attempt-${ctx.attempt}` : ""}`;
}
