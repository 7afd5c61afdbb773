import { defineError, type ErrorText } from "../errors.ts";

/**
 * A prompt template that cannot be rendered. A template bug (unknown placeholder, fragment,
 * tool) is "internal"; a session file the template includes but that is missing is "session".
 */

const at = (template: string, t: Omit<ErrorText, "where">): ErrorText => ({ ...t, where: `prompt template "${template}"` });

export const UnknownTemplate = defineError("UnknownTemplate", "internal", (d: { template: string }) =>
  at(d.template, { message: "unknown prompt template", hint: "use one of TEMPLATE_NAMES in src/prompts/templates.ts" }),
);

export const MissingPromptVar = defineError("MissingPromptVar", "internal", (d: { template: string; name: string }) =>
  at(d.template, { message: `needs vars.${d.name}`, hint: `pass vars.${d.name} to renderPrompt` }),
);

export const BadPromptVar = defineError("BadPromptVar", "internal", (d: { template: string; name: string; raw: string }) =>
  at(d.template, { message: `vars.${d.name} must hold positive integers, got "${d.raw}"` }),
);

export const UnknownPlaceholder = defineError("UnknownPlaceholder", "internal", (d: { template: string; name: string }) =>
  at(d.template, { message: `unknown placeholder [[placeholder:${d.name}]]`, hint: `pass vars.${d.name} or add a built-in in src/prompts/builtins.ts` }),
);

export const UnknownFragment = defineError("UnknownFragment", "internal", (d: { template: string; name: string }) =>
  at(d.template, { message: `unknown shared fragment [[shared:${d.name}]]`, hint: `add assets/prompts/shared/${d.name}.md` }),
);

export const FragmentsTooDeep = defineError("FragmentsTooDeep", "internal", (d: { template: string; name: string; depth: number; chain: string[] }) =>
  at(d.template, {
    message: `[[shared:${d.name}]] nests deeper than ${d.depth} levels (${d.chain.join(" → ")})`,
    hint: "a shared fragment probably includes itself",
  }),
);

export const IncludeEscapes = defineError("IncludeEscapes", "internal", (d: { template: string; path: string }) =>
  at(d.template, { message: `include path "${d.path}" leaves the session folder` }),
);

export const IncludedFileMissing = defineError("IncludedFileMissing", "session", (d: { template: string; path: string; expectedAt?: string }) =>
  at(d.template, { message: `included session file "${d.path}" does not exist`, hint: d.expectedAt ? `expected it at ${d.expectedAt}` : undefined }),
);

export const UnknownToolToken = defineError("UnknownToolToken", "internal", (d: { template: string; name: string }) =>
  at(d.template, { message: `unknown tool [[tool:${d.name}]]` }),
);

export const ToolNotAllowed = defineError("ToolNotAllowed", "internal", (d: { template: string; tool: string; role: string }) =>
  at(d.template, {
    message: `names tool "${d.tool}", which role "${d.role}" may not call`,
    hint: `the tool is refused for ${d.role}; do not tell the agent to use it`,
  }),
);

export const NoSubmitTool = defineError("NoSubmitTool", "internal", (d: { template: string; role: string }) =>
  at(d.template, { message: `role "${d.role}" has no submit tool` }),
);
