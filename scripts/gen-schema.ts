/**
 * Writes assets/config.schema.json from the Config zod schema (src/schema/config.ts) and the run
 * API's JSON Schemas (assets/run-*.schema.json) from src/report/. The run API's schemas of a
 * version are also frozen in test/fixtures/run-api/v<N>/ the first time that version is
 * generated, and never rewritten: test/report/contract.test.ts checks every later schema against
 * each frozen one. Run `bun scripts/gen-schema.ts` after changing a schema; a test fails when
 * a file is stale.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../src/effects/fs/atomic.ts";
import { configJsonSchemaText } from "../src/config/render.ts";
import { RUN_API_SCHEMAS, runApiSchemaText, type RunApiSchemaFile } from "../src/report/json-schema.ts";
import { RUN_API_VERSION } from "../src/schema/run-api/version.ts";

const root = join(import.meta.dir, "..");
const write = (path: string, text: string) => {
  writeFileAtomic(path, text);
  console.log(`wrote ${path}`);
};

write(join(root, "assets", "config.schema.json"), configJsonSchemaText());
const frozen = join(root, "test", "fixtures", "run-api", `v${RUN_API_VERSION}`);
const freeze = !existsSync(frozen);
if (freeze) mkdirSync(frozen, { recursive: true });
for (const file of Object.keys(RUN_API_SCHEMAS) as RunApiSchemaFile[]) {
  write(join(root, "assets", file), runApiSchemaText(file));
  if (freeze) write(join(frozen, file), runApiSchemaText(file));
}
if (!freeze) console.log(`run API v${RUN_API_VERSION} is frozen in ${frozen}: a changed schema needs a new RUN_API_VERSION`);
