import { existsSync, rmdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { phaseEnded } from "../schema/catalog.ts";
import { liveOrchestrator } from "../session/liveness.ts";
import { F, sessionsRoot } from "../protocol/paths.ts";
import { readState } from "../session/read.ts";
import type { ParsedArgs } from "./args.ts";
import type { serve } from "./specs/sessions.ts";
import { UsageError } from "./errors.ts";
import { projectOf } from "../session/project.ts";
import { hostName } from "../web/guard.ts";
import { NotAProject, ServeListenFailed } from "../web/errors.ts";
import { newToken, removeServerFile, writeServerFile } from "../session/serve-record.ts";
import { startServer } from "../web/server.ts";

const DEFAULT_PORT = 7878;
/** how long the page of a run that ended stays up (its last state shows) */
const AFTER_END_MS = 10_000;

/** Resolves a little after the run of `dir` has ended: its phase ended and no orchestrator runs it, or its folder went. */
async function runEnded(dir: string): Promise<void> {
  for (;;) {
    await Bun.sleep(1000);
    if (!existsSync(join(dir, F.state))) break;
    try {
      if (phaseEnded(readState(dir).phase) && liveOrchestrator(dir) === null) break;
    } catch {
      // mid-replace: next second
    }
  }
  await Bun.sleep(AFTER_END_MS);
}

/** The projects to serve; a folder in no project is refused before anything is written. */
function projectsOf(args: readonly string[]): string[] {
  return [
    ...new Set(
      (args.length ? args : [process.cwd()]).map((a) => {
        const dir = resolve(a);
        let isDir = false;
        try {
          isDir = statSync(dir).isDirectory();
        } catch {}
        const project = isDir ? projectOf(dir) : null;
        if (project === null) throw new NotAProject({ dir, exists: isDir });
        return project;
      }),
    ),
  ];
}

/** The folders the token file needs that are missing now: they go with the server when nothing else came to live in them. */
function missingFolders(project: string): string[] {
  const root = sessionsRoot(project);
  return [root, dirname(root)].filter((d) => !existsSync(d));
}

function removeIfEmpty(dirs: readonly string[]): void {
  for (const d of dirs)
    try {
      rmdirSync(d);
    } catch {
      return; // something of a run lives there now: it stays
    }
}

/** `agentmux serve`: the web page of the runs, until Ctrl-C. */
export async function run(a: ParsedArgs<typeof serve>): Promise<number> {
  const port = a.flags.port === undefined ? DEFAULT_PORT : Number(a.flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError({ command: "serve", problem: `--port ${a.flags.port}: not a port number (0–65535)` });
  const host = a.flags.host ?? "127.0.0.1";
  const names = new Set<string>();
  for (const n of [...(a.flags["allow-host"] ?? []), ...(a.flags.host ? [host] : [])]) {
    const name = hostName(n.includes(":") && !n.startsWith("[") ? `[${n}]` : n);
    if (!name) throw new UsageError({ command: "serve", problem: `--allow-host ${n}: not a host name` });
    if (name !== "[0.0.0.0]" && name !== "0.0.0.0" && name !== "[::]") names.add(name);
  }
  const projects = projectsOf(a.positionals);
  const token = newToken();
  const answer = a.flags.answer === true;
  let server;
  try {
    server = startServer({ projects, host, port, access: { token, names, answer } });
  } catch (e) {
    throw new ServeListenFailed({
      host,
      port,
      reason: /EADDRINUSE|in use/i.test(String((e as Error).message) + String((e as { code?: string }).code)) ? "the port is in use" : (e as Error).message,
    });
  }
  const made = projects.map(missingFolders);
  const files = projects.map((p, index) =>
    writeServerFile(p, { url: server.url, index, token, pid: process.pid, answer, started_at: new Date().toISOString() }),
  );
  // the signals are ours before the link is printed: whoever stops the server on seeing it gets its clean-up
  const stopped = new Promise<void>((done) => {
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(sig, () => done());
    if (a.flags.until) void runEnded(resolve(a.flags.until)).then(done);
  });
  const out = process.stdout;
  out.write(`agentmux serve: ${server.url}?token=${token}\n`);
  out.write(`  ${projects.length === 1 ? "project" : "projects"}: ${projects.join(", ")}\n`);
  out.write(`  answering: ${answer ? "on (the page can approve, request changes, go on and cancel)" : "off (read-only; --answer turns it on)"}\n`);
  out.write(`  token file: ${files.join(", ")} (0600)\n`);
  if (!["127.0.0.1", "localhost", "::1"].includes(host))
    process.stderr.write(
      `agentmux serve: listening on ${host}: anyone who can reach this address and has the token can see${answer ? " and answer" : ""} your runs. Prefer an SSH tunnel (docs/web.md).\n`,
    );
  await stopped;
  projects.forEach((p, i) => {
    removeServerFile(p);
    removeIfEmpty(made[i]!);
  });
  await server.stop();
  return 0;
}
