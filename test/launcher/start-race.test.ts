import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { prepareCheckout } from "../../src/launcher/checkout.ts";
import { acquireCheckout } from "../../src/session/checkout-lock.ts";
import { createSessionDir } from "../../src/session/create.ts";
import { F } from "../../src/protocol/paths.ts";
import { gitCli, makeRepo } from "../git/fixture.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { timeoutFor, trialCount } from "../helpers/trials.ts";

/**
 * #31.3: runs started together chose their branch name and their port offset before any lock,
 * so two of them took the same branch (one run's files went into the other's commit) and two
 * worktree runs 117 ms apart got the same AGENTMUX_PORT_OFFSET. Three runs of one request start
 * at once (one in place, holding the checkout, two in worktrees), over several trials.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

// AGENTMUX_TEST_TRIALS=20 runs more by hand (test/helpers/trials.ts)
const TRIALS = trialCount(4);

test(
  `three runs of one request started together: three branches, three port offsets (${TRIALS} trials)`,
  async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const base = makeTmpDir("amx-start-race-");
      dirs.push(base);
      const repo = await makeRepo({ "a.txt": "a\n" }, base);
      const { config } = loadConfig({ projectDir: repo });
      // one second apart: different folders, one feature name (and so one wanted branch)
      const sessions = [0, 1, 2].map((i) =>
        createSessionDir({ projectDir: repo, request: "Add rate limiting", productManager: false, now: new Date(Date.now() - (3 - i) * 1000) }),
      );
      expect(new Set(sessions.map((s) => s.state.feature_name)).size).toBe(1);
      expect(acquireCheckout(repo, sessions[0]!.dir)).toEqual({ ok: true });
      const said: string[] = [];
      const states = await Promise.all(
        sessions.map((s, i) => prepareCheckout({ projectDir: repo, sessionDir: s.dir, state: s.state, config, worktree: i > 0, out: (l) => said.push(l) })),
      );
      const branches = states.map((s) => s.feature_branch);
      expect(new Set(branches).size).toBe(3);
      expect(new Set(states.map((s) => s.port_offset)).size).toBe(3);
      // what each session recorded is what it got
      for (const [i, s] of sessions.entries()) {
        const recorded = JSON.parse(readFileSync(join(s.dir, F.state), "utf8"));
        expect(recorded.port_offset).toBe(states[i]!.port_offset);
      }
      expect(gitCli(repo, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe(states[0]!.feature_branch!);
      for (const s of states.slice(1)) expect(gitCli(s.worktree_path!, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe(s.feature_branch!);
      gitCli(repo, "fsck", "--strict");
    }
  },
  timeoutFor(TRIALS, 30_000, 120_000),
);

test(
  `two worktree runs of different requests started together get different port offsets (${TRIALS} trials)`,
  async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const base = makeTmpDir("amx-port-race-");
      dirs.push(base);
      const repo = await makeRepo({ "a.txt": "a\n" }, base);
      const { config } = loadConfig({ projectDir: repo });
      const sessions = ["Add alpha", "Add beta"].map((request) => createSessionDir({ projectDir: repo, request, productManager: false }));
      const states = await Promise.all(
        sessions.map((s) => prepareCheckout({ projectDir: repo, sessionDir: s.dir, state: s.state, config, worktree: true, out: () => {} })),
      );
      expect(states.map((s) => s.port_offset).sort()).toEqual([10, 20]);
    }
  },
  timeoutFor(TRIALS, 15_000, 60_000),
);
