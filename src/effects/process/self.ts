import { existsSync } from "node:fs";
import { join } from "node:path";
import { defineError } from "../../errors.ts";

/** True inside the compiled binary (its modules live in Bun's embedded /$bunfs). */
export function isCompiled(): boolean {
  return import.meta.url.includes("$bunfs") || (Bun.main ?? "").startsWith("/$bunfs");
}

/** The program agentmux runs as was deleted and nothing took its path: it cannot start itself again. */
export const BinaryRemoved = defineError("BinaryRemoved", "io", (d: { path: string }) => ({
  message: "the agentmux binary was removed while agentmux was running",
  where: d.path,
  hint: "restart agentmux (reinstall it first if it is gone for good)",
}));

/** How Linux reads the path of a running program whose file was deleted or replaced. */
const DELETED = " (deleted)";

/**
 * The program now at the path this process was started from. A rebuild or reinstall replaces
 * the file while agentmux runs (the home screen stays open for hours): process.execPath then
 * reads "<path> (deleted)", which no one can start; the new file at <path> is the one to start.
 */
export function liveProgram(execPath: string): string {
  if (!execPath.endsWith(DELETED) || existsSync(execPath)) return execPath;
  const path = execPath.slice(0, -DELETED.length);
  if (!existsSync(path)) throw new BinaryRemoved({ path });
  return path;
}

/**
 * How to start this same agentmux: the compiled binary itself, or `bun src/main.ts` when
 * running from source (tests, development). Asked each time something is started, so a
 * binary replaced since this process began is the one started.
 */
export function selfCommand(execPath: string = process.execPath): string[] {
  if (process.env.AGENTMUX_SELF) return JSON.parse(process.env.AGENTMUX_SELF) as string[];
  if (isCompiled()) return [liveProgram(execPath)];
  return [liveProgram(execPath), join(import.meta.dir, "..", "..", "main.ts")];
}
