import { resolve } from "node:path";
import type { SimEnv } from "./context.ts";
import type { SimMcp } from "./mcp-client.ts";
import { SimWorker } from "./worker.ts";

/**
 * Batch mode (`--prompt FILE`, researchers): do the task in that file without a screen,
 * print the transcript as plain lines, exit 0 when it succeeded (1 otherwise, 3 on a crash).
 */
export async function runBatch(env: SimEnv, promptFile: string, mcp: SimMcp | null): Promise<number> {
  let crashed: number | null = null;
  const worker = new SimWorker(env, mcp, {
    say: (line) => process.stdout.write(line + "\n"),
    busyChanged: () => undefined,
    exit: (code) => {
      crashed = code;
    },
    dialog: async () => false, // batch mode: nobody to ask
  });
  const ok = await worker.runPrompt(resolve(promptFile));
  await mcp?.close();
  if (crashed !== null) return crashed;
  return ok ? 0 : 1;
}
