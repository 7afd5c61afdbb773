import { defineError } from "../errors.ts";
import { formatProblem, type Problem } from "./problems.ts";

/** What can go wrong with a session folder or the choice of a session, as data. */

const RUN_HINT = 'start one with: agentmux run "<what to build>"';

/** A short list of ids for a hint: the newest few, then how many more and where to see them. */
export function idHint(ids: string[], max = 5): string {
  if (ids.length <= max) return ids.join(", ");
  return `${ids.slice(0, max).join(", ")} and ${ids.length - max} more (see: agentmux sessions)`;
}

export const NoSessions = defineError("NoSessions", "session", (d: { root: string }) => ({
  message: "no sessions in this project",
  where: d.root,
  hint: RUN_HINT,
}));

export const NoSuchSession = defineError("NoSuchSession", "session", (d: { arg: string; root: string; available: string[] }) => ({
  message: `no session "${d.arg}"`,
  where: d.root,
  hint: d.available.length ? `sessions here: ${idHint(d.available)}` : `there are no sessions yet; ${RUN_HINT}`,
}));

/** A prefix or suffix that matches several session ids. */
export const AmbiguousSession = defineError("AmbiguousSession", "session", (d: { arg: string; ids: string[] }) => ({
  message: `"${d.arg}" matches ${d.ids.length} sessions`,
  hint: `use more of the id: ${idHint(d.ids)}`,
}));

export const InvalidSessionName = defineError("InvalidSessionName", "usage", (d: { name: string; problem: string }) => ({
  message: `${JSON.stringify(d.name)} is not a valid session name: it ${d.problem}`,
  where: "--name",
  hint: "use letters, digits, '.', '_' and '-' (at most 80, starting with a letter or digit)",
}));

/** The session folder could not be made (a full disk, a read-only folder): nothing of it is left. */
export const SessionNotCreated = defineError("SessionNotCreated", "io", (d: { dir: string; code: string; reason: string }) => ({
  message: `could not create the session folder: ${d.reason}`,
  where: d.dir,
  hint:
    d.code === "ENOSPC" || d.code === "EDQUOT"
      ? "free some disk space, then run again (nothing was started, nothing was left behind)"
      : "check that the project folder is writable, then run again (nothing was started, nothing was left behind)",
}));

export const SessionNameTaken = defineError("SessionNameTaken", "session", (d: { id: string; dir: string }) => ({
  message: `a session named "${d.id}" already exists`,
  where: d.dir,
  hint: `resume it with: agentmux resume ${d.id}`,
}));

/** A session file that should be there is not. */
export const SessionFileMissing = defineError("SessionFileMissing", "session", (d: { path: string; name: string }) => ({
  message: `no ${d.name} here`,
  where: d.path,
  hint: "is this an agentmux session folder? see: agentmux sessions",
}));

/** A session file does not read as its registry entry says (unreadable, bad syntax, a bad field): the problems name line, column or field. */
export const SessionFileInvalid = defineError("SessionFileInvalid", "artifact", (d: { path: string; name: string; problems: Problem[] }) => ({
  message: d.problems.map(formatProblem).join("; "),
  where: d.path,
  hint: `check it with: agentmux validate ${d.path}`,
}));

/** agentmux was about to write a session file that breaks its own contract (nothing was written). */
export const SessionFileRefused = defineError("SessionFileRefused", "internal", (d: { path: string; name: string; problems: Problem[] }) => ({
  message: `refused to write an invalid ${d.name} (nothing was written): ${d.problems.map(formatProblem).join("; ")}`,
  where: d.path,
}));

/** An orchestrator (`pid`) runs the session; `attach` / `stop` are the commands to offer. */
export const SessionBusy = defineError("SessionBusy", "session", (d: { dir: string; pid: number; attach?: string; stop?: string }) => ({
  message: `the session is still running (orchestrator pid ${d.pid})`,
  where: d.dir,
  hint: d.attach && d.stop ? `attach with: ${d.attach}   or stop it with: ${d.stop}` : undefined,
}));

export const SessionFinished = defineError("SessionFinished", "session", (d: { dir: string; feature: string | null }) => ({
  message: "this session already finished",
  where: d.dir,
  hint: `see: agentmux status ${d.feature ?? ""}`,
}));

export const SessionNotRunning = defineError("SessionNotRunning", "session", (d: { id: string; finished: boolean }) => ({
  message: `session ${d.id} is not running`,
  hint: d.finished ? "it has finished" : `resume it with: agentmux resume ${d.id}`,
}));

/** Nothing stopped to resume; `running`: unfinished runs that are still live (newest first), named with what to do instead. */
export const NothingToResume = defineError("NothingToResume", "session", (d: { running?: string[] }) => {
  const [id, ...more] = d.running ?? [];
  if (!id) return { message: "there is no session to resume", hint: "see: agentmux sessions" };
  return {
    message: `there is no session to resume: ${id}${more.length ? ` and ${more.length} more` : ""} ${more.length ? "are" : "is"} still running`,
    hint: `attach with: agentmux attach ${id}   or stop it with: agentmux cancel ${id}`,
  };
});

