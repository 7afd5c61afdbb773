import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, makeTmpDir, REPO_ROOT, removeDir } from "../helpers/tmp.ts";
import { COMMANDS } from "../../src/cli/commands.ts";
import { SIM_SWITCH_NAMES } from "../../src/schema/sim-switch-names.ts";
import { SimScenario } from "../../src/schema/sim-scenario.ts";

const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
const MAIN = join(REPO_ROOT, "src", "main.ts");
const VISIBLE = Object.values(COMMANDS)
  .filter((c) => !c.spec.hidden)
  .map((c) => c.spec.name);

function cli(args: string[], bin: string[] = [BUN, MAIN]) {
  const p = Bun.spawnSync([...bin, ...args], { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let root = "";
let bashFile = "";
let scripts: Record<string, string> = {};
let binDir = "";

/** Runs the completion function the way bash does on TAB: COMP_WORDS/COMP_CWORD set, COMPREPLY read back. */
function complete(words: string[], cwd = root, env?: Record<string, string>): string[] {
  const src = [
    `source ${shq(bashFile)}`,
    `COMP_WORDS=(${words.map(shq).join(" ")})`,
    `COMP_CWORD=${words.length - 1}`,
    `COMP_LINE=${shq(words.join(" "))}`,
    "_agentmux",
    `printf '%s\\n' "\${COMPREPLY[@]}"`,
  ].join("\n");
  const p = Bun.spawnSync(["bash", "--norc", "--noprofile", "-c", src], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  if (p.exitCode !== 0) throw new Error(`bash failed: ${p.stderr}`);
  return p.stdout.toString().split("\n").filter(Boolean).sort();
}

beforeAll(() => {
  root = makeTmpDir("amx-completions-");
  for (const shell of ["bash", "zsh", "fish"]) {
    const r = cli(["completions", shell]);
    if (r.code !== 0) throw new Error(`completions ${shell} failed: ${r.err}`);
    scripts[shell] = r.out;
  }
  bashFile = join(root, "agentmux.bash");
  writeFileSync(bashFile, scripts.bash!);
  // A project with two sessions (and a stray file that is not a session), used from a subfolder.
  for (const s of ["20250101-100000-alpha", "20250102-100000-beta"]) mkdirSync(join(root, "project", ".agentmux", ".sessions", s), { recursive: true });
  writeFileSync(join(root, "project", ".agentmux", ".sessions", "notes.txt"), "x");
  mkdirSync(join(root, "project", "src", "deep"), { recursive: true });
  writeFileSync(join(root, "project", "src", "deep", "request.md"), "# request\n");
  mkdirSync(join(root, "elsewhere"));
  writeFileSync(join(root, "project", ".agentmux", "config.yaml"), "version: 2\nproviders:\n  my-cli:\n    command: my-cli\n");
  // `agentmux` on PATH for the dynamic values: this checkout, run from source
  binDir = join(root, "bin");
  mkdirSync(binDir);
  writeFileSync(join(binDir, "agentmux"), `#!/bin/sh\nexec ${shq(BUN)} ${shq(MAIN)} "$@"\n`, { mode: 0o755 });
});

afterAll(() => removeDir(root));

describe("agentmux completions bash", () => {
  test("defines _agentmux and registers it for agentmux", () => {
    const p = Bun.spawnSync(["bash", "--norc", "-c", `source ${shq(bashFile)}; declare -F _agentmux; complete -p agentmux`], {
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(p.exitCode).toBe(0);
    expect(p.stdout.toString()).toBe("_agentmux\ncomplete -F _agentmux agentmux\n");
  });

  test("completes command names from the command table", () => {
    expect(complete(["agentmux", "sta"])).toEqual(["status"]);
    expect(complete(["agentmux", "comp"])).toEqual(["completions"]);
    expect(complete(["agentmux", ""])).toEqual([...VISIBLE].sort());
    expect(complete(["agentmux", ""])).not.toContain("mcp-server"); // hidden commands stay hidden
    expect(complete(["agentmux", "--v"])).toEqual(["--version"]);
  });

  test("every visible command completes every flag of its spec (not only the global ones)", () => {
    for (const c of Object.values(COMMANDS).filter((c) => !c.spec.hidden)) {
      const expected = [
        ...Object.entries(c.spec.flags)
          .filter(([, f]) => !f.hidden)
          .map(([n]) => `--${n}`),
        "--help",
      ].sort();
      expect(complete(["agentmux", c.spec.name, "--"])).toEqual(expected);
    }
    expect(complete(["agentmux", "status", "--"])).toEqual(["--help", "--json", "--log", "--watch"]);
    expect(complete(["agentmux", "run", "--w"])).toEqual(["--worktree"]);
    expect(complete(["agentmux", "clean", "-"])).toEqual(["--force", "--help", "-f", "-h"]);
    expect(complete(["agentmux", "completions", "--"])).toEqual(["--help"]); // --list is internal
  });

  test("flag values come from the catalog: roles, artifact kinds, and the project's providers", () => {
    expect(complete(["agentmux", "configure", "--role", "rev"])).toEqual(["reviewer_expert", "reviewer_logic", "reviewer_quality"]);
    expect(complete(["agentmux", "validate", "x.yaml", "--kind", "pl"])).toEqual(["plan"]);
    expect(complete(["agentmux", "validate", "-k", "ex"])).toEqual(["execution_plan"]);
    expect(complete(["agentmux", "validate", "--kind", "=", "rev"])).toEqual(["review"]); // --kind=rev
    // providers: asked from `agentmux completions --list providers` on PATH, in the project's folder
    const providers = complete(["agentmux", "configure", "--provider", ""], join(root, "project"), { PATH: `${binDir}:${process.env.PATH}` });
    expect(providers).toContain("claude");
    expect(providers).toContain("my-cli"); // defined in the project's config
    expect(providers).toContain("default");
  });

  test("--config completes file names; a value flag like --name completes nothing", () => {
    const dir = join(root, "project", "src", "deep");
    expect(complete(["agentmux", "run", "--config", "req"], dir)).toEqual(["request.md"]);
    expect(complete(["agentmux", "run", "--name", "req"], dir)).toEqual([]);
  });

  test("session ids of the nearest project for status, resume, attach and clean", () => {
    const deep = join(root, "project", "src", "deep");
    for (const cmd of ["status", "resume", "attach", "clean"]) {
      expect(complete(["agentmux", cmd, ""], deep)).toEqual(["20250101-100000-alpha", "20250102-100000-beta"]);
    }
    expect(complete(["agentmux", "attach", "20250102"], deep)).toEqual(["20250102-100000-beta"]);
    expect(complete(["agentmux", "status", ""], join(root, "elsewhere"))).toEqual([]);
    expect(complete(["agentmux", "sessions", ""], deep)).toEqual([]); // sessions takes no session id
  });

  test("each positional argument completes from its own place: config migrate <file>, preferences approve <id>, status <one session>", () => {
    const deep = join(root, "project", "src", "deep");
    expect(complete(["agentmux", "config", ""], deep)).toEqual(["migrate"]);
    expect(complete(["agentmux", "config", "migrate", "req"], deep)).toEqual(["request.md"]);
    expect(complete(["agentmux", "config", "migrate", "--write", "req"], deep)).toEqual(["request.md"]);
    expect(complete(["agentmux", "config", "--config", "request.md", ""], deep)).toEqual(["migrate"]); // a flag's value is no argument
    expect(complete(["agentmux", "config", "--config", "=", "request.md", ""], deep)).toEqual(["migrate"]); // --config=request.md
    expect(complete(["agentmux", "preferences", ""])).toEqual(["approve", "list", "reject"]);
    expect(complete(["agentmux", "preferences", "approve", ""])).toEqual([]); // proposal ids: free text
    expect(complete(["agentmux", "preferences", "approve", "p1", ""])).toEqual([]);
    expect(complete(["agentmux", "status", "20250101-100000-alpha", ""], deep)).toEqual([]); // one session only
    expect(complete(["agentmux", "clean", "20250101-100000-alpha", ""], deep)).toEqual(["20250101-100000-alpha", "20250102-100000-beta"]); // several
    expect(complete(["agentmux", "completions", "bash", ""])).toEqual([]);
  });

  test("help completes the command it explains", () => {
    expect(complete(["agentmux", "help", "st"])).toEqual(["status"]);
    expect(complete(["agentmux", "help", ""])).toEqual([...VISIBLE].sort());
    expect(complete(["agentmux", "help", "status", ""])).toEqual([]);
  });

  test("demo --scenario completes the simulated agent's switch names (the first of a list)", () => {
    expect(complete(["agentmux", "demo", "--scenario", "review_fail"])).toEqual(["review_fail_always", "review_fail_once"]);
    expect(complete(["agentmux", "demo", "--scenario", ""])).toEqual([...SIM_SWITCH_NAMES].sort());
  });

  test("completions completes the shell names", () => {
    expect(complete(["agentmux", "completions", ""])).toEqual(["bash", "fish", "zsh"]);
    expect(complete(["agentmux", "completions", "z"])).toEqual(["zsh"]);
  });
});

describe("agentmux completions zsh / fish", () => {
  test("scripts are non-empty and mention every visible command and no hidden one", () => {
    for (const shell of ["zsh", "fish"]) {
      const s = scripts[shell]!;
      expect(s.length).toBeGreaterThan(500);
      for (const name of VISIBLE) expect(s).toMatch(new RegExp(`(^|[\\s'])${name}[):\\s]`, "m"));
      expect(s).not.toContain("mcp-server");
    }
    expect(scripts.zsh!.startsWith("#compdef agentmux\n")).toBe(true);
    expect(scripts.zsh).toContain("'--worktree[work in a separate git worktree next to the repository]'");
    expect(scripts.zsh).toContain("'1:session:_agentmux_sessions'");
    expect(scripts.zsh).toContain("'*:session:_agentmux_sessions'"); // clean takes several
    expect(scripts.zsh).toContain("'--kind[the artifact kind]:kind:(plan execution_plan review");
    expect(scripts.zsh).toContain("{_agentmux_list providers default}");
    expect(scripts.fish).toContain("complete -c agentmux -n '__fish_seen_subcommand_from run' -l worktree");
    expect(scripts.fish).toContain("complete -c agentmux -n '__fish_seen_subcommand_from configure' -l role -x -a 'product-manager architect");
    expect(scripts.fish).toContain("-l provider -x -a '(agentmux completions --list providers 2>/dev/null) default'");
    expect(scripts.fish).toContain("-a '(__agentmux_sessions)'");
  });
});

describe("sim switch names", () => {
  test("are the simulated agent's scenario switches, in the schema's order", () => {
    expect(Object.keys(SimScenario.shape)).toEqual([...SIM_SWITCH_NAMES]);
  });
});

describe("agentmux completions usage", () => {
  test("an unknown or missing shell is a usage error (exit 2) naming the valid shells", () => {
    const bad = cli(["completions", "tcsh"]);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe("");
    expect(bad.err).toContain('unknown shell "tcsh"; valid shells: bash, zsh, fish');
    const none = cli(["completions"]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("bash, zsh, fish");
    const help = cli(["completions", "--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("Usage: agentmux completions <bash|zsh|fish>");
  });

  test.skipIf(!existsSync(BINARY))("the compiled binary prints the same flags (modules load inside the bundle)", () => {
    const r = cli(["completions", "bash"], [BINARY]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("complete -F _agentmux agentmux");
    expect(r.out).toContain("--keep-session");
  });
});
