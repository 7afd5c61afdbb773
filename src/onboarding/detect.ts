import { runProcess, type Runner } from "../effects/process/run.ts";
import { findOnPath } from "../providers/doctor.ts";
import type { Config } from "../schema/config.ts";

/** Real agent CLIs in the order init prefers them as the default provider. */
export const CLI_PREFERENCE = ["claude", "codex", "gemini", "opencode", "copilot", "qwen", "cursor", "agy"] as const;

export type DetectedCli = {
  provider: string;
  command: string;
  /** where it was found on PATH, or null */
  path: string | null;
  /** first line of `<cli> --version`, or null when missing, failing or slower than the timeout */
  version: string | null;
};

/**
 * Which configured providers have their CLI on PATH, each asked for `--version` (in parallel,
 * `timeoutMs` each). Built-in CLIs come first in preference order, then any user-defined ones;
 * the simulated agent (`@self`) is not a CLI to detect.
 */
export async function detectClis(config: Config, path: string, exec: Runner = runProcess, timeoutMs = 5000): Promise<DetectedCli[]> {
  const names = Object.keys(config.providers).filter((n) => config.providers[n]!.command !== "@self");
  const rank = (n: string) => {
    const i = (CLI_PREFERENCE as readonly string[]).indexOf(n);
    return i < 0 ? CLI_PREFERENCE.length : i;
  };
  names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return Promise.all(
    names.map(async (provider): Promise<DetectedCli> => {
      const command = config.providers[provider]!.command;
      const found = findOnPath(command, path);
      if (!found) return { provider, command, path: null, version: null };
      const r = await exec([found, "--version"], { timeoutMs, env: { PATH: path } }).catch(() => null);
      const text = r && r.code === 0 && !r.timedOut ? (r.stdout.trim() || r.stderr.trim()).split("\n")[0]!.trim() : "";
      return { provider, command, path: found, version: text || null };
    }),
  );
}

/** The default provider init picks without asking: the first detected CLI by preference, else none (null). */
export function preferredProvider(detected: DetectedCli[]): string | null {
  for (const name of CLI_PREFERENCE) if (detected.some((d) => d.provider === name && d.path)) return name;
  return null;
}

/** How to install each built-in CLI that has an npm package (`providers.<p>.npm_package`), for a user who has none. */
export function installLines(config: Config): string[] {
  return CLI_PREFERENCE.flatMap((name) => {
    const pkg = config.providers[name]?.npm_package;
    return pkg ? [`  ${name.padEnd(8)}  npm install -g ${pkg}`] : [];
  });
}

/** What init says when no agent CLI is on PATH (the question then has no default; `--defaults` chooses none). */
export function noCliMessage(install: string[], asking: boolean): string[] {
  return asking
    ? [
        "No agent CLI was found on PATH, so there is no default: choose the one you will install, or sim to try agentmux with simulated agents.",
        "Installing one, for example:",
        ...install,
      ]
    : [
        "No agent CLI was found on PATH: no default provider was chosen (the built-in claude stays until one is). Install the one you use,",
        "then run agentmux init again; for example:",
        ...install,
      ];
}

/** `✓ claude  /usr/bin/claude  (1.0.3)` / `✗ codex  not found` lines. */
export function formatDetected(detected: DetectedCli[]): string[] {
  const width = Math.max(...detected.map((d) => d.provider.length), 4);
  return detected.map((d) =>
    d.path
      ? `  ✓ ${d.provider.padEnd(width)}  ${d.path}${d.version ? `  (${d.version})` : "  (--version gave no answer)"}`
      : `  ✗ ${d.provider.padEnd(width)}  not found on PATH`,
  );
}
