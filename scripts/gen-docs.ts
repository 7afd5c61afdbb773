/**
 * Writes the generated pages of docs/: configuration.md (from the Config schema and the
 * built-in config) and protocol.md (from the session schemas). Run `bun scripts/gen-docs.ts`
 * after changing either; test/docs fails when a page is stale.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../src/effects/fs/atomic.ts";
import { configurationDoc } from "../src/onboarding/docs/configuration-doc.ts";
import { protocolDoc } from "../src/onboarding/docs/protocol-doc.ts";

export const GENERATED_DOCS: Record<string, () => string> = {
  "configuration.md": configurationDoc,
  "protocol.md": protocolDoc,
};

if (import.meta.main) {
  for (const [name, render] of Object.entries(GENERATED_DOCS)) {
    const out = join(import.meta.dir, "..", "docs", name);
    writeFileAtomic(out, render());
    console.log(`wrote ${out}`);
  }
}
