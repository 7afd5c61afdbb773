/**
 * Runs action.yml's composite steps the way the GitHub runner does, for the expressions the
 * action uses — and refuses any other expression, so a change to action.yml that this runner
 * would misread fails the test instead of passing it by accident:
 *   ${{ inputs.X }}  ${{ github.token | action_repository }}  ${{ steps.ID.outputs.X }}
 *   if: always() / A == 'v' / A != 'v' joined by &&   (no `if` = only after success)
 * `run` steps: `bash --noprofile --norc -eo pipefail <script>` with GITHUB_OUTPUT, GITHUB_PATH
 * and GITHUB_ACTION_PATH; `uses` steps are recorded with their evaluated `with`, not run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

type Step = {
  id?: string;
  name?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string | boolean>;
};
type ActionYml = { inputs: Record<string, { default?: string }>; outputs: Record<string, { value: string }>; runs: { steps: Step[] } };

export type StepResult = { name: string; ran: boolean; code: number; stdout: string; stderr: string; uses?: string; with?: Record<string, string> };
export type CompositeResult = { steps: StepResult[]; outputs: Record<string, string>; failed: boolean; byName: (name: string) => StepResult };

function readOutputs(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const out: Record<string, string> = {};
  const lines = readFileSync(file, "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(l);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      out[heredoc[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (l.includes("=")) out[l.slice(0, l.indexOf("="))] = l.slice(l.indexOf("=") + 1);
  }
  return out;
}

export async function runComposite(o: {
  actionPath: string;
  cwd: string;
  workDir: string;
  inputs: Record<string, string>;
  env: Record<string, string>;
  github: { token: string; action_repository: string };
}): Promise<CompositeResult> {
  const action: ActionYml = parse(readFileSync(join(o.actionPath, "action.yml"), "utf8"));
  const stepOutputs: Record<string, Record<string, string>> = {};
  let inputs: Record<string, string> = {};
  const lookup = (path: string): string => {
    const p = path.trim().split(".");
    if (p[0] === "inputs" && p.length === 2) {
      if (!(p[1]! in inputs)) throw new Error(`action.yml: unknown input ${path}`);
      return inputs[p[1]!]!;
    }
    if (p[0] === "github" && p.length === 2 && (p[1] === "token" || p[1] === "action_repository")) return o.github[p[1]];
    if (p[0] === "steps" && p[2] === "outputs" && p.length === 4) return stepOutputs[p[1]!]?.[p[3]!] ?? "";
    throw new Error(`the test's composite runner does not know the expression "${path}"`);
  };
  const interpolate = (s: string) => s.replace(/\$\{\{([^}]*)\}\}/g, (_m, e: string) => lookup(e));
  // input defaults are expressions too (github_token: ${{ github.token }})
  inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, o.inputs[k] ?? interpolate(v.default ?? "")]));
  const condition = (cond: string | undefined, failed: boolean): boolean => {
    if (!cond) return !failed;
    const terms = cond.split("&&").map((t) => t.trim());
    let always = false;
    const ok = terms.every((t) => {
      if (t === "always()") return (always = true);
      const m = /^(\S+)\s*(==|!=)\s*'([^']*)'$/.exec(t);
      if (!m) throw new Error(`the test's composite runner does not know the condition "${t}"`);
      return m[2] === "==" ? lookup(m[1]!) === m[3] : lookup(m[1]!) !== m[3];
    });
    return ok && (always || !failed);
  };

  mkdirSync(o.workDir, { recursive: true });
  const pathFile = join(o.workDir, "github-path");
  writeFileSync(pathFile, "");
  const steps: StepResult[] = [];
  let failed = false;
  for (const [i, step] of action.runs.steps.entries()) {
    const name = step.name ?? step.id ?? `step ${i + 1}`;
    if (!condition(step.if, failed)) {
      steps.push({ name, ran: false, code: 0, stdout: "", stderr: "" });
      continue;
    }
    if (step.uses) {
      const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
      steps.push({ name, ran: true, code: 0, stdout: "", stderr: "", uses: step.uses, with: w });
      continue;
    }
    const outputFile = join(o.workDir, `output-${i}`);
    writeFileSync(outputFile, "");
    const script = join(o.workDir, `step-${i}.sh`);
    writeFileSync(script, step.run ?? "");
    const added = readFileSync(pathFile, "utf8").split("\n").filter(Boolean).reverse();
    const env: Record<string, string> = {
      ...o.env,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, interpolate(v)])),
      PATH: [...added, o.env.PATH].join(":"),
      GITHUB_OUTPUT: outputFile,
      GITHUB_PATH: pathFile,
      GITHUB_ACTION_PATH: o.actionPath,
    };
    const p = Bun.spawn(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], { cwd: o.cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    if (step.id) stepOutputs[step.id] = readOutputs(outputFile);
    steps.push({ name, ran: true, code, stdout, stderr });
    if (code !== 0) failed = true;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, interpolate(v.value)]));
  return {
    steps,
    outputs,
    failed,
    byName: (n) => {
      const s = steps.find((x) => x.name === n);
      if (!s) throw new Error(`action.yml has no step "${n}"`);
      return s;
    },
  };
}
