/**
 * What the mock model decides for one request, independent of the wire format: a text answer,
 * or a call to one of agentmux's submit tools when the user turn is agentmux's prompt reference.
 */

/** One tool the CLI offered the model; codex groups MCP tools under a namespace. */
export type OfferedTool = { name: string; namespace?: string };

/** The parts of a request the mock reads, extracted per API. */
export type TurnInput = {
  /** the last user message's text (the pasted prompt), or "" when that message is a tool result */
  lastUserText: string;
  /** the text of the tool result the last user message carries, or null */
  toolResult: string | null;
  offered: OfferedTool[];
  /** the conversation's last user text (a prompt, reminder or notice) and how many tool results followed it */
  thread?: { text: string; toolResults: number };
};

export type TurnAnswer = { kind: "text"; text: string } | { kind: "tool"; tool: OfferedTool; args: Record<string, unknown> };

/** agentmux's one-line prompt (src/prompts/render.ts PROMPT_REFERENCE). */
export const PROMPT_REFERENCE_RE = /Read and follow the instructions in ("(?:[^"\\]|\\.)*"|\S+)/;

/** agentmux's notice after a usage limit reset (orchestrator limitReset): "… Continue your task: read and follow the instructions in <path>. …" */
export const CONTINUE_RE = /Continue your task: read and follow the instructions in (\S+?)\.?(?:\s|$)/;

/**
 * Which submit tool each prompt file asks for, by the prompt file's name, with valid arguments
 * for agentmux's tool schema (src/schema/tool-events.ts ToolInputs).
 */
const PROMPT_TOOLS: { file: RegExp; tool: string; args: Record<string, unknown> }[] = [
  { file: /product_manager_prompt\.md$/, tool: "submit_pm_done", args: {} },
  { file: /architect_prompt\.md$/, tool: "submit_architecture", args: {} },
  { file: /(planner|changes)_prompt\.md$/, tool: "submit_plan", args: {} },
  { file: /coder_prompt_(\d+)\.md$/, tool: "submit_done", args: {} },
];

/** The model-side tool for `base` among the offered ones: claude `mcp__agentmux__x`, gemini `mcp_agentmux_x`, codex `x` in a namespace, copilot `agentmux-x`. */
export function findOffered(offered: OfferedTool[], base: string): OfferedTool | undefined {
  return offered.find((t) => t.name === base || t.name.endsWith(`_${base}`) || t.name.endsWith(`-${base}`));
}

/**
 * How the mock behaves. `forgetFirstSubmit` ends the first prompt's turn with text only;
 * `limitFirstTurn` answers it 429. `work`: each prompt's role does its work through the CLI's own
 * file tools before its submit tool (mock-work.ts), for whole pipelines; `forgetSubmitOf`: the
 * first prompt whose file matches writes its files, then ends its turn without the submit tool;
 * `askOf`: the first prompt whose file matches is answered with a question; whatever the user
 * says next, the role then does its work.
 */
export type MockBehaviour = {
  forgetFirstSubmit?: boolean;
  limitFirstTurn?: boolean;
  limitMs?: number;
  work?: boolean;
  forgetSubmitOf?: RegExp;
  askOf?: RegExp;
  /** with `work`: the first review round fails with one finding, the fixer fixes it, the second passes */
  failFirstReview?: boolean;
  /** a turn whose prompt holds HOLD_MARKER is answered after this long (the CLI shows its busy screen meanwhile) */
  holdMs?: number;
};

/** What a prompt says to have its answer held back `holdMs` (the screen recorder's busy screen). */
export const HOLD_MARKER = "MOCK-HOLD";

/** The question the mock asks (behaviour.askOf): it ends the turn, as a model waiting for the user does. */
export const MOCK_QUESTION = "MOCK-ASK Should the greeting say Hello or Hi?";

/** What a reminder from agentmux asks for: the submit tool it names (in any CLI's spelling). */
export const REMINDER_RE = /Your task is not complete until you call `[^`]*?(submit_[a-z_]+)`/;

/**
 * The mock model's behaviour. Titles, routers and plain prompts get text; prompt references get
 * the role's submit tool — or, once with `forget`, a text answer that ends the turn without it
 * (as a model that says "Done!" does); agentmux's reminder then gets the tool it names.
 */
export function decideTurn(input: TurnInput, forget = false): TurnAnswer {
  const reminder = REMINDER_RE.exec(input.lastUserText);
  if (input.toolResult === null && reminder) {
    const tool = findOffered(input.offered, reminder[1]!);
    if (tool) return { kind: "tool", tool, args: {} };
  }
  if (forget && input.toolResult === null && PROMPT_REFERENCE_RE.test(input.lastUserText)) {
    return { kind: "text", text: "MOCK-FORGOT Done! I wrote the file and everything is ready." };
  }
  if (input.toolResult !== null) {
    return { kind: "text", text: `MOCK-DONE tool result received: ${input.toolResult.replace(/\s+/g, " ").slice(0, 120)}` };
  }
  const ref = PROMPT_REFERENCE_RE.exec(input.lastUserText) ?? CONTINUE_RE.exec(input.lastUserText);
  if (ref) {
    const path = ref[1]!.startsWith('"') ? (JSON.parse(ref[1]!) as string) : ref[1]!;
    const rule = PROMPT_TOOLS.find((r) => r.file.test(path));
    const wanted = rule ? findOffered(input.offered, rule.tool) : undefined;
    const tool = wanted ?? input.offered.find((t) => t.name.includes("submit_"));
    if (tool) {
      const coder = /coder_prompt_(\d+)\.md$/.exec(path);
      const args = coder ? { subplan_index: Number(coder[1]) } : { ...(rule?.args ?? {}) };
      return { kind: "tool", tool, args };
    }
    return { kind: "text", text: `MOCK-NO-TOOL: no submit_ tool was offered for ${path}` };
  }
  const words = input.lastUserText.trim().split(/\s+/).slice(-1)[0] ?? "";
  return { kind: "text", text: `MOCK-REPLY ok ${words}` };
}

/** Pick a value for a JSON schema (gemini's router and next-speaker checks ask for JSON). */
export function sampleForSchema(schema: any, key = ""): unknown {
  if (!schema || typeof schema !== "object") return "mock";
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum.includes("user") ? "user" : schema.enum[0];
  const type = String(schema.type ?? "").toLowerCase();
  if (type === "object" || schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = sampleForSchema(v, k);
    return out;
  }
  if (type === "array") return [];
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return false;
  return key === "next_speaker" ? "user" : "mock";
}
