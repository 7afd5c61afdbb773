/**
 * A terminal tmux cannot drive: TERM unset or "dumb" (an editor's shell buffer, some CI
 * consoles). Such a run follows its progress headless instead of attaching.
 */
export function termUnusable(env: Record<string, string | undefined> = process.env): boolean {
  return !env.TERM || env.TERM === "dumb";
}

export const termName = () => process.env.TERM || "unset";
