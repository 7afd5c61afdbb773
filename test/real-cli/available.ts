/** Whether the opt-in real-CLI suite runs, and per CLI: its binary or why it is skipped. */
import { homedir } from "node:os";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { findCli, probeCli, type CliDef } from "./clis.ts";

export const ENABLED = process.env.AGENTMUX_REAL_CLI === "1";

/**
 * The suite runs as users run agentmux: not as root, and with HOME outside /tmp
 * (scripts/real-cli-as-user.sh). AGENTMUX_REAL_CLI_ROOT=1 runs it as root on purpose (the CLIs
 * treat root differently: gemini's system layers, claude's permission flags), to measure that case.
 */
const AS_ROOT = process.env.AGENTMUX_REAL_CLI_ROOT === "1";
const WRONG_USER =
  process.getuid?.() === 0 && !AS_ROOT
    ? "running as root (use scripts/real-cli-as-user.sh, or AGENTMUX_REAL_CLI_ROOT=1 to measure root)"
    : homedir().startsWith("/tmp/")
      ? `HOME ${homedir()} is under /tmp`
      : null;

/** Import-time decision per CLI: the binary, or why the test is skipped. */
export function availability(cli: CliDef): { bin: string | null; why: string | null } {
  if (!ENABLED) return { bin: null, why: "AGENTMUX_REAL_CLI is not 1" };
  if (WRONG_USER) return { bin: null, why: WRONG_USER };
  const bin = findCli(cli.name);
  if (!bin) return { bin: null, why: `${cli.name} is not on PATH nor in .real-cli/bin (run scripts/install-real-clis.sh; npm package ${cli.npm})` };
  const scratch = makeTmpDir(`amx-probe-${cli.name}-`);
  const failed = probeCli(bin, scratch);
  removeDir(scratch);
  return failed ? { bin: null, why: failed } : { bin, why: null };
}
