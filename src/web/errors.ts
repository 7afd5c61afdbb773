import { defineError } from "../errors.ts";

/** The address or port `agentmux serve` was asked to listen on cannot be had. */
export const ServeListenFailed = defineError("ServeListenFailed", "io", (d: { host: string; port: number; reason: string }) => ({
  message: `cannot listen on ${d.host}:${d.port}: ${d.reason}`,
  where: `${d.host}:${d.port}`,
  hint: d.reason.includes("in use") ? "another server has this port: --port 0 picks a free one" : "check --host and --port",
}));

/** A folder given to `agentmux serve` that is not a project. */
export const NotAProject = defineError("NotAProject", "usage", (d: { dir: string; exists: boolean }) => ({
  message: d.exists ? "not a project: no .agentmux/ and no git repository here or above, so there are no runs to show" : "not a folder",
  where: d.dir,
  hint: d.exists
    ? "run agentmux serve inside a project, or give its folder (agentmux serve <project>); agentmux init makes one"
    : "give the folder of a project (one with .agentmux/ or a git repository)",
}));
