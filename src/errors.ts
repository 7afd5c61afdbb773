import { inertLine, inertText } from "./schema/inert-text.ts";

/**
 * Errors are named data. Each kind of failure is a class made with `defineError`: its name,
 * the typed data that says what went wrong and where (a file, a field path, a command, a
 * pid…), and how that data reads as text ("what / where / what to do"). Code that reacts to
 * an error tests its class (`e instanceof NothingToCommit`) and reads `e.data`, never the
 * message; only the CLI (main.ts → formatError) turns an error into text and an exit code.
 */
export type ErrorCode = "usage" | "config" | "artifact" | "session" | "git" | "tmux" | "provider" | "gh" | "io" | "internal";

/** How an error reads: what went wrong, where, and what to do about it. */
export type ErrorText = { message: string; where?: string; hint?: string };

export class AgentmuxError extends Error {
  readonly code: ErrorCode;
  readonly where?: string;
  readonly hint?: string;
  readonly exitCode: number;
  /** the error's substance as data */
  readonly data: object;

  /** Protected: every error is a named kind made with defineError, never a generic AgentmuxError. */
  protected constructor(code: ErrorCode, message: string, opts: { where?: string; hint?: string; exitCode?: number; cause?: unknown; data: object }) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AgentmuxError";
    this.code = code;
    this.where = opts.where;
    this.hint = opts.hint;
    this.exitCode = opts.exitCode ?? (code === "usage" || code === "config" ? 2 : 1);
    this.data = opts.data;
  }
}

export type NamedErrorClass<N extends string, D extends object> = {
  new (data: D, opts?: { cause?: unknown }): AgentmuxError & { readonly name: N; readonly data: D };
  readonly errorName: N;
};

/**
 * A named error kind. `text` renders its data; `exitCode` defaults by category (usage and
 * config errors exit 2, the rest 1).
 *
 *   export const NothingToCommit = defineError("NothingToCommit", "git", (d: { root: string }) => ({
 *     message: "nothing to commit", where: d.root, hint: "…" }));
 *   throw new NothingToCommit({ root });
 */
export function defineError<N extends string, D extends object>(
  name: N,
  code: ErrorCode,
  text: (data: D) => ErrorText,
  opts: { exitCode?: number } = {},
): NamedErrorClass<N, D> {
  const named = class extends AgentmuxError {
    static readonly errorName = name;
    declare readonly name: N;
    declare readonly data: D;
    constructor(data: D, o: { cause?: unknown } = {}) {
      const t = text(data);
      super(code, t.message, { where: t.where, hint: t.hint, exitCode: opts.exitCode, cause: o.cause, data });
      this.name = name;
    }
  };
  Object.defineProperty(named, "name", { value: name });
  return named as unknown as NamedErrorClass<N, D>;
}

export function isAgentmuxError(e: unknown): e is AgentmuxError {
  return e instanceof AgentmuxError;
}

/**
 * One human-readable block: "agentmux: <where>: <message>" plus an optional hint line. Error
 * data carries untrusted text (paths, titles, causes an agent wrote): it prints inert.
 */
export function formatError(e: AgentmuxError): string {
  const head = e.where ? `agentmux: ${inertLine(e.where)}: ${inertText(e.message)}` : `agentmux: ${inertText(e.message)}`;
  return e.hint
    ? `${head}\n  hint: ${inertText(e.hint)
        .split("\n")
        .map((l) => l.trim())
        .join("\n        ")}`
    : head;
}
