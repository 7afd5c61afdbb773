/**
 * #28: a planner used to the Python agentmux's contract writes review_strategy with focus areas
 * (`focus: [security, testing]`); submit_plan accepts it and the reviewers' prompts show it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const sockets: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => sockets.forEach(killTmuxServer));

test("review_strategy.focus reaches plan.md and every reviewer's prompt", async () => {
  const socket = privateSocket();
  sockets.push(socket);
  const root = makeTmpDir();
  const repo = join(root, "repo");
  expect((await runBinary(bin, ["demo", "--ci", "--dir", repo], { socket })).code).toBe(0);
  writeFileSync(join(root, "sim.yaml"), stringify({ sim: { scenario: ["review_focus", "reviewers=logic+expert"] } }));
  const r = await runBinary(bin, ["run", "--ci", "--keep-session", "--config", join(root, "sim.yaml"), "Add a token check"], { cwd: repo, socket });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const sessions = join(repo, ".agentmux", ".sessions");
  const dir = join(
    sessions,
    readdirSync(sessions).find((d) => d.includes("token-check"))!,
  );
  expect(readFileSync(join(dir, "04_planning/plan.yaml"), "utf8")).toContain("focus:");
  expect(readFileSync(join(dir, "04_planning/plan.md"), "utf8")).toContain("## Review focus\n\nSeverity: medium.\nLook hardest at: security, testing.\n");
  for (const short of ["logic", "expert"]) {
    const prompt = readFileSync(join(dir, `07_review/review_${short}_prompt.md`), "utf8");
    expect(prompt).toContain("Look hardest at: security, testing.");
    expect(prompt).toContain('If the plan has a "Review focus" section, look hardest at the areas it names.');
  }
}, 180_000);
