import { z } from "zod";
import { RunEvent } from "../schema/run-api/event.ts";
import { RunResult } from "../schema/run-api/result.ts";
import { RunSnapshot } from "../schema/run-api/snapshot.ts";
import { RUN_API_VERSION } from "../schema/run-api/version.ts";

/** The run API's three published JSON Schemas, by file name (assets/, and frozen per version in test/fixtures/run-api/v<N>/). */
export const RUN_API_SCHEMAS = {
  "run-snapshot.schema.json": { schema: RunSnapshot, title: "agentmux run snapshot (agentmux status --json)" },
  "run-event.schema.json": { schema: RunEvent, title: "agentmux run event (a --ci --json line before the result)" },
  "run-result.schema.json": { schema: RunResult, title: "agentmux run result (the last --ci --json line)" },
} as const;
export type RunApiSchemaFile = keyof typeof RUN_API_SCHEMAS;

/**
 * Fields are only added: a consumer written against this version must accept what a later one
 * prints, so no object is closed (zod's output schemas are; `additionalProperties: false` goes).
 */
function open(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(open);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) if (!(k === "additionalProperties" && v === false)) out[k] = open(v);
  return out;
}

/** One published schema as JSON text: the output side of the zod schema, open, titled and versioned. */
export function runApiSchemaText(file: RunApiSchemaFile): string {
  const { schema, title } = RUN_API_SCHEMAS[file];
  const json = open(z.toJSONSchema(schema, { io: "output" })) as Record<string, unknown>;
  const { $schema, ...rest } = json;
  return (
    JSON.stringify(
      {
        $schema,
        $id: `agentmux/run-api/v${RUN_API_VERSION}/${file}`,
        title: `${title}, run API v${RUN_API_VERSION}`,
        "x-run-api-version": RUN_API_VERSION,
        ...rest,
      },
      null,
      2,
    ) + "\n"
  );
}
