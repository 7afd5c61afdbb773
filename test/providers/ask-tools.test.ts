import { expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { loadConfig } from "../../src/config/load.ts";

// #17.16: prompts name the CLI's own ask-the-user tool, so a question becomes the CLI's
// question dialog (which agentmux detects) rather than free text nobody is told to answer
const NATIVE: Record<string, string> = {
  claude: "AskUserQuestion",
  codex: "request_user_input",
  gemini: "ask_user",
  opencode: "question",
  copilot: "ask_user",
  qwen: "ask_user_question",
};

test("every built-in provider with an ask tool names it", () => {
  const { config } = loadConfig({ projectDir: tmpdir(), env: { HOME: "/nonexistent-home" } });
  for (const [name, tool] of Object.entries(NATIVE)) expect({ name, tool: config.providers[name]?.ask_tool }).toEqual({ name, tool });
  const without = Object.entries(config.providers)
    .filter(([, p]) => !p.ask_tool)
    .map(([n]) => n);
  // cursor and agy publish no ask tool of their own (reference/cli-evidence.md)
  expect(without).toEqual(["cursor", "agy", "sim"]);
});
