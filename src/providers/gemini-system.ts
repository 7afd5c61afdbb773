import { statSync } from "node:fs";
import { dirname, join } from "node:path";
import { geminiSystemFileProblem } from "./gemini-home.ts";

export type SystemFileCheck = { ok: boolean; label: string; detail: string; fix?: string };

/**
 * gemini's system settings files are loaded only when root-owned all the way up (its own rule,
 * geminiSystemFileProblem): one that exists but fails it is skipped with a security warning.
 * agentmux needs none of them; a skipped one is the user's own settings going missing.
 */
export function geminiSystemFileChecks(env: Record<string, string | undefined>): SystemFileCheck[] {
  const settings = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || process.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || "/etc/gemini-cli/settings.json";
  const defaults = env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || process.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || join(dirname(settings), "system-defaults.json");
  const stat = (p: string) => {
    try {
      return statSync(p);
    } catch {
      return null;
    }
  };
  return [settings, defaults].flatMap((file) => {
    const problem = geminiSystemFileProblem(file, stat);
    return problem
      ? [
          {
            ok: false,
            required: false,
            label: "gemini system settings",
            detail: `gemini skips ${file}: ${problem}`,
            fix: "make it and its folders root-owned and not group/other-writable, or remove it (agentmux does not use it)",
          },
        ]
      : [];
  });
}
