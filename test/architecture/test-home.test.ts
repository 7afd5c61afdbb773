import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedHome } from "../../scripts/test-home.ts";
import { makeTmpDir } from "../helpers/tmp.ts";

test("the suite's HOME is its own: XDG folders inside it, the git identity carried over, nothing else of the user's", () => {
  const user = makeTmpDir("amx-user-home-");
  Bun.spawnSync(["git", "config", "--global", "user.name", "Ada Tester"], { env: { ...process.env, HOME: user } });
  Bun.spawnSync(["git", "config", "--global", "user.email", "ada@example.invalid"], { env: { ...process.env, HOME: user } });
  using home = isolatedHome({ PATH: process.env.PATH, HOME: user, XDG_CONFIG_HOME: join(user, ".config") });
  expect(home.env.HOME).toBe(home.dir);
  expect(home.dir).not.toBe(user);
  expect(home.env.XDG_CONFIG_HOME).toBe(join(home.dir, ".config"));
  expect(existsSync(home.env.XDG_STATE_HOME!)).toBe(true);
  const name = Bun.spawnSync(["git", "config", "--global", "user.name"], { env: home.env }).stdout.toString().trim();
  expect(name).toBe("Ada Tester");
  expect(readFileSync(join(home.dir, ".gitconfig"), "utf8")).not.toContain(user);
});

test("without a git identity the suite's HOME gets a test one (commits in tests need it)", () => {
  const user = makeTmpDir("amx-user-home-");
  using home = isolatedHome({ PATH: process.env.PATH, HOME: user });
  expect(Bun.spawnSync(["git", "config", "--global", "user.email"], { env: home.env }).stdout.toString().trim()).toBe("tests@agentmux.invalid");
});

test("npm test runs in such a HOME: this very process's HOME is not the developer's", () => {
  if (!process.env.AGENTMUX_TEST_HOME) return; // started by hand with bun test, not through scripts/test.ts
  expect(process.env.HOME).toBe(process.env.AGENTMUX_TEST_HOME);
  expect(process.env.XDG_CONFIG_HOME).toStartWith(process.env.AGENTMUX_TEST_HOME);
});
