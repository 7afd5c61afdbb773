#!/usr/bin/env bun
import { VERSION } from "./version.ts";
import { COMMANDS } from "./cli/commands.ts";
import { AgentmuxError, formatError, isAgentmuxError } from "./errors.ts";

export function helpText(): string {
  const visible = Object.entries(COMMANDS).filter(([, c]) => !c.hidden);
  const width = Math.max(...visible.map(([n]) => n.length));
  return [
    `agentmux ${VERSION} — a multi-agent software pipeline driving your AI coding CLIs in tmux`,
    "",
    "Usage:",
    '  agentmux "Add rate limiting"      start a run (same as: agentmux run "…")',
    "  agentmux <command> [options]",
    "  agentmux                          open the home screen (in a terminal)",
    "",
    "Commands:",
    ...visible.map(([n, c]) => `  ${n.padEnd(width)}  ${c.summary}`),
    "",
    "Options:",
    "  --config PATH   add a config file as the last (highest) layer",
    "  -h, --help      show help (also: agentmux <command> --help)",
    "  -V, --version   print the version",
    "",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === "--version" || first === "-V") {
    process.stdout.write(`agentmux ${VERSION}\n`);
    return 0;
  }
  if (first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(helpText());
    return 0;
  }
  if (first === undefined) {
    if (process.stdin.isTTY && process.stdout.isTTY && COMMANDS.home) return (await COMMANDS.home.load()).run([]);
    process.stdout.write(helpText());
    return 0;
  }
  const entry = COMMANDS[first];
  if (entry) return (await entry.load()).run(argv.slice(1));
  if (first.startsWith("-") && !argv.slice(1).some((a) => !a.startsWith("-"))) {
    throw new AgentmuxError("usage", `unknown option ${first}`, { hint: 'run "agentmux --help" for usage', exitCode: 2 });
  }
  // A request in free text is the implicit `run` command — unless it looks like a mistyped command.
  if (/^[a-z][a-z-]*$/.test(first) && argv.length === 1) {
    throw new AgentmuxError("usage", `unknown command "${first}"`, {
      hint: `run "agentmux --help" for the commands; to start a run with this text, use: agentmux run "${first}"`,
      exitCode: 2,
    });
  }
  if (!COMMANDS.run) throw new AgentmuxError("usage", `unknown command "${first}"`, { exitCode: 2 });
  return (await COMMANDS.run.load()).run(argv);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  if (isAgentmuxError(e)) {
    process.stderr.write(formatError(e) + "\n");
    process.exitCode = e.exitCode;
  } else {
    const err = e as Error;
    process.stderr.write(`agentmux: internal error: ${err?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  }
}
