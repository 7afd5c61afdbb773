import { existsSync } from "node:fs";
import type { ParsedArgs } from "./args.ts";
import type { simAgent } from "./specs/internal.ts";
import { PromptFileMissing } from "./errors.ts";
import { SimConversationIdInvalid, SimTranscriptFormatInvalid } from "../sim/errors.ts";

export async function run(args: ParsedArgs<typeof simAgent>): Promise<number> {
  const [{ simEnvFromProcess }, { SimMcp, loadMcpConfig }] = await Promise.all([import("../sim/context.ts"), import("../sim/mcp-client.ts")]);
  const env = simEnvFromProcess();
  const resume = args.flags.resume;
  const id = resume ?? args.flags["session-id"];
  if (id !== undefined) {
    if (!/^[A-Za-z0-9_.-]{1,80}$/.test(id)) throw new SimConversationIdInvalid({ id, flag: resume ? "--resume" : "--session-id" });
    env.conversation = { id, resumed: resume !== undefined };
  }
  const transcript = args.flags.transcript ?? "claude";
  if (transcript !== "claude" && transcript !== "codex") throw new SimTranscriptFormatInvalid({ value: transcript });
  env.transcript = transcript;
  const mcpFile = args.flags["mcp-config"];
  if (mcpFile) env.mcpConfig = mcpFile;
  const mcp = mcpFile ? new SimMcp(loadMcpConfig(mcpFile).server) : null;
  const prompt = args.flags.prompt;
  if (prompt !== undefined) {
    if (!existsSync(prompt)) throw new PromptFileMissing({ prompt });
    const { runBatch } = await import("../sim/batch.ts");
    return runBatch(env, prompt, mcp);
  }
  const { SimApp } = await import("../sim/app.ts");
  const code = await new SimApp(env, mcp).run();
  // a crash or Ctrl-C ends the process at once, like a real CLI dying (MCP child sees EOF)
  process.exit(code);
}
