import type { State } from "../schema/state.ts";

/**
 * What `worktree.setup` commands and every agent of a run get about it: AGENTMUX_PORT_OFFSET
 * (10, 20, …, unique among the repository's live runs: start dev servers on 3000 + offset),
 * the main checkout and the folder the run works in.
 */
export function runEnv(state: State): Record<string, string> {
  const main = state.main_repo_dir ?? state.project_dir ?? "";
  return {
    ...(state.port_offset !== undefined ? { AGENTMUX_PORT_OFFSET: String(state.port_offset) } : {}),
    ...(main ? { AGENTMUX_MAIN_CHECKOUT: main } : {}),
    AGENTMUX_WORK_DIR: state.worktree_path ?? main,
  };
}
