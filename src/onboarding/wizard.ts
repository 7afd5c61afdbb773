import { ROLES } from "../schema/catalog.ts";
import type { InitChoices } from "./choices.ts";
import { noCliMessage, preferredProvider, type DetectedCli } from "./detect.ts";
import { projectKindName, type WorktreeDefaults } from "./project-kind.ts";
import { checksSummary, type DetectedChecks } from "./detect-checks.ts";
import type { Option, Prompter } from "./prompter.ts";

export type WizardContext = {
  current: InitChoices;
  detected: DetectedCli[];
  /** every configured provider name */
  providers: string[];
  /** the repository's default branch, shown when base_branch is unset */
  detectedBase: string | null;
  /** worktree.setup / worktree.copy for the detected project kind (project-kind.ts) */
  worktreeDefaults?: WorktreeDefaults;
  /** checks the project's files suggest (detect-checks.ts), offered when none are configured */
  detectedChecks?: DetectedChecks;
  /** names of the checks configured already */
  configuredChecks?: string[];
  /** how to install each CLI (detect.ts installLines), said when none is on PATH */
  install?: string[];
  /** whether pull requests can be opened from here at all: gh on PATH, an origin remote */
  github?: { gh: boolean; origin: boolean };
};

const KEEP_DEFAULT = "default";
const CLEAR = "-";

/** Provider options: detected CLIs first (with version), then the rest. */
export function providerOptions(ctx: WizardContext): Option[] {
  const found = ctx.detected.filter((d) => d.path).map((d) => d.provider);
  const rest = ctx.providers.filter((p) => !found.includes(p));
  const label = (p: string) => {
    const d = ctx.detected.find((x) => x.provider === p);
    if (d?.path) return `installed${d.version ? ` (${d.version})` : ""}`;
    return p === "sim" ? "built-in simulated agent (demo, CI)" : "not found on PATH";
  };
  return [...found, ...rest].map((value) => ({ value, label: label(value) }));
}

/** Ask everything `agentmux init` configures; current values are the defaults Enter keeps. */
export async function askInitChoices(p: Prompter, ctx: WizardContext): Promise<InitChoices> {
  const cur = ctx.current;
  const options = providerOptions(ctx);
  // Enter keeps the configured provider when it is installed; else it takes the first one found; with none found there is no default
  const installed = (name: string) => ctx.detected.some((d) => d.provider === name && d.path);
  const found = preferredProvider(ctx.detected);
  if (!found) noCliMessage(ctx.install ?? [], true).forEach((l) => p.say(l));
  const provider = await p.choose("Default provider for every role:", options, installed(cur.provider) ? cur.provider : found);

  const hasOverrides = ROLES.some((r) => cur.roles[r].provider || cur.roles[r].model);
  const roles = structuredClone(cur.roles);
  if (await p.confirm("Choose a different provider or model for some roles?", hasOverrides)) {
    p.say(`For each role: Enter keeps the value in brackets; "${KEEP_DEFAULT}" follows the default provider; "${CLEAR}" clears a model.`);
    const roleOptions: Option[] = [{ value: KEEP_DEFAULT, label: `the default provider (${provider})` }, ...options];
    for (const role of ROLES) {
      const now = roles[role];
      const picked = await p.choose(`${role} — provider:`, roleOptions, now.provider ?? KEEP_DEFAULT);
      now.provider = picked === KEEP_DEFAULT || picked === provider ? null : picked;
      const model = await p.text(`${role} — model (${CLEAR} = the CLI's default)`, now.model ?? CLEAR);
      now.model = model === CLEAR ? null : model;
    }
  }

  // without gh and without an origin remote no pull request can be opened: no questions about them
  const prs = !ctx.github || ctx.github.gh || ctx.github.origin;
  p.say(prs ? "GitHub pull requests:" : "Branches (no gh on PATH and no origin remote: no pull request questions; agentmux configure asks them later):");
  const detected = ctx.detectedBase;
  const baseDefault = cur.github.base_branch ?? (detected ? `${detected}` : "");
  const baseAnswer = await p.text(
    `  base branch${cur.github.base_branch ? "" : ` (Enter = the repository's default${detected ? `, now ${detected}` : ""})`}`,
    baseDefault,
  );
  // Unset means "the repository's default branch at PR time": keep it unset when the answer is that branch.
  const base_branch = baseAnswer === "" || (!cur.github.base_branch && baseAnswer === detected) ? null : baseAnswer;
  const draft = prs ? await p.confirm("  open pull requests as drafts?", cur.github.draft) : cur.github.draft;
  const branch_prefix = await p.text("  branch prefix", cur.github.branch_prefix);
  const worktree = await askWorktree(p, cur.worktree, ctx.worktreeDefaults);
  return { provider, roles, github: { base_branch, draft, branch_prefix }, worktree, checks: await askChecks(p, ctx) };
}

async function askChecks(p: Prompter, ctx: WizardContext): Promise<Record<string, string>> {
  const found = ctx.detectedChecks;
  if (!found || (ctx.configuredChecks ?? []).length > 0 || Object.keys(found.checks).length === 0) return {};
  const yes = await p.confirm(`Checks agentmux runs itself after the coders, from this ${found.kinds.join("/")} project (${checksSummary(found)})?`, true);
  return yes ? found.checks : {};
}

/** Offered only when the project's kind suggests steps and none are configured yet. */
async function askWorktree(p: Prompter, cur: InitChoices["worktree"], suggested?: WorktreeDefaults): Promise<InitChoices["worktree"]> {
  if (!suggested || cur.setup.length || cur.copy.length || (!suggested.setup.length && !suggested.copy.length)) return cur;
  const steps = [...suggested.setup, ...suggested.copy.map((c) => `copy ${c}`)].join("; ");
  const yes = await p.confirm(`Worktree runs (--worktree) of this ${projectKindName(suggested.kinds)}: prepare each new worktree first (${steps})?`, true);
  return yes ? { setup: suggested.setup, copy: suggested.copy } : cur;
}
