/**
 * Opt-in: each real CLI with `sandbox: true` (every agent under bubblewrap, src/sandbox/bwrap.ts)
 * runs a whole headless pipeline against the scripted mock model and reaches a commit: it starts
 * and gets to its ready screen in the sandbox, reaches the run's MCP endpoint on loopback, writes
 * in its work folder, its own turn-end hook appends to the session's turn-end file (hidden
 * `.runtime`, shown to it alone), its usage records land where agentmux reads them (its
 * `sandbox_home`), and a model that submits gets zero reminders.
 *
 *   sudo bash scripts/real-cli-as-user.sh test/real-cli/sandbox.test.ts -t claude
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { availability, ENABLED } from "./available.ts";
import { CLIS } from "./clis.ts";
import { git, runPipeline, summary } from "./pipeline-run.ts";
import { sandboxAvailability } from "../../src/sandbox/available.ts";
import { runProcess } from "../../src/effects/process/run.ts";
import { findOnPath } from "../../src/providers/doctor.ts";
import { adapterFor } from "../../src/providers/adapters/registry.ts";

const RUN_MS = Number(process.env.REAL_CLI_RUN_S ?? 420) * 1000;

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.reverse()) c();
  cleanup = [];
});

const bwrap = ENABLED ? await sandboxAvailability({ bwrap: findOnPath("bwrap", process.env.PATH ?? ""), exec: runProcess }) : null;
if (bwrap && !bwrap.ok) console.log(`[real-cli] sandbox: skipped: ${bwrap.reason}`);

for (const cli of CLIS) {
  const { bin } = availability(cli);
  describe.skipIf(!bin || !bwrap?.ok)(`real ${cli.name} in the sandbox`, () => {
    test(
      `${cli.name}: with sandbox: true every agent runs under bubblewrap and the run reaches a commit with zero reminders (#31.2)`,
      async () => {
        const r = await runPipeline({ default: { cli, bin: bin! } }, { work: true }, `${cli.name}-sandbox`, RUN_MS, { sandbox: true });
        cleanup.push(r.cleanup);
        console.log(summary(`${cli.name} (sandbox)`, r));
        expect(r.code, r.why).toBe(0);
        // every launch ran its CLI through bwrap
        const launches = r.log.split("\n").filter((l) => / launched \S+ \(/.test(l));
        expect(launches.length, r.why).toBeGreaterThanOrEqual(4);
        for (const l of launches) expect(l, r.why).toMatch(/: \S*bwrap --die-with-parent /);
        for (const t of ["submit_architecture", "submit_plan", "submit_done", "submit_review"]) expect(r.tools, r.why).toContain(t);
        // the coder's files, written by the CLI's own file tool inside its sandbox, are the commit
        const branch = r.events.findLast((e) => e.branch)?.branch ?? git(r.repo, "branch", "--show-current");
        expect(git(r.repo, "show", "--name-only", "--format=", branch).split("\n"), r.why).toEqual(
          expect.arrayContaining(["src/greeting.js", "test/greeting.test.js"]),
        );
        expect(r.reminders, r.why).toEqual({ logged: 0, seen: 0 });
        // the CLI's own turn-end hook wrote through the sandbox to the session's hidden .runtime
        if (adapterFor(cli.name)?.turnEndHook) expect(r.turnEnds.signals, r.why).toBeGreaterThan(0);
        // its usage records are where agentmux reads them: the state has figures per conversation
        const state = JSON.parse(readFileSync(join(r.sessionDir, "state.json"), "utf8")) as { usage?: Record<string, { output: number }> };
        const out = Object.values(state.usage ?? {}).reduce((n, u) => n + u.output, 0);
        expect({ conversations: Object.keys(state.usage ?? {}).length > 0, output: out > 0 }, `${JSON.stringify(state.usage)}\n${r.why}`).toEqual({
          conversations: true,
          output: true,
        });
        expect(existsSync(join(r.sessionDir, ".runtime"))).toBe(true);
      },
      RUN_MS + 60_000,
    );
  });
}
