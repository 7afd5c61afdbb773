import { VERSION } from "../version.ts";
import { GLOBAL_FLAGS, type CommandSpec, type FlagSpec } from "./spec.ts";

const WIDTH = 100;

/** Words of `text` in lines of at most `width - indent` characters, every line after the first indented. */
function wrap(text: string, indent: number, width = WIDTH): string {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out.join("\n" + " ".repeat(indent));
}

const flagLabel = (name: string, f: FlagSpec) => `${f.alias ? `-${f.alias}, ` : "    "}--${name}${f.type === "string" ? ` ${f.value}` : ""}`;

const visibleFlags = (spec: CommandSpec): [string, FlagSpec][] => Object.entries({ ...spec.flags, ...GLOBAL_FLAGS }).filter(([, f]) => !f.hidden);

/** `status [session] [--json] [--watch]`: the arguments, then the flags (or [options] when there are many). */
export function usageLine(spec: CommandSpec): string {
  const args = spec.args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}${a.variadic ? "…" : ""}]`));
  const flags = Object.entries(spec.flags).filter(([, f]) => !f.hidden);
  const opts = flags.length > 3 ? ["[options]"] : flags.map(([n, f]) => `[--${n}${f.type === "string" ? ` ${f.value}` : ""}]`);
  return [spec.name, ...args, ...opts].join(" ");
}

/** The text of `agentmux <command> --help` and `agentmux help <command>`. */
export function commandHelp(spec: CommandSpec): string {
  const usage = spec.usage ?? [usageLine(spec)];
  const flags = visibleFlags(spec);
  const width = Math.max(...flags.map(([n, f]) => flagLabel(n, f).length));
  const options = flags.map(([n, f]) => `  ${flagLabel(n, f).padEnd(width)}  ${wrap(f.help, width + 4)}`);
  return [
    `Usage: ${usage.map((u, i) => (i === 0 ? "" : "       ") + "agentmux " + u).join("\n")}`,
    "",
    spec.about,
    "",
    "Options:",
    ...options,
    ...(spec.notes ? ["", spec.notes] : []),
    "",
  ].join("\n");
}

/** The text of `agentmux --help`: what agentmux is, how to call it, the visible commands. */
export function mainHelp(specs: readonly CommandSpec[]): string {
  const visible = specs.filter((s) => !s.hidden);
  const width = Math.max(...visible.map((s) => s.name.length));
  return [
    `agentmux ${VERSION} — a multi-agent software pipeline driving your AI coding CLIs in tmux`,
    "",
    "Usage:",
    '  agentmux "Add rate limiting"      start a run (same as: agentmux run "…")',
    "  agentmux <command> [options]",
    "  agentmux help <command>           a command's options (also: agentmux <command> --help)",
    "  agentmux                          open the home screen (in a terminal)",
    "",
    "Commands:",
    ...visible.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
    "",
    "Options:",
    "  -h, --help      show help",
    "  -V, --version   print the version",
    "",
    'A one-word request is refused as a probable mistyped command; start it with: agentmux run "<word>"',
    "",
  ].join("\n");
}
