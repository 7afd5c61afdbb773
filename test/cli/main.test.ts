import { expect, test } from "bun:test";
import { BINARY } from "../helpers/tmp.ts";

const run = (...args: string[]) => {
  const p = Bun.spawnSync([BINARY, ...args], { stdout: "pipe", stderr: "pipe", stdin: "ignore", env: { ...process.env, NO_COLOR: "1" } });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

test("--version and -V print the version", () => {
  for (const flag of ["--version", "-V"]) {
    const r = run(flag);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^agentmux \d+\.\d+\.\d+\n$/);
  }
});

test("--help lists every visible command and hides the internal ones", () => {
  const r = run("--help");
  expect(r.code).toBe(0);
  for (const c of ["run", "demo", "status", "sessions", "resume", "attach", "clean", "validate", "config", "doctor", "issue"])
    expect(r.out).toMatch(new RegExp(`^  ${c}\\s`, "m"));
  for (const hidden of ["orchestrate", "mcp-server", "sim-agent", "monitor", "panel"]) expect(r.out).not.toMatch(new RegExp(`^  ${hidden}\\s`, "m"));
});

test("an unknown command gives usage and exit 2", () => {
  const r = run("frobnicate");
  expect(r.code).toBe(2);
  expect(r.err).toContain('unknown command "frobnicate"');
  expect(r.err).toContain("agentmux --help");
});

test("an unknown option gives usage and exit 2, naming the option", () => {
  const r = run("status", "--frob");
  expect(r.code).toBe(2);
  expect(r.err).toContain("unknown option --frob");
  const top = run("--frob");
  expect(top.code).toBe(2);
  expect(top.err).toContain("unknown option --frob");
  // a run's own option without a request: the request is what is missing, not the option
  for (const argv of [["--ci"], ["--ci", "--json"], ["--name", "x"], ["--keep-session"]]) {
    const r = run(...argv);
    expect({ argv, code: r.code }).toEqual({ argv, code: 2 });
    expect(r.err).toContain("run: a request is required");
    expect(r.err).not.toContain("unknown option");
  }
});

test("without a terminal, no arguments prints help instead of opening the home screen", () => {
  const r = run();
  expect(r.code).toBe(0);
  expect(r.out).toContain("Usage:");
});

test("run without a request is a usage error", () => {
  const r = run("run");
  expect(r.code).toBe(2);
  expect(r.err).toContain("a request is required");
});
