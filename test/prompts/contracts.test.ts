import { afterEach, expect, test } from "bun:test";
import { z } from "zod";
import { CONTRACT_SCHEMAS, contractFieldPaths, contractFields, contractNotes, type ContractName } from "../../src/prompts/contracts.ts";
import { renderPrompt } from "../../src/prompts/render.ts";
import { removeDir } from "../helpers/tmp.ts";
import { caseFor, makeSession, options, type Fixture } from "./fixture.ts";

let f: Fixture;
afterEach(() => f && removeDir(f.root));

/** Each contract and the prompts that must describe it. */
const WHERE: Record<ContractName, string[]> = {
  plan: ["planner", "change"],
  done: ["coder", "coder-whole", "fix"],
  review: ["reviewer_logic", "reviewer_quality", "reviewer_expert", "review-followup"],
  research_dispatch: ["product-manager", "architect", "planner"],
  preference: ["product-manager", "architect", "planner", "reviewer_logic"],
};

/** Every field name of a schema, walked on zod's own JSON Schema independently of contracts.ts. */
function schemaFieldNames(schema: z.ZodType): string[] {
  const names: string[] = [];
  const walk = (s: any) => {
    if (!s || typeof s !== "object") return;
    for (const [k, v] of Object.entries(s.properties ?? {})) {
      names.push(k);
      walk(v);
    }
    walk(s.items);
    for (const alt of s.anyOf ?? []) walk(alt);
  };
  walk(z.toJSONSchema(schema, { io: "input" }));
  return names;
}

for (const [contract, templates] of Object.entries(WHERE) as [ContractName, string[]][]) {
  test(`${contract}: every schema field is listed in ${templates.join(", ")}`, () => {
    f = makeSession();
    const names = schemaFieldNames(CONTRACT_SCHEMAS[contract]);
    expect(names.length).toBeGreaterThan(1);
    for (const t of templates) {
      const out = renderPrompt(options(f, caseFor(t)));
      for (const name of names) expect({ t, field: name, listed: out.includes(`- \`${name}\` (`) }).toEqual({ t, field: name, listed: true });
    }
  });
}

test("a field missing from the schema-generated list would fail the check", () => {
  const withExtra = z.object({ verdict: z.string(), brand_new_field: z.number() });
  const listed = contractFields("review");
  expect(schemaFieldNames(withExtra).filter((n) => !listed.includes(`\`${n}\``))).toEqual(["brand_new_field"]);
});

test("field lists carry types, required/optional and enum values from the schema", () => {
  const review = contractFields("review");
  expect(review).toContain('- `verdict` (one of "pass" | "fail"; required)');
  expect(review).toContain('  - `severity` (one of "critical" | "high" | "medium" | "low" | "info"; optional)');
  expect(review).toContain("- `findings` (list of object; optional, default []");
  const plan = contractFields("plan");
  expect(plan).toContain("- `version` (always 2; required)");
  expect(plan).toContain('  - `mode` (one of "serial" | "parallel"; required)');
  expect(plan).toContain("    - `index` (integer ≥ 1; required)");
  expect(contractFields("done")).toContain("  - `cases` (integer ≥ 0; required)");
});

test("notes only describe fields the schemas still have", () => {
  for (const contract of Object.keys(CONTRACT_SCHEMAS) as ContractName[]) {
    const paths = new Set(contractFieldPaths(contract));
    for (const key of Object.keys(contractNotes(contract))) expect({ contract, key, exists: paths.has(key) }).toEqual({ contract, key, exists: true });
  }
});
