import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { removeDir } from "../helpers/tmp.ts";
import { isolatedBinary, killTmuxServer, makeTmpDir, privateSocket, runBinary } from "./harness.ts";

let bin: string;
const socket = privateSocket();
const dirs: string[] = [];
beforeAll(() => {
  bin = isolatedBinary();
});
afterAll(() => {
  killTmuxServer(socket);
  dirs.forEach(removeDir);
});

/** Every process's command line and environment that hold `needle` right now. */
function scan(needle: string): { argv: string[]; environ: string[] } {
  const out = { argv: [] as string[], environ: [] as string[] };
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmd.includes(needle)) out.argv.push(`${pid}: ${cmd.replace(/\0/g, " ").slice(0, 300)}`);
      if (readFileSync(`/proc/${pid}/environ`, "utf8").includes(needle)) out.environ.push(pid);
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

/**
 * #18.13: secrets in providers.<name>.env reach the agent's environment but never any
 * process's argv (ps shows argv to every user). The whole run is watched: every process's
 * /proc/<pid>/cmdline is read continuously until it ends.
 */
test("provider env secrets reach the agents' environment and never a command line", async () => {
  const root = makeTmpDir("amx-secret-");
  dirs.push(root);
  const secret = `amx-secret-${crypto.randomUUID()}`;
  writeFileSync(join(root, "extra.yaml"), stringify({ providers: { sim: { env: { AMX_TEST_TOKEN: secret } } } }));
  const seenInArgv = new Set<string>();
  const seenInEnv = new Set<string>();
  let running = true;
  const watch = (async () => {
    while (running) {
      const s = scan(secret);
      s.argv.forEach((a) => seenInArgv.add(a));
      s.environ.forEach((p) => seenInEnv.add(p));
      await Bun.sleep(2);
    }
  })();
  const r = await runBinary(bin, ["demo", "--ci", "--dir", join(root, "repo"), "--config", join(root, "extra.yaml")], { socket });
  running = false;
  await watch;
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  expect([...seenInArgv]).toEqual([]);
  expect(seenInEnv.size).toBeGreaterThan(0); // the agents did get it
  expect(r.stdout + r.stderr).not.toContain(secret);
}, 240_000);
