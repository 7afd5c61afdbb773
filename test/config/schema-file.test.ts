import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { configJsonSchemaText } from "../../src/config/render.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

test("assets/config.schema.json is current (run: bun scripts/gen-schema.ts)", () => {
  const committed = readFileSync(join(REPO_ROOT, "assets", "config.schema.json"), "utf8");
  expect(committed).toBe(configJsonSchemaText());
});

test("the JSON Schema describes inputs: defaulted keys optional, unknown keys refused", () => {
  const schema = JSON.parse(configJsonSchemaText());
  expect(schema.required ?? []).toEqual([]);
  expect(schema.additionalProperties).toBe(false);
  const provider = schema.properties.providers.additionalProperties;
  expect(provider.required).toEqual(["command"]);
  expect(Object.keys(provider.properties)).toContain("args");
});
