/**
 * Records a real CLI's screens for the adapter contract (test/fixtures/screens/<cli>/<version>/):
 * launched as agentmux launches it (the suite's harness, the mock model on loopback), then
 *   ready       idle at its empty input box
 *   busy        a prompt whose answer the mock holds back
 *   paste-long  80 lines pasted (the CLI's placeholder)
 *   paste       the contract's prompt pasted (bracketed), not yet submitted
 *   limit       that prompt submitted, the mock answering HTTP 429 for two minutes (claude and codex
 *               are told not to retry; a CLI that retries shows its error once it gives up); last,
 *               as its error line stays on the screen
 * Paths of the throwaway run are written as /home/u/repo and /home/u, as in the other fixtures.
 * Run it as an ordinary user, one CLI at a time, under the suite's lock:
 *   flock /work/notes/real-cli.lock runuser -u amx-real-cli -- env -i HOME=/home/amx-real-cli PATH=$PATH \
 *     REAL_CLI_PREFIX=/work/real-cli-prefix node_modules/.bin/bun test/real-cli/record-screens.ts claude /tmp/out
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileGate, snapshot } from "../../src/effects/tmux/screen.ts";
import { killTmuxServer, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { CLIS, findCli, type CliName } from "./clis.ts";
import { launchArchitect, prepareRun, type Run } from "./harness.ts";
import { HOLD_MARKER } from "./mock-turns.ts";

const PROMPT = 'Read and follow the instructions in "/home/u/repo/.agentmux/.sessions/s/02_architecting/architect_prompt.md"';
const [name, out] = process.argv.slice(2) as [CliName, string];
const cli = CLIS.find((c) => c.name === name);
const bin = cli && findCli(cli.name);
if (!cli || !bin || !out) throw new Error("usage: bun test/real-cli/record-screens.ts <cli> <out folder> (the CLI on PATH or in REAL_CLI_PREFIX/bin)");
const version = Bun.spawnSync([bin, "--version"], { env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } })
  .stdout.toString()
  .trim();

const run = await prepareRun(cli, bin, { limitFirstTurn: true, limitMs: 120_000, holdMs: 15_000 });
try {
  const pane = await launchArchitect(run, cli);
  const gate = compileGate(run.config.providers[cli.name]!.ready);
  const dir = join(out, cli.name);
  mkdirSync(dir, { recursive: true });
  const tmux = (...args: string[]) => run.tmux.run(args);
  const paste = async (text: string) => {
    await run.tmux.run(["set-buffer", "-b", "rec", text]);
    await run.tmux.run(["paste-buffer", "-p", "-d", "-b", "rec", "-t", pane]);
  };
  const idle = async () => {
    const s = await snapshot(run.tmux, pane);
    return (gate.ready?.test(s.screen) ?? true) && !gate.isBusy(s);
  };
  await waitFor("the ready screen", () => run.readyAtMs !== null, { timeoutMs: 120_000, intervalMs: 100 });
  await Bun.sleep(2000);
  await record(run, pane, dir, "ready", `${version} started and idle at its empty input box`, (s) => !!gate.ready?.test(s.screen));

  await paste(`${HOLD_MARKER} reply with one word`);
  await Bun.sleep(500);
  await tmux("send-keys", "-t", pane, "Enter");
  await Bun.sleep(2500);
  await record(run, pane, dir, "busy", `${version} working: the model's answer held back by the mock`, (s) => gate.isBusy(s));
  await waitFor("idle after the held answer", idle, { timeoutMs: 60_000, intervalMs: 200 });
  await Bun.sleep(1000);

  await paste(Array.from({ length: 80 }, (_, i) => `line ${i + 1} of a long prompt`).join("\n"));
  await record(run, pane, dir, "paste-long", `${version} with 80 lines pasted (bracketed), not yet submitted`, (s) => gate.paste.test(s.screen), 8000);
  await tmux("send-keys", "-t", pane, "Enter");
  await Bun.sleep(3000);
  await waitFor("idle after the long paste", idle, { timeoutMs: 60_000, intervalMs: 200 });
  await Bun.sleep(1000);

  await paste(PROMPT);
  await record(run, pane, dir, "paste", `${version} with the contract's one-line prompt pasted (bracketed), not yet submitted`, (s) =>
    s.screen.includes("Read and follow"),
  );
  await tmux("send-keys", "-t", pane, "Enter");
  const limits = run.config.providers[cli.name]!.limits.map((l) => new RegExp(l, "m"));
  await record(
    run,
    pane,
    dir,
    "limit",
    `${version} after the mock model answered that prompt HTTP 429 (told not to retry)`,
    (s) => limits.some((l) => l.test(s.screen)),
    150_000,
  ).catch((e) => console.log(`no limit screen: ${(e as Error).message}`));
} finally {
  run.stopMonitor();
  await run.runtime.kill("architect").catch(() => {});
  run.mcp.stop();
  killTmuxServer(run.socket);
  run.mock.stop();
  removeDir(run.root);
}

/** The pane once `ok` holds (or its last screen after `ms`), with the run's paths made generic. */
async function record(run: Run, pane: string, dir: string, file: string, what: string, ok: (s: { title: string; screen: string }) => boolean, ms = 30_000) {
  const generic = (t: string) => t.replaceAll(run.repo, "/home/u/repo").replaceAll(run.home, "/home/u").replaceAll(run.root, "/home/u/run");
  let last = { title: "", screen: "" };
  await waitFor(
    `the ${file} screen`,
    async () => {
      const s = await snapshot(run.tmux, pane);
      last = { title: s.title, screen: s.screen };
      return ok(last);
    },
    { timeoutMs: ms, intervalMs: 100 },
  ).catch(() => console.log(`${file}: the expected screen did not show within ${ms} ms; kept its last screen`));
  const screen = generic(last.screen).replace(/ +$/gm, "").replace(/\n+$/, "");
  writeFileSync(join(dir, `${file}.txt`), `# ${name} ${what}, recorded in tmux by test/real-cli/record-screens.ts\ntitle: ${generic(last.title)}\n${screen}\n`);
  console.log(`recorded ${file}`);
}
