/**
 * `agentmux serve`'s guard and answers over real HTTP: a token on every request, Host and Origin
 * checked, writes only with --answer and the token in a header, and each answer is the file the
 * approval panel or the monitor writes, only when the run waits for it.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeJsonAtomic } from "../../src/effects/fs/atomic.ts";
import { readSnapshotInput } from "../../src/report/read.ts";
import { snapshot } from "../../src/report/snapshot.ts";
import { RunSnapshot } from "../../src/schema/run-api/snapshot.ts";
import { killTmuxServer, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { liveAwaiting, serveProjects } from "./fixture.ts";

const dirs: string[] = [];
const sockets: string[] = [];
const servers: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  sockets.forEach(killTmuxServer);
  dirs.forEach(removeDir);
});

function serve(projects: string[], o: { answer?: boolean; names?: string[] } = {}) {
  const s = serveProjects(projects, o);
  servers.push(s.server);
  return s;
}

const RUN = "/api/runs/0/s1";

test("every request needs the token: refused without it, a wrong one, or a cookie of another server; ?token= becomes a cookie", async () => {
  const { repo } = liveAwaiting(dirs, sockets);
  const s = serve([repo]);
  for (const path of ["/", "/app.js", "/style.css", "/api/runs", RUN, `${RUN}/diff?file=src/rate.ts`, "/events"]) {
    const r = await s.call(path);
    expect(r.status).toBe(401);
    expect(r.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await r.text()).not.toContain("rate"); // nothing of the run leaks
  }
  expect((await s.call("/api/runs", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
  expect((await s.call("/api/runs", { headers: { cookie: `agentmux_token=${s.token}x` } })).status).toBe(401);
  const first = await s.call(`/?token=${s.token}`);
  expect(first.status).toBe(303);
  expect(first.headers.get("location")).toBe("/");
  const cookie = first.headers.get("set-cookie")!;
  expect(cookie).toContain("HttpOnly");
  expect(cookie).toContain("SameSite=Lax");
  const page = await s.call("/", { headers: { cookie: cookie.split(";")[0]! } });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('<script src="/app.js" defer></script>');
  expect(html).not.toMatch(/<script>|<script [^s]|\son[a-z]+=/); // no inline script or handler
  expect(html).toContain('content=""'); // read-only: the page gets no write token
  const runs = (await (await s.authed("/api/runs")).json()) as any;
  expect(runs.runs.map((r: any) => [r.id, r.run.snapshot.phase, r.run.snapshot.live, r.run.snapshot.waiting_for[0]?.kind])).toEqual([
    ["s1", "completing", true, "decision"],
  ]);
});

test("the page reads the run API: a run's snapshot is the run API's RunSnapshot, field for field, as status --json has it", async () => {
  const { repo, dir } = liveAwaiting(dirs, sockets);
  const s = serve([repo]);
  const run = (await (await s.authed(RUN)).json()) as any;
  expect(Object.keys(run).sort()).toEqual(["archived", "id", "project", "review_comments", "snapshot"]);
  expect(RunSnapshot.strict().parse(run.snapshot)).toEqual(run.snapshot);
  const now = Date.now();
  const api = snapshot(readSnapshotInput(dir, { id: "s1", live: true, now }));
  const timeless = (x: any) => ({
    ...x,
    elapsed_ms: 0,
    active_ms: 0,
    timeline: x.timeline.map((t: any) => ({ ...t, duration_ms: 0 })),
    stages: x.stages.map((t: any) => ({ ...t, duration_ms: 0 })),
  });
  expect(timeless(run.snapshot)).toEqual(timeless(api));
});

test("a wrong Host (DNS rebinding) is refused even with the token; loopback names on any port and --allow-host names are served", async () => {
  const { repo } = liveAwaiting(dirs, sockets);
  const s = serve([repo], { names: ["box.tailnet.example"] });
  const port = new URL(s.origin).port;
  for (const host of [`attacker.example:${port}`, `127.0.0.1.attacker.example:${port}`, "", `box.tailnet.example.evil:${port}`]) {
    const r = await s.authed("/api/runs", { headers: { host } });
    expect(r.status).toBe(421);
  }
  for (const host of [`localhost:${port}`, "localhost:9000", `127.0.0.1:${port}`, `box.tailnet.example:${port}`])
    expect((await s.authed("/api/runs", { headers: { host } })).status).toBe(200);
});

test("a cross-origin request is refused, reading or writing; the page's own origin is served", async () => {
  const { repo, dir } = liveAwaiting(dirs, sockets);
  const s = serve([repo], { answer: true });
  for (const origin of ["http://attacker.example", "null", `${s.origin}.attacker.example`, "http://localhost:1"]) {
    expect((await s.authed("/api/runs", { headers: { origin } })).status).toBe(403);
    expect((await s.post(`${RUN}/approve`, {}, { origin })).status).toBe(403);
  }
  expect(existsSync(join(dir, "08_completion/approval.json"))).toBe(false);
  expect((await s.authed("/api/runs", { headers: { origin: s.origin } })).status).toBe(200);
});

test("answering is off unless --answer: every write is refused and nothing is written", async () => {
  const { repo, dir } = liveAwaiting(dirs, sockets);
  const s = serve([repo]);
  for (const what of ["approve", "changes", "go-on", "cancel"]) {
    const r = await s.post(`${RUN}/${what}`, what === "changes" ? { text: "x" } : {});
    expect(r.status).toBe(403);
    expect(((await r.json()) as any).error).toContain("--answer");
  }
  expect(
    existsSync(join(dir, "08_completion/approval.json")) ||
      existsSync(join(dir, "08_completion/changes.md")) ||
      existsSync(join(dir, ".runtime/cancel_request")),
  ).toBe(false);
});

test("a write needs the token in its header and an Origin: a cookie or ?token= alone answers nothing", async () => {
  const { repo, dir } = liveAwaiting(dirs, sockets);
  const s = serve([repo], { answer: true });
  const body = JSON.stringify({ exclude_files: [] });
  const cookie = `agentmux_token=${s.token}`;
  expect((await s.call(`${RUN}/approve`, { method: "POST", body, headers: { origin: s.origin, cookie } })).status).toBe(401);
  expect((await s.call(`${RUN}/approve?token=${s.token}`, { method: "POST", body, headers: { origin: s.origin } })).status).toBe(401);
  expect((await s.call(`${RUN}/approve`, { method: "POST", body, headers: { "x-agentmux-token": s.token } })).status).toBe(403); // no Origin
  expect(existsSync(join(dir, "08_completion/approval.json"))).toBe(false);
});

test("approve writes the approval panel's approval.json (files left out, the message edited) and drops the panel's draft", async () => {
  const { repo, dir } = liveAwaiting(dirs, sockets);
  writeJsonAtomic(join(dir, ".runtime/panel_draft.json"), { exclude_files: ["notes.txt"], commit_message: "feat: from the panel" });
  const s = serve([repo], { answer: true });
  const changes = (await (await s.authed(`${RUN}/changes`)).json()) as any;
  expect(changes.files.map((f: any) => f.path).sort()).toEqual(["notes.txt", "src/rate.ts"]);
  expect(changes.draft).toEqual({ exclude_files: ["notes.txt"], commit_message: "feat: from the panel" });
  const diff = (await (await s.authed(`${RUN}/diff?file=src/rate.ts`)).json()) as any;
  expect(diff.diff).toContain("+export const limit = 10;");

  // a file the run did not change, or a path of its own making, is refused and nothing is written
  for (const exclude of ["../../etc/passwd", "a.txt", "src"]) {
    const bad = await s.post(`${RUN}/approve`, { exclude_files: [exclude] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toContain("not a file this run changed");
  }
  expect((await s.post(`${RUN}/approve`, { exclude_files: "notes.txt" })).status).toBe(400);
  expect((await s.post(`${RUN}/approve`, { exclude_files: [], extra: 1 })).status).toBe(400);
  expect(existsSync(join(dir, "08_completion/approval.json"))).toBe(false);

  const ok = await s.post(`${RUN}/approve`, { exclude_files: ["notes.txt"], commit_message: "  feat: rate limits, approved from a phone\n" });
  expect(ok.status).toBe(200);
  expect(((await ok.json()) as any).said).toBe("approved: committing 1 file(s), 1 excluded");
  expect(JSON.parse(readFileSync(join(dir, "08_completion/approval.json"), "utf8"))).toEqual({
    action: "approve",
    exclude_files: ["notes.txt"],
    commit_message: "feat: rate limits, approved from a phone",
  });
  expect(existsSync(join(dir, ".runtime/panel_draft.json"))).toBe(false);
});

test("changes writes changes.md; an empty request is refused", async () => {
  const { repo, dir } = liveAwaiting(dirs, sockets);
  const s = serve([repo], { answer: true });
  expect((await s.post(`${RUN}/changes`, { text: " \n\t" })).status).toBe(400);
  expect(existsSync(join(dir, "08_completion/changes.md"))).toBe(false);
  expect((await s.post(`${RUN}/changes`, { text: "Use a sliding window.\n\n" })).status).toBe(200);
  expect(readFileSync(join(dir, "08_completion/changes.md"), "utf8")).toBe("Use a sliding window.\n");
});

test("an answer the run does not wait for is refused: no decision outside completing, no go-on without a budget pause, nothing for a stopped run", async () => {
  const { repo, dir } = liveAwaiting(dirs, sockets, { awaiting_decision: undefined });
  const s = serve([repo], { answer: true });
  expect((await s.post(`${RUN}/approve`, {})).status).toBe(409);
  expect((await s.post(`${RUN}/changes`, { text: "x" })).status).toBe(409);
  expect((await s.post(`${RUN}/go-on`, {})).status).toBe(409);
  expect(existsSync(join(dir, "08_completion/approval.json")) || existsSync(join(dir, ".runtime/budget_go_on"))).toBe(false);
  const state = JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
  writeJsonAtomic(join(dir, "state.json"), { ...state, budget_reached: { at: state.updated_at, text: "cost $5.10 of $5.00", paused: true } });
  expect((await s.post(`${RUN}/go-on`, {})).status).toBe(200);
  expect(existsSync(join(dir, ".runtime/budget_go_on"))).toBe(true);
  expect((await s.post(`${RUN}/cancel`, {})).status).toBe(200);
  expect(JSON.parse(readFileSync(join(dir, ".runtime/cancel_request"), "utf8")).by).toBe("web");

  const stopped = liveAwaiting(dirs, sockets);
  killTmuxServer(sockets.pop()!);
  const t = serve([stopped.repo], { answer: true });
  const r = await t.post(`${RUN}/approve`, {});
  expect(r.status).toBe(409);
  expect(((await r.json()) as any).error).toContain("not running");
});

test("requests name runs and files only among the server's own: no path of the request's making is read", async () => {
  const { repo } = liveAwaiting(dirs, sockets);
  const s = serve([repo], { answer: true });
  for (const path of [
    "/api/runs/0/..%2F..%2F..",
    "/api/runs/1/s1",
    "/api/runs/x/s1",
    "/api/runs/0/.archive",
    `${RUN}/diff?file=../../../etc/passwd`,
    `${RUN}/diff?file=a.txt`,
    `${RUN}/screen/nobody`,
    "/api/nothing",
    "/api/runs/0/%E0%A4%A",
    `${RUN}/screen/%ZZ`,
  ]) {
    const r = await s.authed(path);
    expect([r.status, path]).toEqual([404, path]);
  }
  expect((await s.post(`${RUN}/rm-rf`, {})).status).toBe(404);
});

test("answer: the user's answer to the question an agent waits on becomes the answer request; a dialog, a working agent, a blank answer or one already pending are refused", async () => {
  const asked = "2025-03-01T10:30:00.000Z";
  const agents = (kind: string, status = "needs_input") => ({
    architect: { role: "architect", label: "architect", status, since: asked, question: { kind, text: "English only?", at: asked } },
  });
  const { repo, dir } = liveAwaiting(dirs, sockets, { agents: agents("question") as any });
  const s = serve([repo], { answer: true });
  expect((await s.post(`${RUN}/answer`, { agent: "architect", text: " \u200b " })).status).toBe(400);
  expect((await s.post(`${RUN}/answer`, { agent: "planner", text: "yes" })).status).toBe(409);
  const ok = await s.post(`${RUN}/answer`, { agent: "architect", text: "English only, please.\n" });
  expect(ok.status).toBe(200);
  const file = join(dir, ".runtime/answer_request.json");
  expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ agent: "architect", question_at: asked, text: "English only, please.", by: "web" });
  const again = await s.post(`${RUN}/answer`, { agent: "architect", text: "or French" });
  expect(again.status).toBe(409);
  expect(JSON.parse(readFileSync(file, "utf8")).text).toBe("English only, please."); // nothing lost

  for (const [kind, status] of [
    ["permission", "needs_input"],
    ["question", "working"],
  ] as const) {
    const other = liveAwaiting(dirs, sockets, { agents: agents(kind, status) as any });
    const t = serve([other.repo], { answer: true });
    expect((await t.post(`${RUN}/answer`, { agent: "architect", text: "yes" })).status).toBe(409);
    expect(existsSync(join(other.dir, ".runtime/answer_request.json"))).toBe(false);
  }
});

test("screen: an agent's pane as it is now, as inert text; a pane id that is not one is never passed to tmux (the last screen the run kept instead)", async () => {
  const since = "2025-03-01T10:30:00.000Z";
  const { repo, dir, socket } = liveAwaiting(dirs, sockets, {
    agents: { architect: { role: "architect", label: "architect", status: "working", since, last_screen: ["kept line"] } } as any,
  });
  const env = { ...process.env, TMUX: "" };
  const made = Bun.spawnSync(
    [
      "tmux",
      "-L",
      socket,
      "new-window",
      "-d",
      "-P",
      "-F",
      "#{pane_id}",
      "-t",
      "agentmux-s1",
      `printf 'ready <img src=x onerror=alert(1)> \\033]0;title\\007\\033[31mred\\033[0m\\n'; sleep 600`,
    ],
    { env },
  );
  const pane = made.stdout.toString().trim();
  expect(pane).toMatch(/^%\d+$/);
  const runtime = (panes: Record<string, string>) =>
    writeJsonAtomic(join(dir, "runtime_state.json"), { tmux_session: "agentmux-s1", tmux_socket: socket, panes });
  runtime({ architect: pane });
  const s = serve([repo]);
  const shown = await waitFor(
    "the pane's text",
    async () => {
      const r = (await (await s.authed(`${RUN}/screen/architect`)).json()) as any;
      return r.lines.some((l: string) => l.includes("ready")) ? r : null;
    },
    { timeoutMs: 10_000 },
  );
  expect(shown.live).toBe(true);
  expect(shown.lines.find((l: string) => l.includes("ready"))).toBe("ready <img src=x onerror=alert(1)> red");
  expect(JSON.stringify(shown)).not.toMatch(/\\u001b|\x1b/);

  runtime({ architect: "-t; kill-server" });
  const kept = (await (await s.authed(`${RUN}/screen/architect`)).json()) as any;
  expect(kept).toEqual({ lines: ["kept line"], live: false });
  expect(Bun.spawnSync(["tmux", "-L", socket, "has-session", "-t", "agentmux-s1"], { env }).exitCode).toBe(0);
});

test("several projects on one server: each run is named by its project's index, two runs of the same id stay apart", async () => {
  const a = liveAwaiting(dirs, sockets);
  const b = liveAwaiting(dirs, sockets, { request_title: "The second project's run" });
  const s = serve([a.repo, b.repo]);
  const runs = ((await (await s.authed("/api/runs")).json()) as any).runs;
  expect(runs.map((r: any) => [r.project, r.id, r.run.snapshot.dir]).sort()).toEqual([
    [0, "s1", a.dir],
    [1, "s1", b.dir],
  ]);
  const second = (await (await s.authed("/api/runs/1/s1")).json()) as any;
  expect(second.snapshot.feature).toBe("The second project's run");
  expect(((await (await s.authed("/api/config")).json()) as any).projects).toEqual([a.repo, b.repo]);
});

test("a body over 1 MiB is refused before it is read; nothing is written", async () => {
  const { repo, dir } = liveAwaiting(dirs, sockets);
  const s = serve([repo], { answer: true });
  const r = await s.post(`${RUN}/changes`, { text: "x".repeat(2 * 1024 * 1024) }).catch(() => null);
  expect(r === null || r.status === 413).toBe(true);
  expect(existsSync(join(dir, "08_completion/changes.md"))).toBe(false);
});
