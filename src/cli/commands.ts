/**
 * The command table. Each command module is loaded with a dynamic import, so `--version`
 * and `mcp-server` never load blessed, isomorphic-git or the MCP client.
 */
export type CommandModule = { run(argv: string[]): Promise<number> };
export type CommandEntry = { summary: string; hidden?: boolean; load: () => Promise<CommandModule> };

export const COMMANDS: Record<string, CommandEntry> = {
  validate: { summary: "check one artifact file against its contract", load: () => import("./validate.ts") },
  "mcp-server": { summary: "the stdio MCP server agent CLIs spawn (submit_* tools)", hidden: true, load: () => import("./mcp-server.ts") },
};
