/**
 * The web page's server (`agentmux serve`, the compiled binary) on a project with many sessions:
 * how long a change of a run's state.json takes to reach a browser's event stream, how long the
 * list of runs takes, and the server's memory.
 *   bun build.ts && bun bench/web.ts            (WEB_SESSIONS=40, WEB_ROUNDS=30)
 * Last line: {"bench":"web","sessions":…,"update_p50_ms":…,"update_p95_ms":…,"list_ms":…,"serve_rss_mb":…}
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeJsonAtomic } from "../src/effects/fs/atomic.ts";
import { State } from "../src/schema/state.ts";
import { initialState } from "../src/session/initial-state.ts";
import { sessionsRoot } from "../src/protocol/paths.ts";

const BIN = join(import.meta.dir, "..", "dist", "agentmux");
const SESSIONS = Number(process.env.WEB_SESSIONS ?? 40);
const ROUNDS = Number(process.env.WEB_ROUNDS ?? 30);
const project = mkdtempSync(join(tmpdir(), "amx-bench-web-"));
const socket = `amx-bench-web-${process.pid}`;
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

function stateOf(id: string, at: string): State {
  const dir = join(sessionsRoot(project), id);
  const s = initialState({
    featureDir: dir,
    sessionName: `agentmux-${id}`,
    featureName: id,
    projectDir: project,
    productManager: false,
    at,
    requestTitle: `Request ${id}`,
  });
  return State.parse({ ...s, updated_at: at, updated_by: "orchestrator" });
}

const ids = Array.from({ length: SESSIONS }, (_, i) => `20260101-0000${String(i).padStart(2, "0")}-run-${i}`);
for (const id of ids) {
  mkdirSync(join(sessionsRoot(project), id), { recursive: true });
  writeJsonAtomic(join(sessionsRoot(project), id, "state.json"), stateOf(id, new Date().toISOString()));
}

const server = Bun.spawn([BIN, "serve", "--port", "0", project], { stdout: "pipe", stderr: "inherit", env: { ...process.env, AGENTMUX_TMUX_SOCKET: socket } });
try {
  const reader = server.stdout.getReader();
  let printed = "";
  while (!/agentmux serve: (\S+)/.test(printed)) printed += new TextDecoder().decode((await reader.read()).value);
  const link = new URL(/agentmux serve: (\S+)/.exec(printed)![1]!);
  const token = link.searchParams.get("token")!;
  const auth = { authorization: `Bearer ${token}` };

  const list: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const r = await fetch(`${link.origin}/api/runs`, { headers: auth });
    const body = (await r.json()) as { runs: unknown[] };
    if (body.runs.length !== SESSIONS) throw new Error(`listed ${body.runs.length} runs of ${SESSIONS}`);
    list.push(performance.now() - t0);
  }

  // one browser's event stream: each round rewrites a run's state and waits for its event
  const events = await fetch(`${link.origin}/events`, { headers: auth });
  const stream = events.body!.getReader();
  let buffered = "";
  const waitFor = async (marker: string) => {
    for (;;) {
      const at = buffered.indexOf(marker);
      if (at >= 0) return void (buffered = buffered.slice(at + marker.length));
      const { value, done } = await stream.read();
      if (done) throw new Error("the event stream ended");
      buffered += new TextDecoder().decode(value);
    }
  };
  await waitFor(": agentmux");
  await Bun.sleep(1500); // the server's first scan is done
  const update: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const id = ids[i % ids.length]!;
    const at = new Date(Date.now() + i).toISOString();
    const t0 = performance.now();
    writeJsonAtomic(join(sessionsRoot(project), id, "state.json"), stateOf(id, at));
    await waitFor(`"updated_at":"${at}"`);
    update.push(performance.now() - t0);
  }
  await stream.cancel();
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))![1]) / 1024;
  console.log(
    `sessions ${SESSIONS}, rounds ${ROUNDS}: list ${median(list).toFixed(1)} ms, update p50 ${median(update).toFixed(1)} ms p95 ${p95(update).toFixed(1)} ms, serve RSS ${rss.toFixed(0)} MB`,
  );
  console.log(
    JSON.stringify({
      bench: "web",
      sessions: SESSIONS,
      update_p50_ms: Math.round(median(update) * 10) / 10,
      update_p95_ms: Math.round(p95(update) * 10) / 10,
      list_ms: Math.round(median(list) * 10) / 10,
      serve_rss_mb: Math.round(rss),
    }),
  );
} finally {
  server.kill("SIGTERM");
  await server.exited;
  rmSync(project, { recursive: true, force: true });
}
