import { InvalidPattern } from "./errors.ts";
import type { ReadyGate } from "../../schema/config.ts";
import type { Layout } from "./layout.ts";
import type { Tmux } from "./runner.ts";
import { PANE_STATE } from "./formats.ts";
import { captureArgs } from "./ops.ts";

/** One look at a pane: state flags, title and screen text, in a single tmux round trip. */
export type Snapshot = { dead: boolean; exitStatus: string; inMode: boolean; title: string; screen: string };

export async function snapshot(tmux: Tmux, pane: string): Promise<Snapshot> {
  const out = await tmux.run(["display-message", "-p", "-t", pane, PANE_STATE.text, ";", ...captureArgs(pane, { join: true })]);
  const nl = out.indexOf("\n");
  const head = PANE_STATE.parse(nl < 0 ? out : out.slice(0, nl));
  return {
    dead: head.dead === "1",
    exitStatus: head.exitStatus,
    inMode: head.inMode === "1",
    title: head.title.trim(),
    screen: nl < 0 ? "" : out.slice(nl + 1),
  };
}

export type CompiledGate = {
  ready: RegExp | null;
  busy: RegExp | null;
  /** what the input box shows instead of a pasted text (global: counted) */
  paste: RegExp;
  isBusy: (s: { title: string; screen: string }) => boolean;
  /** how to read the main column (the agent's words): its sidebar's gap and the CLI's decoration lines */
  main: MainColumn;
};

/** ready.sidebar_gap and ready.chrome, compiled */
export type MainColumn = { sidebarGap: number | null; chrome: RegExp | null };

const cache = new Map<string, CompiledGate>();

/** ReadyGate patterns are JavaScript regexes matched per line (`m` flag) against the screen; busy also against the title. */
export function compileGate(gate: ReadyGate): CompiledGate {
  const key = [gate.pattern, gate.busy_pattern, gate.paste_placeholder ?? "", gate.sidebar_gap ?? "", gate.chrome ?? ""].join("\u0000");
  const hit = cache.get(key);
  if (hit) return hit;
  const ready = compile(gate.pattern, "ready.pattern");
  const busy = compile(gate.busy_pattern, "ready.busy_pattern");
  const own = compile(gate.paste_placeholder ?? null, "ready.paste_placeholder");
  const paste = own ? new RegExp(own.source, "gm") : PASTE_PLACEHOLDER;
  const main = { sidebarGap: gate.sidebar_gap ?? null, chrome: compile(gate.chrome ?? null, "ready.chrome") };
  const compiled: CompiledGate = { ready, busy, paste, main, isBusy: (s) => !!busy && (busy.test(s.screen) || busy.test(s.title)) };
  cache.set(key, compiled);
  return compiled;
}

function compile(pattern: string | null, field: string): RegExp | null {
  if (pattern === null || pattern === "") return null;
  try {
    return new RegExp(pattern, "m");
  } catch (e) {
    throw new InvalidPattern({ pattern, field, reason: (e as Error).message });
  }
}

/**
 * CLIs replace pastes with a placeholder: claude `[Pasted text #N]`, codex `[Pasted Content N
 * chars]`, gemini `[Pasted Text: …]`, opencode `[Pasted ~N lines]` (even for one line). The
 * union, for a provider that names none (`ready.paste_placeholder`).
 */
export const PASTE_PLACEHOLDER = /\[Pasted (?:text|Content|Text|~\d+ lines?)/gm;

const squash = (s: string) => s.replace(/\s+/g, "");

function count(haystack: string, needle: string | RegExp): number {
  if (typeof needle !== "string") return (haystack.match(needle) ?? []).length;
  if (!needle) return 0;
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) n++;
  return n;
}

/**
 * Fragments of the text that survive a TUI's own wrapping (whitespace removed): its start and
 * its end. A box border drawn mid-text can break one of them but rarely both.
 */
function fragments(text: string): string[] {
  const s = squash(text);
  return s.length <= 16 ? [s] : [s.slice(0, 16), s.slice(-16)];
}

/** How often each fragment of the text, then a paste placeholder, shows on the screen. */
function fragmentCounts(screen: string, text: string, placeholder: RegExp): number[] {
  const sq = squash(screen);
  return [...fragments(text).map((f) => count(sq, f)), count(screen, placeholder)];
}

function occurrences(screen: string, text: string, placeholder: RegExp): number {
  return Math.max(...fragmentCounts(screen, text, placeholder));
}

