/**
 * The provider settings the Python agentmux ships built in (its defaults/config.yaml, described
 * in shared/reference/agentmux-python-inventory.md §5.2). A config copied from that file repeats
 * them; `config migrate` leaves out a value equal to these, so agentmux's own settings for the
 * CLI apply instead of the Python tool's (different flags, tool names and permission modes).
 */

/** The roles the Python tool configures per provider (`reviewer` is its legacy generic reviewer). */
const PYTHON_ROLES = [
  "architect",
  "planner",
  "product-manager",
  "reviewer",
  "coder",
  "designer",
  "code-researcher",
  "web-researcher",
  "reviewer_expert",
  "reviewer_logic",
  "reviewer_quality",
] as const;

const everyRole = (args: (role: string) => string[]) => Object.fromEntries(PYTHON_ROLES.map((r) => [r, args(r)]));

const READ_ONLY_SHELL = "Bash(ls:*) Bash(cat:*) Bash(find:*) Bash(grep:*) Bash(git:*) Bash(head:*) Bash(tail:*) Bash(pwd:*) Bash(wc:*)";
const RESEARCH = "mcp__agentmux__research_dispatch_code mcp__agentmux__research_dispatch_web";

/** claude's --allowedTools per role in the Python tool (null: the role passes none). */
const CLAUDE_TOOLS: Record<string, string | null> = {
  architect: `${READ_ONLY_SHELL} ${RESEARCH} mcp__agentmux__submit_architecture`,
  planner: `${READ_ONLY_SHELL} ${RESEARCH} mcp__agentmux__submit_plan`,
  "product-manager": `${READ_ONLY_SHELL} ${RESEARCH} mcp__agentmux__submit_pm_done`,
  reviewer: READ_ONLY_SHELL,
  coder: "mcp__agentmux__submit_done",
  designer: null,
  "code-researcher":
    "Read Glob Grep Write Edit Bash(ls:*) Bash(cat:*) Bash(find:*) Bash(grep:*) Bash(head:*) Bash(tail:*) Bash(pwd:*) Bash(wc:*) mcp__agentmux__submit_research_done",
  "web-researcher": "WebFetch WebSearch Read Glob Grep Write Edit Bash(ls:*) Bash(cat:*) Bash(head:*) Bash(tail:*) mcp__agentmux__submit_research_done",
  reviewer_expert: `${READ_ONLY_SHELL} mcp__agentmux__submit_review`,
  reviewer_logic: `${READ_ONLY_SHELL} mcp__agentmux__submit_review`,
  reviewer_quality: `${READ_ONLY_SHELL} mcp__agentmux__submit_review`,
};

const REASONING_HIGH = ["--reasoning-effort", "high"];

/** Provider name → the Python tool's built-in value of each key it sets (trust and batch keys are converted elsewhere). */
export const PYTHON_BUILTIN_PROVIDERS: Record<string, Record<string, unknown>> = {
  claude: {
    command: "claude",
    model_flag: "--model",
    default_model: "sonnet",
    role_args: everyRole((r) => ["--permission-mode", "acceptEdits", ...(CLAUDE_TOOLS[r] ? ["--allowedTools", CLAUDE_TOOLS[r]!] : [])]),
  },
  codex: { command: "codex", model_flag: "--model", role_args: everyRole(() => ["-s", "workspace-write", "-a", "never"]) },
  gemini: { command: "gemini", model_flag: "--model", role_args: everyRole(() => ["--approval-mode", "yolo"]) },
  opencode: { command: "opencode", role_args: everyRole((r) => ["--agent", `agentmux-${r.startsWith("reviewer") ? "reviewer" : r}`]) },
  copilot: {
    command: "copilot",
    model_flag: "--model",
    single_coder: true,
    sub_agent_tool: "task",
    default_model: "claude-sonnet-4.6",
    default_role_args: ["--allow-all"],
    model_args: { "claude-sonnet-4.6": REASONING_HIGH, "claude-opus-4.6": REASONING_HIGH },
    role_args: {},
  },
  cursor: { command: "agent", model_flag: "--model", role_args: { "code-researcher": ["--trust", "--force"], "web-researcher": ["--trust", "--force"] } },
  qwen: { command: "qwen", model_flag: null, default_model: "qwen3-max", default_role_args: ["--yolo"], role_args: {} },
};

/** Plain-data equality (YAML-parsed values: scalars, arrays, maps). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (!a || !b || typeof a !== "object" || typeof b !== "object") return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
