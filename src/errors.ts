/**
 * Errors are named data: a code, what went wrong, where (file, field path, command)
 * and what to do. Only the CLI turns them into text and exit codes.
 */
export type ErrorCode =
  | "usage"
  | "config"
  | "artifact"
  | "session"
  | "git"
  | "tmux"
  | "provider"
  | "gh"
  | "io"
  | "internal";

export class AgentmuxError extends Error {
  readonly code: ErrorCode;
  readonly where?: string;
  readonly hint?: string;
  readonly exitCode: number;

  constructor(code: ErrorCode, message: string, opts: { where?: string; hint?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AgentmuxError";
    this.code = code;
    this.where = opts.where;
    this.hint = opts.hint;
    this.exitCode = opts.exitCode ?? (code === "usage" || code === "config" ? 2 : 1);
  }
}

export function isAgentmuxError(e: unknown): e is AgentmuxError {
  return e instanceof AgentmuxError;
}

/** One human-readable block: "error: <where>: <message>" plus an optional hint line. */
export function formatError(e: AgentmuxError): string {
  const head = e.where ? `agentmux: ${e.where}: ${e.message}` : `agentmux: ${e.message}`;
  return e.hint ? `${head}\n  hint: ${e.hint.split("\n").map((l) => l.trim()).join("\n        ")}` : head;
}