/** The paste is on screen: the text (or a paste placeholder) shows more often than before the paste. */
export function pasteVisible(before: string, now: string, text: string, placeholder: RegExp = PASTE_PLACEHOLDER): boolean {
  // Any fragment counts: prompts share their start ("Read and follow the instructions in"), and
  // an older copy scrolling off the top as the new paste lands keeps the start's count level.
  const was = fragmentCounts(before, text, placeholder);
  return fragmentCounts(now, text, placeholder).some((n, i) => n > was[i]!);
}

/**
 * The whole paste is on screen: its end (or a paste placeholder) shows more often than before.
 * A CLI that draws a paste as its chunks arrive shows the start first; comparing the submit's
 * signs against such a half-drawn frame finds none of them (the end "appears" after Enter).
 */
export function pasteComplete(before: string, now: string, text: string, placeholder: RegExp = PASTE_PLACEHOLDER): boolean {
  const was = fragmentCounts(before, text, placeholder);
  const is = fragmentCounts(now, text, placeholder);
  const end = fragments(text).length - 1;
  return is[end]! > was[end]! || is.at(-1)! > was.at(-1)!;
}

/**
 * Did the CLI take the submit? Any of: busy started; the ready prompt (an empty input box)
 * came back; the text left the screen. With no patterns configured, the screen line that held
 * the text must have changed to something without it.
 */
export function acceptedAfterSubmit(gate: CompiledGate, before: Snapshot, pasted: Snapshot, now: Snapshot, text: string): boolean {
  return submitSign(gate, before, pasted, now, text) !== null;
}

/**
 * What shows that the CLI took the submit: `busy` (busy started, or the ready prompt came
 * back) is certain; `gone` (the text left the box) could also be a torn redraw caught between
 * a screen clear and the new frame, so the caller confirms it with a second look.
 */
export function submitSign(gate: CompiledGate, before: Snapshot, pasted: Snapshot, now: Snapshot, text: string): "busy" | "gone" | null {
  if (gate.isBusy(now) && !gate.isBusy(pasted)) return "busy";
  if (gate.ready && !gate.ready.test(pasted.screen) && gate.ready.test(now.screen)) return "busy";
  if (occurrences(now.screen, text, gate.paste) < occurrences(pasted.screen, text, gate.paste)) return "gone";
  // The text's end left the screen: it is no longer in the box (a transcript that clips long
  // lines keeps only the start, which is shared by every prompt reference).
  const end = squash(text).length > 16 ? fragments(text).at(-1)! : null;
  if (end && count(squash(now.screen), end) < count(squash(pasted.screen), end)) return "gone";
  // An agent that took the prompt and finished within one poll shows neither busy nor a text
  // that left the screen (its transcript repeats the prompt): the input box emptied is the sign.
  if (inputEmptied(pasted, now, text)) return "gone";
  if (gate.ready || gate.busy) return null;
  const frag = fragments(text).at(-1)!;
  const pastedLines = pasted.screen.split("\n");
  let row = -1;
  pastedLines.forEach((line, i) => {
    if (squash(line).includes(frag)) row = i;
  });
  const nowLine = now.screen.split("\n")[row] ?? "";
  return row >= 0 && now.screen !== pasted.screen && !squash(nowLine).includes(frag) && before.screen !== now.screen ? "gone" : null;
}

/**
 * The bottom-most line that held the end of the pasted text no longer holds it, and that line
 * is still the input box's line (the screen did not scroll: the lines above it are unchanged).
 */
function inputEmptied(pasted: Snapshot, now: Snapshot, text: string): boolean {
  const frag = fragments(text).at(-1)!;
  const was = pasted.screen.split("\n");
  const is = now.screen.split("\n");
  let row = -1;
  was.forEach((line, i) => {
    if (squash(line).includes(frag)) row = i;
  });
  if (row < 0 || row >= is.length || squash(is[row]!).includes(frag)) return false;
  const glyph = (l: string) => l.trimStart().charAt(0);
  return glyph(was[row]!) !== "" && glyph(was[row]!) === glyph(is[row]!) && squash(is[row]!).length < squash(was[row]!).length;
}

/** Busy or idle from the title and the screen; "unknown" when neither pattern decides or the pane is gone. */
export async function paneActivity(layout: Layout, pane: string, ready: ReadyGate): Promise<"busy" | "idle" | "unknown"> {
  const gate = compileGate(ready);
  let title: string;
  let screen: string;
  try {
    if (!(await layout.isAlive(pane))) return "unknown";
    [title, screen] = await Promise.all([layout.title(pane), layout.capture(pane)]);
  } catch {
    return "unknown";
  }
  if (gate.isBusy({ title, screen })) return "busy";
  if (gate.ready?.test(screen)) return "idle";
  return "unknown";
}
