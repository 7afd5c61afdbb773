import { VERSION } from "../version.ts";
import { UnknownCommand, UnknownOption, UsageError } from "./errors.ts";
import { commandHelp, mainHelp } from "./help.ts";
import { COMMANDS, SPECS, VISIBLE_COMMANDS } from "./commands.ts";
import { RUN_FLAGS } from "./specs/start.ts";
import { didYouMean } from "../config/suggest.ts";
import { quietWhenClosed } from "./closed-output.ts";
import { termUnusable } from "../launcher/terminal.ts";

const TOP_FLAGS = ["--help", "-h", "--version", "-V"];
/** A bare word (letters, digits, `-`, `_`): what a command name, or a mistyped one, looks like. */
const WORD = /^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u;

/** The words of an implicit `run` command line: its arguments without the flags and their values. */
function requestWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return [...words, ...argv.slice(i + 1)];
    if (!a.startsWith("-") || a === "-") words.push(a);
    else if (!a.includes("=")) {
      const f = (RUN_FLAGS as Record<string, { type: string }>)[a.slice(2)];
      if (f?.type === "string") i++;
    }
  }
  return words;
}

const isRunFlag = (arg: string) => arg.startsWith("--") && Object.hasOwn(RUN_FLAGS, arg.slice(2).split("=")[0]!);

/**
 * Routes a command line: `--version`, help, a command, or free text (the implicit `run`).
 * A request of one bare word is refused as a probable mistyped command (exit 2, nothing
 * started): `agentmux stauts --json` must never start a run named "stauts"; so is one whose
 * first word is within edit distance of a command (`agentmux resme 2024…`). The shell gives
 * agentmux "stauts" and agentmux stauts the same argv, so `agentmux run stauts` is the
 * explicit way to start such a request.
 */
export async function dispatch(argv: readonly string[], interactive: boolean): Promise<number> {
  quietWhenClosed(process.stdout);
  quietWhenClosed(process.stderr);
  const first = argv[0];
  if (first === "--version" || first === "-V") return (process.stdout.write(`agentmux ${VERSION}\n`), 0);
  if (first === "--help" || first === "-h") return (process.stdout.write(mainHelp(SPECS)), 0);
  if (first === "help") {
    const name = argv[1];
    if (name === undefined) return (process.stdout.write(mainHelp(SPECS)), 0);
    const entry = COMMANDS[name];
    if (!entry) throw new UnknownCommand({ word: name, suggestion: didYouMean(name, VISIBLE_COMMANDS), inHelp: true });
    return (process.stdout.write(commandHelp(entry.spec)), 0);
  }
  if (first === undefined) {
    if (interactive && !termUnusable()) return COMMANDS.home!.start([]);
    return (process.stdout.write(mainHelp(SPECS)), 0);
  }
  const entry = COMMANDS[first];
  if (entry) return entry.start(argv.slice(1));
  const words = requestWords(argv);
  // `agentmux --ci` alone: run's own option, so what is missing is the request (run says so)
  if (first.startsWith("-") && words.length === 0 && !isRunFlag(first)) {
    throw new UnknownOption({ option: first.split("=")[0]!, suggestion: didYouMean(first, TOP_FLAGS) });
  }
  if (words.length === 1 && WORD.test(words[0]!)) {
    const word = words[0]!;
    if (COMMANDS[word]) {
      const line = ["agentmux", word, ...argv.filter((a) => a !== word)].join(" ");
      throw new UsageError({ command: "agentmux", problem: `options go after the command`, hint: line });
    }
    throw new UnknownCommand({ word, suggestion: didYouMean(word, VISIBLE_COMMANDS), rest: argv.filter((a) => a !== word) });
  }
  // `agentmux resme <id>`, `agentmux cancle <id>`: a first word one edit from a command (a
  // letter missing, added, changed or two swapped) is a mistyped command whatever follows, never
  // the start of a paid run. One edit, not two: "rename the class" is a request, not `resume`.
  const lead = words[0];
  const meant = lead && WORD.test(lead) ? didYouMean(lead, VISIBLE_COMMANDS, { prefix: false, maxEdits: 1 }) : undefined;
  if (meant) throw new UnknownCommand({ word: lead!, suggestion: meant, rest: argv.filter((a) => a !== lead), request: words.join(" ") });
  try {
    return await COMMANDS.run!.start(argv);
  } catch (e) {
    // `agentmux stauts 1234 --watch`: an option run does not know after a word that looks like a command
    const suggestion = e instanceof UnknownOption && WORD.test(first) ? didYouMean(first, VISIBLE_COMMANDS) : undefined;
    if (suggestion) throw new UnknownCommand({ word: first, suggestion, rest: argv.slice(1) });
    throw e;
  }
}
