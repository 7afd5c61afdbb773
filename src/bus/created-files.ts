import { existsSync, readFileSync, readdirSync, statSync, watch, type FSWatcher } from "node:fs";
import { join, relative } from "node:path";
import { appendLine } from "../effects/fs/atomic.ts";
import { F } from "../protocol/paths.ts";

/** Orchestrator-owned files that never appear in created_files.log. */
const IGNORED = new Set<string>([
  F.state,
  F.runtime,
  F.toolEvents,
  F.toolEventState,
  F.createdFiles,
  F.orchestratorLog,
  F.orchestratorOutput,
  F.toolEventsLock,
]);
const ignored = (rel: string) => IGNORED.has(rel) || rel.startsWith(F.runtimeDir + "/") || /(^|\/)\.[^/]*\.tmp$/.test(rel);

const stamp = (d = new Date()) => {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
};

/**
 * created_files.log: one line `YYYY-MM-DD HH:MM:SS  <session-relative path>` the first time a
 * file is seen in the session folder — across restarts (paths already logged are not repeated).
 */
export class CreatedFilesLog {
  private seen = new Set<string>();
  private watcher: FSWatcher | null = null;
  private readonly logPath: string;

  constructor(private readonly sessionDir: string) {
    this.logPath = join(sessionDir, F.createdFiles);
    if (existsSync(this.logPath)) {
      for (const line of readFileSync(this.logPath, "utf8").split("\n")) {
        const rel = line.slice(21);
        if (rel) this.seen.add(rel);
      }
    }
  }

  start(): void {
    this.scan(this.sessionDir);
    try {
      this.watcher = watch(this.sessionDir, { recursive: true }, (_e, name) => name && this.note(String(name)));
    } catch {
      /* no recursive watch: the initial scan still covers existing files */
    }
  }

  stop(): void {
    this.watcher?.close();
  }

  private scan(dir: string): void {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names.sort()) {
      const abs = join(dir, n);
      try {
        if (statSync(abs).isDirectory()) this.scan(abs);
        else this.note(relative(this.sessionDir, abs));
      } catch {}
    }
  }

  private note(rel: string): void {
    if (this.seen.has(rel) || ignored(rel)) return;
    try {
      if (!statSync(join(this.sessionDir, rel)).isFile()) return;
    } catch {
      return;
    }
    this.seen.add(rel);
    appendLine(this.logPath, `${stamp()}  ${rel}`);
  }
}
