import { ROLE_TOOLS, ToolName, type Role } from "../schema/catalog.ts";
import { BUILTINS, type BuiltinContext } from "./builtins.ts";
import { expandShared, expandTokens } from "./expand.ts";
import { ToolNotAllowed, UnknownPlaceholder, UnknownTemplate, UnknownToolToken } from "./errors.ts";
import { SHARED_FRAGMENTS, TEMPLATE_FILES, headlessFragments, templateFile } from "./templates.ts";
import { quotedPath } from "../protocol/paths.ts";

export interface RenderOptions {
  /** One of TEMPLATE_NAMES, e.g. "coder" or "review-followup". */
  template: string;
  vars: Record<string, string>;
  sessionDir: string;
  /** Where `.agentmux/prompts/` project extensions live. */
  projectDir: string;
  /** Where code changes go (the worktree in worktree mode); shown to agents as project_dir. */
  workDir: string;
  role: Role;
  /** How this CLI names an MCP tool, e.g. claude's `mcp__agentmux__submit_done`. */
  toolName: (tool: ToolName) => string;
  /** The CLI's native ask-the-user tool, or null when it has none. */
  askTool: string | null;
  subAgentTool?: string | null;
  /** a headless run: `<fragment>-headless` variants replace fragments that involve a person */
  headless?: boolean;
}

/**
 * The one-line text delivered to a pane; it starts with a plain word (claude treats `!`, `@`,
 * `/` specially) and names the prompt file as a quoted path (any folder name stays one word).
 */
export const PROMPT_REFERENCE = (absPath: string) => `Read and follow the instructions in ${quotedPath(absPath)}`;

/**
 * Render a prompt: `[[shared:…]]` fragments, then in one pass `[[include:…]]` /
 * `[[include-optional:…]]` (paths may contain placeholders), `[[placeholder:…]]` and
 * `[[tool:…]]`. Braces, `$` and any other `[[` are literal.
 */
export function renderPrompt(opts: RenderOptions): string {
  const file = templateFile(opts.template);
  const source = file === undefined ? undefined : TEMPLATE_FILES[file];
  if (source === undefined) throw new UnknownTemplate({ template: opts.template });
  return renderText(source, opts);
}

/** Render template text as if it were the template `opts.template` (fragments default to the built-in ones). */
export function renderText(source: string, opts: RenderOptions, fragments: Readonly<Record<string, string>> = SHARED_FRAGMENTS): string {
  const tool = (name: string): string => {
    const parsed = ToolName.safeParse(name);
    if (!parsed.success) throw new UnknownToolToken({ template: opts.template, name });
    if (!ROLE_TOOLS[opts.role].includes(parsed.data)) throw new ToolNotAllowed({ template: opts.template, tool: name, role: opts.role });
    return opts.toolName(parsed.data);
  };
  const ctx: BuiltinContext = {
    template: opts.template,
    vars: opts.vars,
    sessionDir: opts.sessionDir,
    projectDir: opts.projectDir,
    workDir: opts.workDir,
    role: opts.role,
    tool: tool as (t: ToolName) => string,
    askTool: opts.askTool,
    subAgentTool: opts.subAgentTool ?? null,
  };
  const placeholder = (name: string): string => {
    const builtin = BUILTINS[name];
    if (builtin) return builtin(ctx);
    const value = opts.vars[name];
    if (value === undefined) throw new UnknownPlaceholder({ template: opts.template, name });
    return value;
  };
  const expanded = expandShared(source, opts.template, opts.headless ? headlessFragments(fragments) : fragments);
  return expandTokens(expanded, { template: opts.template, sessionDir: opts.sessionDir, placeholder, tool });
}
