import { VERSION } from "../version.ts";
import { GLOBAL_FLAGS, type CommandSpec, type FlagSpec } from "./spec.ts";

/** Help is read in 80-column terminals: no line of it is longer. */
export const HELP_WIDTH = 80;

/** Words of `text` in lines of at most `width` columns, every line after the first indented by `indent`. */
function wrap(text: string, indent: number, width = HELP_WIDTH): string {
  const pad = " ".repeat(indent);
  return wrapLines(text, width, pad, pad).join("\n").slice(indent);
}

/** Words of `text` in lines of at most `width` columns: the first starts with `first`, the others with `rest`. */
function wrapLines(text: string, width: number, first: string, rest: string): string[] {
  const out: string[] = [];
  let line = "";
  const prefix = () => (out.length ? rest : first);
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && [...prefix()].length + [...line].length + 1 + [...word].length > width) {
      out.push(prefix() + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(prefix() + line);
  return out;
}

const indentOf = (line: string) => line.length - line.trimStart().length;
/** The column where a definition's text starts (`  check   decide …` → 10), if the line is one. */
const textColumn = (line: string) => /^(\s+\S+\s{2,})\S/.exec(line)?.[1]!.length;

/**
 * The prose of a spec (about, notes) in lines of at most `width` columns, so specs need not be
 * hand-wrapped: paragraphs (split by blank lines) are joined and wrapped again; indented lines
 * (examples, commands, tables) are kept as they are, except a definition list item
 * (`  word   text`) whose next lines are indented to its text: that item is wrapped under it.
 */
export function reflow(text: string, width = HELP_WIDTH): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i]!;
    if (!line.trim()) {
      out.push("");
      i++;
    } else if (indentOf(line) === 0) {
      let j = i;
      while (j < lines.length && lines[j]!.trim() && indentOf(lines[j]!) === 0) j++;
      out.push(...wrapLines(lines.slice(i, j).join(" "), width, "", ""));
      i = j;
    } else {
      const column = textColumn(line);
      let j = i + 1;
      while (column !== undefined && j < lines.length && lines[j]!.trim() && indentOf(lines[j]!) === column) j++;
      if (j === i + 1) out.push(line);
      else out.push(...wrapLines([line.slice(column), ...lines.slice(i + 1, j)].join(" "), width, line.slice(0, column), " ".repeat(column!)));
      i = j;
    }
  }
  return out.join("\n");
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
    reflow(spec.about),
    "",
    "Options:",
    ...options,
    ...(spec.notes ? ["", reflow(spec.notes)] : []),
    "",
  ].join("\n");
}

/** The text of `agentmux --help`: what agentmux is, how to call it, the visible commands. */
export function mainHelp(specs: readonly CommandSpec[]): string {
  const visible = specs.filter((s) => !s.hidden);
  const width = Math.max(...visible.map((s) => s.name.length));
  return [
    `agentmux ${VERSION} — a multi-agent pipeline driving your AI coding CLIs in tmux`,
    "",
    "Usage:",
    '  agentmux "Add rate limiting"      start a run (same as: agentmux run "…")',
    "  agentmux <command> [options]",
    "  agentmux help <command>           a command's help (also: <command> --help)",
    "  agentmux                          open the home screen (in a terminal)",
    "",
    "Commands:",
    ...visible.map((s) => `  ${s.name.padEnd(width)}  ${wrap(s.summary, width + 4)}`),
    "",
    "Options:",
    "  -h, --help      show help",
    "  -V, --version   print the version",
    "",
    reflow('A one-word request is refused as a probable mistyped command; start it with:\n  agentmux run "<word>"'),
    "",
  ].join("\n");
}