/** Several sessions could be resumed and nothing can ask which (stdin is not a terminal). */
export const SeveralResumable = defineError("SeveralResumable", "usage", (d: { ids: string[] }) => ({
  message: `${d.ids.length} sessions can be resumed; name one`,
  hint: `agentmux resume <id> (any unique part of the id's start or end will do); newest: ${idHint(d.ids)}`,
}));

export const NoSessionChosen = defineError("NoSessionChosen", "usage", (_: Record<string, never>) => ({ message: "no session chosen" }));

/** runtime_state.json names no control pane: the tmux session was never set up. */
export const NoControlPane = defineError("NoControlPane", "session", (d: { dir: string }) => ({
  message: "runtime_state.json has no control pane: the tmux session was not set up",
  where: d.dir,
}));

/** `.agentmux/proposed_preferences.json` cannot be read or does not have its shape (nothing is guessed). */
export const ProposalsUnreadable = defineError("ProposalsUnreadable", "session", (d: { file: string; problem: string }) => ({
  message: `cannot read the proposed preferences: ${d.problem}`,
  where: d.file,
  hint: "fix or remove the file: it holds only proposals, nothing the runs depend on",
}));

/** The run's seal key file (~/.cache/agentmux/keys/<session>-<hash>.seal, or an earlier session's .runtime/tool_seal.key) exists but does not hold a key. */
export const SealKeyInvalid = defineError("SealKeyInvalid", "session", (d: { path: string }) => ({
  message: "is not a seal key (64 hex digits)",
  where: d.path,
  hint: "remove it and resume: tool lines sealed with the old key are then refused, and their agents are asked again",
}));

/** Another `agentmux resume` (launcher `pid`) is resuming this session right now. */
export const SessionBeingResumed = defineError("SessionBeingResumed", "session", (d: { dir: string; pid: number; attach: string }) => ({
  message: `the session is already being resumed (agentmux pid ${d.pid})`,
  where: d.dir,
  hint: `nothing was changed; once it runs, attach with: ${d.attach}`,
}));

/** state.json was written by the Python agentmux: `agentmux resume <id> --from-python` converts it. */
export const PythonSession = defineError("PythonSession", "session", (d: { dir: string; id: string }) => ({
  message: "this session's state.json was written by the Python agentmux",
  where: d.dir,
  hint: `convert it and resume with: agentmux resume ${d.id} --from-python (the original is kept as state.python.json)`,
}));

/** `--from-python` named a session whose state.json is agentmux's own (never the Python tool's, or converted before). */
export const NotAPythonSession = defineError("NotAPythonSession", "usage", (d: { dir: string; id: string; converted: boolean }) => ({
  message: `not a Python agentmux session: its state.json is agentmux's own${d.converted ? " (converted from the Python agentmux before; the original is state.python.json)" : ""}`,
  where: d.dir,
  hint: `resume it without --from-python: agentmux resume ${d.id}`,
}));

/** `--from-python` with no session named, and none of the project's sessions is the Python tool's. */
export const NoPythonSession = defineError("NoPythonSession", "usage", (d: { root: string; resumable: string[] }) => ({
  message: "no session of the Python agentmux to convert",
  where: d.root,
  hint: d.resumable.length
    ? `agentmux's own sessions resume without --from-python: ${d.resumable.map((id) => `agentmux resume ${id}`).join(", ")}`
    : "a session the Python agentmux wrote is listed by agentmux sessions with the command that converts it",
}));

/** A Python agentmux state.json whose fields do not make a state agentmux can run, even converted. */
export const PythonStateUnconvertible = defineError("PythonStateUnconvertible", "session", (d: { dir: string; problems: string[] }) => ({
  message: `the Python agentmux's state.json could not be converted: ${d.problems.join("; ")}`,
  where: d.dir,
  hint: "finish the run with the Python agentmux, or start it again with agentmux run",
}));

/** The checkout lock's path is not a file agentmux can take (a folder, a symlink, a device), or could not be taken. */
export const CheckoutLockUnusable = defineError("CheckoutLockUnusable", "session", (d: { path: string; kind: "folder" | "other" | "busy" }) => ({
  message:
    d.kind === "busy"
      ? "could not take the checkout lock: other runs kept breaking and taking it"
      : `the checkout lock is a ${d.kind === "folder" ? "folder" : "special file"}, not a lock file: no run can hold this checkout`,
  where: d.path,
  hint: d.kind === "busy" ? "start the run again" : `remove it (nothing else of agentmux is in it): rm -r ${d.path}`,
}));
