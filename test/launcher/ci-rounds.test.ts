import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { followCiRounds } from "../../src/launcher/ci-rounds.ts";
import { Config } from "../../src/schema/config.ts";
import { writeFakeGh } from "../git/fake-gh.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

/** followCiRounds' ends that start no fix round: no checks, timed out, push off (a fake gh, a real repository). */
const dir = makeTmpDir("amx-ci-rounds-");
afterAll(() => removeDir(dir));
const repo = join(dir, "repo");
mkdirSync(repo);
Bun.spawnSync(["git", "init", "-q", "-b", "main"], { cwd: repo });
Bun.spawnSync(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "x"], { cwd: repo });

function setup(name: string, answers: string[]) {
  const root = join(dir, name);
  const gh = writeFakeGh(root);
  mkdirSync(join(root, "answers"));
  answers.forEach((a, i) => writeFileSync(join(root, "answers", `${i + 1}.json`), a));
  gh.env.FAKE_GH_PR_CHECKS_DIR = join(root, "answers");
  const lines: string[] = [];
  let t = 0;
  const input = {
    projectDir: repo,
    prUrl: "https://github.com/acme/app/pull/7",
    branch: "feature/x",
    out: (l: string) => void lines.push(l),
    gh: gh.run,
    startRound: () => Promise.reject(new Error("no fix round may start")),
    sleep: async (ms: number) => void (t += ms),
    now: () => t,
  };
  return { gh, lines, input };
}
const github = (over: object = {}) => Config.parse({ github: { ci_poll_s: 30, ci_timeout_s: 600, ...over } }).github;
const pending = JSON.stringify([{ name: "test", state: "IN_PROGRESS", bucket: "pending", link: "https://github.com/acme/app/actions/runs/1/job/2" }]);

test("no checks after the grace period: said, exit 0, no reply", async () => {
  const { gh, lines, input } = setup("none", [""]);
  expect(await followCiRounds({ ...input, github: github() })).toBe(0);
  expect(lines.at(-1)).toBe("agentmux: the pull request reports no CI checks: nothing to follow");
  expect(gh.prComments()).toEqual([]);
});

test("CI that never settles: timed out, exit 1, a reply with the pending job", async () => {
  const { gh, lines, input } = setup("slow", [pending]);
  expect(await followCiRounds({ ...input, github: github() })).toBe(1);
  expect(lines.at(-1)).toBe("agentmux: CI did not finish within 600 s; stopped following it");
  expect(gh.prComments()).toEqual([
    expect.stringContaining(
      "CI did not finish within 10 minutes; agentmux stopped following it.\n\n- [test](https://github.com/acme/app/actions/runs/1/job/2): IN\\_PROGRESS",
    ),
  ]);
});

test("green at once: exit 0 without a reply; github.push false: not followed at all", async () => {
  const green = setup("green", [JSON.stringify([{ name: "test", bucket: "pass", state: "SUCCESS" }])]);
  expect(await followCiRounds({ ...green.input, github: github() })).toBe(0);
  expect(green.lines.at(-1)).toBe("agentmux: CI is green");
  expect(green.gh.prComments()).toEqual([]);
  const off = setup("off", [pending]);
  expect(await followCiRounds({ ...off.input, github: github({ push: false }) })).toBe(0);
  expect(off.gh.calls()).toEqual([]);
});
