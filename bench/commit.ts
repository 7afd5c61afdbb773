/**
 * Commit cost on a large repository: agentmux's approval path (changedFiles + commitChanges,
 * isomorphic-git staging and commit) against `git add -A && git commit` on an identical copy.
 * Usage: bun bench/commit.ts   — last line: {"bench":"commit","files":20000,...}
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { changedFiles } from "../src/effects/git/changes.ts";
import { commitChanges } from "../src/effects/git/commit.ts";

function sh(cwd: string, cmd: string): void {
  const p = Bun.spawnSync(["sh", "-c", cmd], { cwd, stdout: "ignore", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`${cmd}: ${p.stderr.toString()}`);
}

function makeRepo(dir: string, files: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < files; i++) {
    const sub = join(dir, `pkg${Math.floor(i / 100)}`, `m${i % 7}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `file${i}.ts`), `export const v${i} = ${i};\n// ${"x".repeat(i % 200)}\n`);
  }
  writeFileSync(join(dir, ".gitignore"), "node_modules/\n*.log\n");
  sh(
    dir,
    "git init -q -b main && git config user.name Bench && git config user.email bench@example.com && git config gc.auto 0 && git add -A && git commit -q -m initial && git repack -adq",
  );
}

function changeTen(dir: string, files: number): void {
  for (let k = 0; k < 10; k++) {
    const i = Math.floor((k * files) / 10);
    writeFileSync(join(dir, `pkg${Math.floor(i / 100)}`, `m${i % 7}`, `file${i}.ts`), `export const v${i} = ${i + 1}; // changed\n`);
  }
}

async function measure(files: number, runs: number) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "amx-bench-commit-")));
  try {
    const seed = join(base, "seed");
    makeRepo(seed, files);
    const agentmux: number[] = [];
    const cli: number[] = [];
    for (let r = 0; r < runs; r++) {
      const a = join(base, `a${r}`);
      const b = join(base, `b${r}`);
      sh(base, `cp -a seed a${r} && cp -a seed b${r}`);
      sh(a, "git status -s >/dev/null"); // both copies start from a refreshed, CLI-written index
      sh(b, "git status -s >/dev/null");
      changeTen(a, files);
      changeTen(b, files);
      let t = performance.now();
      const changes = await changedFiles(a);
      const result = await commitChanges(a, { branch: "main", message: "bench: change ten files", excludeFiles: [] });
      agentmux.push(performance.now() - t);
      if (changes.length !== 10 || result.files.length !== 10) throw new Error(`expected 10 changed files, got ${changes.length}/${result.files.length}`);
      t = performance.now();
      sh(b, "git add -A && git commit -q -m 'bench: change ten files'");
      cli.push(performance.now() - t);
      sh(a, 'test -z "$(git status --porcelain)"'); // agentmux's commit left a clean tree for the CLI
    }
    const med = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const agentmux_ms = Math.round(med(agentmux) * 10) / 10;
    const git_cli_ms = Math.round(med(cli) * 10) / 10;
    return { bench: "commit", files, agentmux_ms, git_cli_ms, ratio: Math.round((agentmux_ms / git_cli_ms) * 100) / 100, runs };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const engine = process.env.AGENTMUX_NO_GIT_CLI === "1" ? "isomorphic-git" : "git-cli-status";
console.log(JSON.stringify({ ...(await measure(1000, 5)), status_engine: engine }));
console.log(JSON.stringify({ ...(await measure(20000, 3)), status_engine: engine }));
