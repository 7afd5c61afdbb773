/**
 * The README's pictures of the web page: a demo run (two reviewers, one review that fails once
 * with line comments) stopped at its approval, `agentmux serve --answer` on it, and Debian's
 * chromium taking the desktop and phone views (light and dark).
 *   bun build.ts && bun scripts/web-screenshots.ts      → docs/images/web-*.png
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const ROOT = join(import.meta.dir, "..");
const BIN = join(ROOT, "dist/agentmux");
const OUT = join(ROOT, "docs/images");
const tmp = mkdtempSync(join(tmpdir(), "amx-shots-"));
const socket = `amx-shots-${process.pid}`;
const env = { ...process.env, CI: "true", AGENTMUX_TMUX_SOCKET: socket, TMUX: "", NO_COLOR: "1" };
const repo = join(tmp, "repo");
const config = join(tmp, "approval.yaml");
writeFileSync(config, "defaults:\n  completion:\n    skip_final_approval: false\n");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, f: () => T | null | undefined, ms = 120_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) {
    const v = f();
    if (v) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

const demo = Bun.spawn(
  [
    BIN,
    "demo",
    "--ci",
    "--keep-session",
    "--dir",
    repo,
    "--think-ms",
    "200",
    "--scenario",
    "reviewers=logic+quality,review_fail_once,line_comments",
    "--config",
    config,
  ],
  { env, stdout: "ignore", stderr: "ignore" },
);
let serve: { kill(): void } | undefined;
try {
  const sessions = join(repo, ".agentmux/.sessions");
  const id = await until("the session", () => {
    try {
      return readdirSync(sessions).find((n) => !n.startsWith("."));
    } catch {
      return undefined;
    }
  });
  const state = join(sessions, id, "state.json");
  await until("the approval wait", () => (Bun.spawnSync(["grep", "-q", '"awaiting_decision": true', state]).exitCode === 0 ? true : null));
  const server = Bun.spawn([BIN, "serve", "--port", "0", "--answer", repo], { env, stdout: "pipe", stderr: "ignore" });
  serve = server;
  const reader = server.stdout.getReader();
  let printed = "";
  while (!/agentmux serve: (\S+)/.test(printed)) printed += new TextDecoder().decode((await reader.read()).value);
  const link = /agentmux serve: (\S+)/.exec(printed)![1]!;
  const origin = new URL(link).origin;

  const browser = await chromium.launch({ executablePath: process.env.AGENTMUX_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  const shoot = async (name: string, o: { width: number; height: number; dark?: boolean; mobile?: boolean; run?: boolean; diff?: boolean; full?: boolean }) => {
    const ctx = await browser.newContext({
      viewport: { width: o.width, height: o.height },
      deviceScaleFactor: o.mobile ? 2 : 1,
      isMobile: o.mobile,
      colorScheme: o.dark ? "dark" : "light",
    });
    const page = await ctx.newPage();
    await page.goto(link);
    if (o.run) await page.goto(`${origin}/#/run/0/${id}`);
    await page
      .locator(o.run ? "button.act-approve" : "a.card")
      .first()
      .waitFor();
    if (o.diff) await page.locator("section.changes a[data-file]").first().click();
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(OUT, name), fullPage: o.full === true });
    await ctx.close();
    console.log(`wrote docs/images/${name}`);
  };
  await shoot("web-desktop.png", { width: 1280, height: 1000, run: true, diff: true });
  await shoot("web-phone.png", { width: 375, height: 812, mobile: true, run: true });
  await shoot("web-phone-dark.png", { width: 375, height: 812, mobile: true, dark: true });
  await browser.close();
} finally {
  serve?.kill();
  demo.kill("SIGTERM");
  await demo.exited;
  Bun.spawnSync(["tmux", "-L", socket, "kill-server"], { env });
  rmSync(tmp, { recursive: true, force: true });
}
