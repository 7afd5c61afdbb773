import { existsSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { configJsonSchemaText } from "../config/render.ts";
import { GEMINI_RETIREMENT } from "../providers/adapters/gemini.ts";
import { loadConfig } from "../config/load.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import type { Runner } from "../effects/process/run.ts";
import { detectBaseBranch } from "./base-branch.ts";
import { choiceEdits, choicesFrom, chosenProviders, type InitChoices } from "./choices.ts";
import { completionTarget, hasCompletionLine, installCompletionLine } from "./completions.ts";
import { detectClis, formatDetected, installLines, noCliMessage, preferredProvider } from "./detect.ts";
import { hasRemote, headCommit } from "../effects/git/repo.ts";
import { findOnPath } from "../providers/doctor.ts";
import { noAgentCliNotice, noCommitHelp, notGitRepoHelp } from "./first-run.ts";
import { ensureGitignore } from "./gitignore.ts";
import { editableConfigPath, editConfigText, loadWith, PROJECT_SCHEMA, readText, writeConfigChecked } from "./project-config.ts";
import { createIfMissing, instructionFilesToOffer, instructionTemplate, missingStubs, promptStub, stubPath } from "./project-files.ts";
import type { Prompter } from "./prompter.ts";
import { askInitChoices } from "./wizard.ts";
import { projectKindName, worktreeDefaults as defaultsFor } from "./project-kind.ts";
import { checksSummary, detectChecks } from "./detect-checks.ts";

export type InitOptions = {
  projectDir: string;
  /** null = no questions (`--defaults` or not a terminal) */
  prompter: Prompter | null;
  env: Record<string, string | undefined>;
  exec?: Runner;
  say: (line: string) => void;
};

/** What init did, as project-relative paths. */
export type InitReport = { written: string[]; unchanged: string[]; skipped: string[] };

/**
 * `agentmux init`: detect agent CLIs, settle the choices (asked, or the defaults), then write —
 * only after every question is answered, so a canceled wizard changes nothing — the config
 * (only values that differ from the defaults), the schema copy, .gitignore entries and the
 * offered files. A second run with the same answers writes nothing.
 */
export async function runInit(opts: InitOptions): Promise<InitReport> {
  const { projectDir, prompter: p, env, say } = opts;
  const report: InitReport = { written: [], unchanged: [], skipped: [] };
  const configPath = editableConfigPath(projectDir);
  const rel = (path: string) => path.slice(projectDir.length + 1);
  const existing = readText(configPath);
  const current = loadConfig({ projectDir, env }).config; // a broken config stops here, with its file and key
  const baseline = loadWith(null, env).config;

  say("Agent CLIs on PATH:");
  const detected = await detectClis(current, env.PATH ?? "", opts.exec);
  formatDetected(detected).forEach((l) => say(l));
  // gemini's consumer accounts were retired: its users likely need agy now
  if (detected.some((d) => d.provider === "gemini" && d.path)) {
    const agy = detected.find((d) => d.provider === "agy")?.path;
    say(
      `Note: ${GEMINI_RETIREMENT}. ${agy ? "agy is installed: choose it as the provider" : "Install agy (https://antigravity.google) and choose it as the provider"} if that is your account.`,
    );
  }
  const detectedBase = await detectBaseBranch(projectDir);
  const worktreeDefaults = defaultsFor(projectDir);
  const detectedChecks = detectChecks(projectDir, env);
  const configuredChecks = Object.keys(current.checks);

  let choices: InitChoices = choicesFrom(current);
  if (p) {
    const github = { gh: findOnPath("gh", env.PATH ?? "") !== null, origin: await hasRemote(projectDir, "origin") };
    choices = await askInitChoices(p, {
      current: choices,
      detected,
      providers: Object.keys(current.providers),
      detectedBase,
      worktreeDefaults,
      detectedChecks,
      configuredChecks,
      github,
      install: installLines(current),
    });
  } else {
    const preferred = preferredProvider(detected);
    if (!preferred) noCliMessage(installLines(current), false).forEach((l) => say(l));
    else if (existing === null || parse(existing)?.defaults?.provider === undefined) choices.provider = preferred;
    // no questions: the detected project kind's worktree steps, unless some are configured
    if (!choices.worktree.setup.length && !choices.worktree.copy.length && (worktreeDefaults.setup.length || worktreeDefaults.copy.length)) {
      choices.worktree = { setup: worktreeDefaults.setup, copy: worktreeDefaults.copy };
      say(
        `Worktree runs (--worktree) of this ${projectKindName(worktreeDefaults.kinds)} prepare each new worktree first: ${[...worktreeDefaults.setup, ...worktreeDefaults.copy.map((c) => `copy ${c}`)].join("; ")} (worktree.setup / worktree.copy)`,
      );
    }
    // and the checks its files suggest, unless some are configured
    if (configuredChecks.length === 0 && Object.keys(detectedChecks.checks).length > 0) {
      choices.checks = detectedChecks.checks;
      say(`Checks agentmux runs itself after the coders (checks:, see agentmux checks): ${checksSummary(detectedChecks)}`);
    }
  }

  const instructionFiles = instructionFilesToOffer(projectDir, chosenProviders(choices));
  const createInstructions: string[] = [];
  for (const file of instructionFiles) {
    if (!p || (await p.confirm(`Create ${file} (project instructions the agents read) from a template?`, true))) createInstructions.push(file);
  }
  let stubs: string[] = [];
  const missing = missingStubs(projectDir);
  if (p && missing.length) {
    const answer = await p.text(`Prompt extension stubs in .agentmux/prompts/agents/ for roles (comma-separated: ${missing.join(", ")}; "none")`, "none");
    stubs =
      answer === "none"
        ? []
        : answer
            .split(",")
            .map((s) => s.trim())
            .filter((s) => missing.includes(s));
  }
  const target = completionTarget(env);
  let completions = false;
  if (p && target && !hasCompletionLine(target)) {
    // the user's startup file is not ours: ask, and do nothing unless they say yes
    completions = await p.confirm(`Add shell completions to ${target.rcFile} (the line: ${target.line})?`, false);
  }

  // Every answer is in: write.
  const text = editConfigText(existing, choiceEdits(choices, baseline));
  const same = existing !== null && JSON.stringify(parse(existing)) === JSON.stringify(parse(text));
  if (!same && writeConfigChecked(configPath, text, env)) report.written.push(rel(configPath));
  else report.unchanged.push(rel(configPath));
  const schemaPath = join(projectDir, PROJECT_SCHEMA);
  const schema = configJsonSchemaText();
  if (readText(schemaPath) !== schema) {
    writeFileAtomic(schemaPath, schema);
    report.written.push(PROJECT_SCHEMA);
  } else report.unchanged.push(PROJECT_SCHEMA);
  const ignore = ensureGitignore(projectDir);
  if (ignore.added.length) report.written.push(`.gitignore (added ${ignore.added.join(", ")})`);
  else report.unchanged.push(".gitignore");
  for (const file of instructionFiles) {
    if (createInstructions.includes(file) && createIfMissing(projectDir, file, instructionTemplate(file))) report.written.push(file);
    else report.skipped.push(file);
  }
  for (const role of stubs) if (createIfMissing(projectDir, stubPath(role), promptStub(role))) report.written.push(stubPath(role));
  if (target && completions && installCompletionLine(target)) report.written.push(`${target.rcFile} (shell completions)`);

  for (const f of report.written) say(`wrote      ${f}`);
  for (const f of report.unchanged) say(`unchanged  ${f}`);
  for (const f of report.skipped) say(`skipped    ${f}`);
  const final = loadConfig({ projectDir, env }).config;
  const noCli = noAgentCliNotice(final, env.PATH ?? "");
  if (noCli) say(noCli);
  const repo = !existsSync(join(projectDir, ".git")) ? notGitRepoHelp(projectDir) : (await headCommit(projectDir)) === null ? noCommitHelp(projectDir) : null;
  if (repo) say(repo);
  // "Ready" only when a run can start: the notes above say what is missing otherwise
  if (!noCli && !repo) say(`Ready. Start a run with: agentmux "describe the change you want"`);
  return report;
}
