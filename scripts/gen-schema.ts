/**
 * Writes assets/config.schema.json from the Config zod schema (src/schema/config.ts).
 * Run `bun scripts/gen-schema.ts` after changing the schema; a test fails when it is stale.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../src/effects/fs/atomic.ts";
import { configJsonSchemaText } from "../src/config/render.ts";

const out = join(import.meta.dir, "..", "assets", "config.schema.json");
writeFileAtomic(out, configJsonSchemaText());
console.log(`wrote ${out}`);
