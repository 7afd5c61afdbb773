import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveAuthor } from "../../src/effects/git/author.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const root = makeTmpDir("amx-author-");
afterAll(() => removeDir(root));

function git(cwd: string, ...args: string[]) {
  const r = Bun.spawnSync(["git", ...args], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: root, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString().trim();
}

test("the commit author honours GIT_CONFIG_GLOBAL as git does: that file instead of ~/.gitconfig and the XDG file (#12.13)", async () => {
  const repo = join(root, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q");
  const home = join(root, "home");
  mkdirSync(join(home, ".config/git"), { recursive: true });
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Home Person\n\temail = home@example.com\n");
  writeFileSync(join(home, ".config/git/config"), "[user]\n\tname = Xdg Person\n");
  const global = join(root, "ci.gitconfig");
  writeFileSync(global, "[user]\n\tname = CI Bot\n\temail = ci@example.com\n");
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, ".config") };
  expect(await resolveAuthor(repo, env)).toEqual({ name: "Home Person", email: "home@example.com" });
  expect(await resolveAuthor(repo, { ...env, GIT_CONFIG_GLOBAL: global })).toEqual({ name: "CI Bot", email: "ci@example.com" });
  // git agrees
  const cli = Bun.spawnSync(["git", "var", "GIT_AUTHOR_IDENT"], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? "", ...env, GIT_CONFIG_GLOBAL: global, GIT_CONFIG_NOSYSTEM: "1" },
  }).stdout.toString();
  expect(cli).toStartWith("CI Bot <ci@example.com>");
  const err = await resolveAuthor(repo, { ...env, GIT_CONFIG_GLOBAL: "/dev/null" }).catch((e) => e);
  expect(err.message).toBe("no commit author: user.name and user.email is not set in the repository or GIT_CONFIG_GLOBAL (/dev/null)");
});
