/**
 * The web page in a real browser (Debian's chromium through playwright-core): the list of runs, a
 * live update arriving by server-sent events, an approval from a phone-sized page that reaches
 * the commit of a real demo run, refusals (no token, another site, a rebound host name) and an
 * agent's hostile text shown as text.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { stringify } from "yaml";
import { killTmuxServer, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { sessionDir } from "../fault/harness.ts";
import { git, isolatedBinary } from "../e2e/harness.ts";
import { startSlowDemo } from "../e2e/lifecycle-harness.ts";
import { launchBrowser, serveBinary, skipBrowser } from "./browser.ts";
import { liveAwaiting, serveProjects } from "./fixture.ts";
import { readState } from "../fault/harness.ts";
import { privateSocket } from "../helpers/tmp.ts";
import { Screen } from "../tui/tmux-screen.ts";

const track = { sockets: [] as string[], dirs: [] as string[] };
const stops: (() => Promise<unknown>)[] = [];
let browser: Browser;
beforeAll(async () => {
  if (skipBrowser) return;
  browser = await launchBrowser(["--host-resolver-rules=MAP rebind.test 127.0.0.1"]);
});
afterAll(async () => {
  for (const stop of stops) await stop().catch(() => {});
  await browser?.close();
  track.sockets.forEach(killTmuxServer);
  track.dirs.forEach(removeDir);
});

const PHONE = { viewport: { width: 375, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe.skipIf(skipBrowser)("web page in chromium", () => {
  test("a phone follows a demo run live from the list and approves it: the commit has the message typed on the page", async () => {
    const bin = isolatedBinary();
    track.dirs.push(join(bin, ".."));
    const extra = join(track.dirs.at(-1)!, "wait-for-approval.yaml");
    const notes = join(track.dirs.at(-1)!, "notifications.jsonl");
    writeFileSync(extra, stringify({ defaults: { completion: { skip_final_approval: false } }, notify: { command: `cat >> ${notes}` } }));
    const demo = startSlowDemo(bin, { thinkMs: 700, extra: ["--config", extra], track });
    stops.push(async () => demo.proc.kill("SIGKILL"));
    await waitFor("the run's session folder", () => sessionDir(demo.repo), { timeoutMs: 60_000 });
    const served = await serveBinary(bin, ["--answer", demo.repo], demo.socket);
    stops.push(served.stop);

    const page = await browser.newPage(PHONE);
    const listFetches: string[] = [];
    page.on("request", (r) => r.url().includes("/api/runs") && !r.url().includes("/api/runs/") && listFetches.push(r.url()));
    await page.goto(served.link);
    expect(page.url()).toBe(`${served.origin}/`); // the token left the address bar
    const card = page.locator("a.card").first();
    await card.waitFor({ timeout: 20_000 });
    expect(await card.textContent()).toContain("Add a greeting module");
    const first = await card.locator(".phase").textContent();
    expect(first).not.toBe("completing"); // what follows arrives live
    await page.locator("a.card .waits", { hasText: "waits for your approval" }).waitFor({ timeout: 90_000 });
    expect(await card.locator(".phase").textContent()).toBe("completing");
    expect(listFetches).toHaveLength(1); // the list was read once; the rest came as events

    await card.click();
    const approve = page.locator("button.act-approve");
    await approve.waitFor({ timeout: 20_000 });
    expect(await page.locator(".file a").allTextContents()).toEqual(["src/greeting.js", "test/greeting.test.js"]);
    await page.locator("textarea[aria-label='commit message']").fill("feat: greeting, approved from a phone");
    await approve.click();
    await page.locator(".said.good", { hasText: "approved: committing 2 file(s)" }).waitFor({ timeout: 10_000 });
    // the log goes on live: the orchestrator's own line about the approval appears
    await page.locator(".log .ln", { hasText: "event approval_written" }).waitFor({ timeout: 20_000 });
    const r = await demo.done;
    expect(r.code).toBe(0);
    const result = r.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l))
      .find((e) => e.kind === "result");
    expect(git(demo.repo, "log", "-1", "--format=%s", result.branch)).toBe("feat: greeting, approved from a phone");
    // the page saw the run end
    await page.locator("h1 .dot:not(.on)").waitFor({ timeout: 20_000 });
    // a finished run's changes are its commit
    await page.locator("section.changes h2", { hasText: `committed in ${result.commit.slice(0, 10)}` }).waitFor({ timeout: 20_000 });
    await page.locator("section.changes a[data-file='src/greeting.js']").click();
    await page.locator(".diff .add", { hasText: "export function" }).first().waitFor({ timeout: 10_000 });
    // notify.command was told twice, with the page's link (no token in it)
    const told = readFileSync(notes, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(told.map((n: any) => n.event)).toEqual(["needs_you", "done"]);
    expect(told[0].url).toBe(`${served.origin}/#/run/0/${told[0].session}`);
    expect(told[1].text).toContain("done: committed");
    expect(JSON.stringify(told)).not.toContain(served.token);

    await page.close();
  }, 240_000);

  test("an agent's hostile text is shown as text: no element, no script, no request it names", async () => {
    const hostile = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    const { repo } = liveAwaiting(track.dirs, track.sockets, {
      request_title: `Title ${hostile}`,
      review_results: { reviewer_logic: { verdict: "fail", summary: `Summary ${hostile}` } },
      review_comments: [
        {
          id: "c1",
          reviewer: "reviewer_logic",
          round: 1,
          blocking: true,
          file: `src/rate.ts`,
          start_line: 1,
          end_line: 1,
          severity: "major",
          body: `Body ${hostile}`,
        },
      ],
      checks: [
        {
          id: 1,
          when: "after_implementation",
          round: 0,
          names: ["test"],
          started_at: "2025-03-01T10:00:00.000Z",
          results: {
            test: {
              status: "failed",
              command: "bun test",
              required: true,
              exit_code: 1,
              duration_ms: 1200,
              failures: 1,
              findings: [{ check: "test", file: "src/rate.ts", line: 1, message: `Check ${hostile}` }],
              tests: { passing: 3, failing: 1, total: 4 },
              log: "06_checks/run_1/test.log",
              file: "06_checks/run_1/test.json",
              finished_at: "2025-03-01T10:01:00.000Z",
            },
          },
        },
      ],
      agents: {
        coder: {
          role: "coder",
          label: `coder ${hostile}`,
          status: "needs_input",
          since: "2025-03-01T10:00:00.000Z",
          question: { kind: "question", text: `Question ${hostile}`, at: "2025-03-01T10:00:00.000Z" },
        },
      } as any,
    });
    const s = serveProjects([repo], { answer: true });
    stops.push(() => s.server.stop());
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    await page.goto(`${s.origin}/?token=${s.token}`);
    await page.locator("a.card").waitFor();
    await page.locator("a.card").click();
    await page.locator(".finding .body", { hasText: "Body" }).waitFor();
    await page.locator("section.changes a[data-file='src/rate.ts']").click();
    await page.locator(".diff-head").waitFor();
    const text = await page.locator("main").innerText();
    for (const where of ["Title", "Summary", "Body", "Question", "coder", "Check"]) expect(text).toContain(`${where} ${hostile}`);
    // the check's finding is anchored at its file: its diff opens
    expect(await page.locator("section.checks").innerText()).toContain("3/4 tests passing");
    await page.locator("section.checks a.anchor", { hasText: "src/rate.ts:1" }).click();
    await page.locator(".diff-head", { hasText: "src/rate.ts" }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    expect(await page.locator("main img, main script").count()).toBe(0);
    expect(requested.filter((u) => new URL(u).pathname === "/x")).toEqual([]);
    await page.close();
  }, 60_000);

  test("refused in the browser: no token, a write from another site (with the user's cookie), a rebound host name", async () => {
    const { repo, dir } = liveAwaiting(track.dirs, track.sockets);
    const s = serveProjects([repo], { answer: true });
    stops.push(() => s.server.stop());
    const ctx = await browser.newContext();
    const page = await ctx.newPage();

    const bare = await page.goto(`${s.origin}/`);
    expect(bare!.status()).toBe(401);
    expect(await page.locator("a.card").count()).toBe(0);

    // the user has the page open (its cookie is set); another site's page tries to answer the run
    await page.goto(`${s.origin}/?token=${s.token}`);
    await page.locator("a.card").waitFor();
    const approve = `${s.origin}/api/runs/0/s1/approve`;
    const evil = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) =>
        new URL(req.url).pathname === "/evil.js"
          ? new Response(
              `window.results = Promise.all([
              fetch(${JSON.stringify(approve)}, { method: "POST", credentials: "include", body: '{"exclude_files":[]}', headers: { "content-type": "application/json", "x-agentmux-token": "guess" } }).then(r => r.status, e => "blocked"),
              fetch(${JSON.stringify(s.origin + "/api/runs")}, { credentials: "include" }).then(r => r.status, e => "blocked"),
            ]);`,
              { headers: { "content-type": "text/javascript" } },
            )
          : new Response(`<!doctype html><script src="/evil.js"></script>`, { headers: { "content-type": "text/html" } }),
    });
    stops.push(async () => evil.stop(true));
    await page.goto(`http://127.0.0.1:${evil.port}/`);
    expect(await page.evaluate(() => (globalThis as any).results)).toEqual(["blocked", "blocked"]);
    // the classic forgery: a form posted to the server, the user's cookie sent along
    const [posted] = await Promise.all([
      page.waitForResponse((r) => r.url() === approve),
      page.evaluate((action) => {
        const doc = (globalThis as any).document;
        const f = doc.createElement("form");
        Object.assign(f, { method: "POST", action, enctype: "text/plain" });
        const i = Object.assign(doc.createElement("input"), { name: '{"exclude_files":[],"x":"', value: '"}' });
        f.append(i);
        doc.body.append(f);
        f.submit();
      }, approve),
    ]);
    expect(posted.status()).toBe(403);
    expect(await posted.text()).toContain("cross-origin request");
    expect(existsSync(join(dir, "08_completion/approval.json"))).toBe(false);

    // DNS rebinding: a name that resolves to 127.0.0.1 is not this server's name
    const port = new URL(s.origin).port;
    const rebound = await page.goto(`http://rebind.test:${port}/?token=${s.token}`);
    expect(rebound!.status()).toBe(421);
    expect(await page.content()).toContain("wrong Host header");
    await ctx.close();
  }, 60_000);

  test("an agent's question is answered from the page: the answer reaches its pane and the run goes on to its commit", async () => {
    const bin = isolatedBinary();
    track.dirs.push(join(bin, ".."));
    const outer = privateSocket();
    const inner = privateSocket();
    track.sockets.push(outer, inner);
    const root = join(track.dirs.at(-1)!, "ask");
    const repo = join(root, "repo");
    Bun.spawnSync(["mkdir", "-p", root]);
    // an attended run (a terminal): the architect's question waits for a person
    const scr = new Screen(outer);
    await scr.start(
      [bin, "demo", "--dir", repo, "--scenario", "ask=architect", "--think-ms", "0"],
      root,
      { width: 160, height: 45 },
      { AGENTMUX_TMUX_SOCKET: inner, CI: "", TMUX: "" },
    );
    const dir = await waitFor("the session folder", () => sessionDir(repo), { timeoutMs: 60_000 });
    await waitFor("the architect to ask", () => readState(dir)?.agents?.architect?.status === "needs_input", { timeoutMs: 60_000, intervalMs: 50 });
    const served = await serveBinary(bin, ["--answer", repo], inner);
    stops.push(served.stop);

    const page = await browser.newPage(PHONE);
    await page.goto(served.link);
    await page.locator("a.card .waits", { hasText: "architect asks: Should the greeting also support other languages" }).click();
    const box = page.locator("textarea[aria-label='answer to architect']");
    await box.fill("English only, please.");
    await page.locator("button.act-answer").click();
    await page.locator(".said.good", { hasText: "answer sent to architect" }).waitFor({ timeout: 10_000 });
    await waitFor("the architect back at work", () => readState(dir)?.agents?.architect?.status !== "needs_input", { timeoutMs: 30_000 });
    const log = readFileSync(join(dir, "orchestrator.log"), "utf8");
    expect(log).toContain("question answered from the web page: English only, please.");
    const end = await scr.until("the run to finish", (t) => /EXIT=\d+/.test(t), 120_000);
    expect(end).toContain("EXIT=0");
    expect(existsSync(join(repo, ".agentmux/.last_completion.json"))).toBe(true);
    await page.close();
  }, 240_000);
});
