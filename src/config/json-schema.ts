import { z } from "zod";
import { Config } from "../schema/config.ts";

/** The JSON Schema of a config file (input side: every defaulted key is optional). */
export function configJsonSchemaText(): string {
  const schema = z.toJSONSchema(Config, { io: "input" }) as Record<string, unknown>;
  return JSON.stringify({ ...schema, title: "agentmux configuration (version 2)" }, null, 2) + "\n";
}
