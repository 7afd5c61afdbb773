import { defineError, type AgentmuxError } from "../../errors.ts";

/**
 * What a failed tmux command means, read once from its stderr: the server is not there, the
 * session is not there, a pane, window or client is not there, the session already exists,
 * or anything else. The wording is tmux 3.0–3.7's (client.c, cmd-find.c, options.c,
 * cmd-set/show-environment.c, cmd-attach-session.c); the same thing has several phrasings
 * depending on which command resolves the target.
 */
export type TmuxFailureKind = "server-not-running" | "session-not-found" | "target-not-found" | "duplicate-session" | "failed";

const KINDS: [TmuxFailureKind, RegExp][] = [
  // "server exited [unexpectedly]" / "lost server": the server went away while the command ran
  ["server-not-running", /no server running|error connecting to|server exited|lost server/i],
  // "no current target": the server is up but holds no session at all (e.g. while the last one closes)
  ["session-not-found", /can't find session|session not found|no such session|no current session|no current target|^no sessions$/im],
  ["target-not-found", /can't find (pane|window|client)|(pane|window) not found|no such (pane|window)|no current (pane|window|client)/i],
  ["duplicate-session", /duplicate session/i],
];

export function classifyTmuxStderr(stderr: string): TmuxFailureKind {
  return KINDS.find(([, re]) => re.test(stderr))?.[0] ?? "failed";
}

/** One failed tmux invocation: the socket, the arguments after `-L <socket>`, exit code and stderr. */
export type TmuxFailureData = { socket: string; args: string[]; code: number; stderr: string };

const text = (d: TmuxFailureData) => {
  const err = d.stderr.trim().replace(/\s+/g, " ") || `exit ${d.code}`;
  return { message: `tmux ${d.args[0]} failed: ${err}`, where: `tmux -L ${d.socket} ${d.args.join(" ")}`.slice(0, 300) };
};

export const TmuxServerNotRunning = defineError("TmuxServerNotRunning", "tmux", text);
export const TmuxSessionNotFound = defineError("TmuxSessionNotFound", "tmux", text);
export const TmuxTargetNotFound = defineError("TmuxTargetNotFound", "tmux", text);
export const TmuxDuplicateSession = defineError("TmuxDuplicateSession", "tmux", text);
export const TmuxCommandFailed = defineError("TmuxCommandFailed", "tmux", text);

const BY_KIND = {
  "server-not-running": TmuxServerNotRunning,
  "session-not-found": TmuxSessionNotFound,
  "target-not-found": TmuxTargetNotFound,
  "duplicate-session": TmuxDuplicateSession,
  failed: TmuxCommandFailed,
} as const;

/** The named error for a failed invocation. */
export function tmuxFailure(d: TmuxFailureData): AgentmuxError & { data: TmuxFailureData } {
  return new BY_KIND[classifyTmuxStderr(d.stderr)](d);
}

/** Any failed tmux invocation (whatever its kind). */
export function isTmuxFailure(e: unknown): e is AgentmuxError & { data: TmuxFailureData } {
  return Object.values(BY_KIND).some((k) => e instanceof k);
}

/** The session (or its whole server) is gone: what kill/cleanup paths treat as already done. */
export function isGone(e: unknown): boolean {
  return e instanceof TmuxServerNotRunning || e instanceof TmuxSessionNotFound;
}

/** A `-F` output line does not have the columns its format defines. */
export const TmuxFormatMismatch = defineError("TmuxFormatMismatch", "tmux", (d: { format: string; expected: number; got: number; line: string }) => ({
  message: `tmux printed ${d.got} column${d.got === 1 ? "" : "s"} where the ${d.format} format has ${d.expected}: ${JSON.stringify(d.line.slice(0, 200))}`,
  where: `format ${d.format}`,
}));

/** A pane command that cannot be written for sh: a NUL byte, no program, or a bad variable name. */
export const UnsafePaneCommand = defineError(
  "UnsafePaneCommand",
  "tmux",
  (d: { problem: "nul-byte"; word: string } | { problem: "empty" } | { problem: "env-name"; name: string }) =>
    d.problem === "nul-byte"
      ? { message: "a command argument contains a NUL byte", where: JSON.stringify(d.word).slice(0, 80) }
      : d.problem === "empty"
        ? { message: "empty command", where: "paneCommand" }
        : { message: `invalid environment variable name ${JSON.stringify(d.name)}`, where: `env.${d.name}` },
);

/** The folder a session or pane should start in is missing (`pane`: the pane's label). */
export const StartDirMissing = defineError("StartDirMissing", "tmux", (d: { dir: string; pane?: string }) =>
  d.pane === undefined
    ? { message: `working directory does not exist: ${d.dir}`, where: "createSession.cwd", hint: "create the folder or run from the project" }
    : { message: `pane working directory does not exist: ${d.dir}`, where: `createPane ${d.pane}` },
);

export const SessionExists = defineError("SessionExists", "tmux", (d: { session: string; socket: string; attach: string }) => ({
  message: `tmux session ${d.session} already exists`,
  where: `tmux -L ${d.socket}`,
  hint: `attach with: ${d.attach}  (or kill it first)`,
}));

/** The pane's process does not run in the folder it was started in. */
export const PaneWrongDir = defineError("PaneWrongDir", "tmux", (d: { pane: string; path: string; expected: string }) => ({
  message: `pane started in ${d.path} instead of ${d.expected}`,
  where: `createPane ${d.pane}`,
  hint: "the folder may have been removed or is not accessible",
}));

export const DuplicatePane = defineError("DuplicatePane", "tmux", (d: { panes: string[] }) => ({
  message: `show: duplicate pane in ${d.panes.join(",")}`,
  where: "Layout.show",
}));

/** A ready / busy pattern of a provider that is not a valid regular expression. */
export const InvalidPattern = defineError("InvalidPattern", "config", (d: { pattern: string; field: string; reason: string }) => ({
  message: `invalid regular expression ${JSON.stringify(d.pattern)}: ${d.reason}`,
  where: d.field,
}));
