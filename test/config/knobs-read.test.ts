/**
 * #29.5: no dead config knobs. Every key of the config schema is read by some code other than
 * the schema itself, its documentation and the adapters' built-in values (providers.<p>.submit
 * .escape_safe was set for every CLI and read by none). A key nothing reads is removed, not kept.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { configRows } from "../../src/onboarding/docs/configuration-doc.ts";
import { code, sources, SRC } from "../architecture/imports.ts";

/** Where a key is only declared, documented or given its built-in value: not where it is read. */
const NOT_A_READER = (rel: string) => rel === "schema/config.ts" || rel.startsWith("onboarding/docs/") || rel.startsWith("providers/adapters/");

export function unreadKeys(keys: string[], files: { path: string; text: string }[]): string[] {
  const readers = files.filter((f) => !NOT_A_READER(f.path)).map((f) => f.text);
  return keys.filter((key) => {
    const name = key.split(".").at(-1)!.replace(/\[\]$/, "");
    if (name.startsWith("<")) return false; // a map of names: its entries are read as a whole
    const read = new RegExp(`\\.${name}\\b|\\["${name}"\\]|\\b${name}\\s*[:,}]|\\{[^}]*\\b${name}\\b[^}]*\\}\\s*=`);
    return !readers.some((t) => read.test(t));
  });
}

test("every config key is read somewhere in src/", () => {
  const files = sources(SRC).map((p) => ({ path: relative(SRC, p), text: code(readFileSync(p, "utf8")) }));
  const keys = configRows()
    .map((r) => r.key)
    .filter((k) => k !== "version");
  expect(unreadKeys(keys, files)).toEqual([]);
});

test("the check sees a key nothing reads", () => {
  const files = [
    { path: "schema/config.ts", text: "escape_safe: z.boolean()" },
    { path: "providers/adapters/x.ts", text: "submit: { escape_safe: true }" },
    { path: "effects/tmux/deliver.ts", text: "const wait = opts.submit.verify_ms;" },
  ];
  expect(unreadKeys(["providers.<name>.submit.escape_safe", "providers.<name>.submit.verify_ms"], files)).toEqual(["providers.<name>.submit.escape_safe"]);
});
