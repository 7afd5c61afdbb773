import { expect, test } from "bun:test";
import { BINARY, scratch } from "../helpers/tmp.ts";

/** `agentmux issue <ref>`: a reference that is no issue is a usage error whatever state gh is in. */
function issue(cwd: string, path: string, ...args: string[]) {
  const p = Bun.spawnSync([BINARY, "issue", ...args], {
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, PATH: path, NO_COLOR: "1" },
  });
  return { code: p.exitCode, err: p.stderr.toString() };
}

test("a reference that is no issue is named (exit 2) before gh is looked for, so a missing gh does not hide the typo", () => {
  using s = scratch();
  const repo = s.dir("amx-issue-args-");
  Bun.spawnSync(["git", "init", "-q", repo]);
  const noGh = s.dir("amx-issue-nogh-"); // a PATH without gh
  for (const ref of ["abc", "12x", "https://github.com/o/r/pull/3"]) {
    const r = issue(repo, noGh, ref);
    expect({ ref, code: r.code }).toEqual({ ref, code: 2 });
    expect(r.err).toContain(`"${ref}" is not an issue reference`);
    expect(r.err).not.toContain("gh is not installed");
  }
  // a good reference still gets as far as gh
  const good = issue(repo, noGh, "#12");
  expect(good.code).toBe(1);
  expect(good.err).toContain("gh");
});

test("gh missing and gh not logged in are told apart, each with its own fix", () => {
  using s = scratch();
  const repo = s.dir("amx-issue-args-");
  Bun.spawnSync(["git", "init", "-q", repo]);
  const missing = issue(repo, s.dir("amx-issue-nogh-"), "12");
  expect(missing.code).toBe(1);
  expect(missing.err).toContain("gh (GitHub's CLI) is not on PATH");
  expect(missing.err).toContain("https://cli.github.com");

  const bin = s.dir("amx-issue-gh-");
  const gh = `#!/bin/sh\ncase "$1 $2" in\n  "--version ") echo "gh version 2.40.0";;\n  "auth status") echo "You are not logged into any GitHub hosts. To log in, run: gh auth login" >&2; exit 1;;\n  *) exit 1;;\nesac\n`;
  require("node:fs").writeFileSync(`${bin}/gh`, gh, { mode: 0o755 });
  const loggedOut = issue(repo, bin, "12");
  expect(loggedOut.code).toBe(1);
  expect(loggedOut.err).toContain("gh is not logged in: You are not logged into any GitHub hosts.");
  expect(loggedOut.err).toContain("gh auth login");
  expect(loggedOut.err).not.toContain("not installed");
});
