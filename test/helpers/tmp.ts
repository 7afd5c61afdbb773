import { copyFileSync, existsSync, linkSync, lstatSync, mkdtempSync, readdirSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { privateMcpDir, privateSealKeyFile } from "../../src/session/private-dir.ts";

/**
 * What tests make outside the repository — temp dirs, the binary copy, private tmux servers —
 * is registered here and disposed of: by the test itself (removeDir, killTmuxServer, a
 * `using` scope) or, for anything left, after the run (test/helpers/preload.ts → disposeAll).
 */
const made = { dirs: new Set<string>(), sockets: new Set<string>() };

/** A fresh temp dir (realpath'd, so paths compare equal to what processes report), under `base`. */
export function makeTmpDir(prefix = "amx-test-", base = tmpdir()): string {
  const dir = realpathSync(mkdtempSync(join(base, prefix)));
  made.dirs.add(dir);
  return dir;
}

/**
 * A temp dir left for a person to look at after the run (the real-CLI suite's
 * AGENTMUX_REAL_CLI_KEEP: screens and model requests); when `keep` is false, an ordinary
 * makeTmpDir that the disposal removes.
 */
export function makeDirToKeep(prefix: string, base: string, keep: boolean): string {
  return keep ? realpathSync(mkdtempSync(join(base, prefix))) : makeTmpDir(prefix, base);
}

export function removeDir(dir: string): void {
  dropPrivateDirs(dir);
  rmSync(dir, { recursive: true, force: true });
  made.dirs.delete(dir);
}

/**
 * A run keeps its agents' MCP configs in a private folder under the home (session/private-dir.ts),
 * removed when its orchestrator ends: a test that kills the orchestrator would leave it; and its
 * seal key there, kept while its session folder is. The sessions of the projects in `dir` (`dir`,
 * `dir/x`, `dir/x/y`) take theirs with them, and so do `dir` and the folders in it up to two deep
 * (a unit test's session folder is often a bare temp dir).
 */
function dropPrivateDirs(dir: string): void {
  const below = (d: string) => {
    try {
      return readdirSync(d, { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.isSymbolicLink())
        .map((e) => join(d, e.name));
    } catch {
      return [];
    }
  };
  const projects = [dir, ...below(dir), ...below(dir).flatMap(below)];
  for (const p of projects) {
    for (const session of below(join(p, ".agentmux", ".sessions"))) {
      rmSync(privateMcpDir(session), { recursive: true, force: true });
      rmSync(privateSealKeyFile(session), { force: true });
    }
    rmSync(privateSealKeyFile(p), { force: true });
  }
}

/** A tmux socket name unique to this test, for `tmux -L <name>`; kill its server when done. */
export function privateSocket(): string {
  const socket = `amx-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  made.sockets.add(socket);
  return socket;
}

/** Where `tmux -L <name>` puts its socket file. */
export function tmuxSocketFile(socket: string): string {
  return join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid!()}`, socket);
}

/** Kill the server and remove its socket file: tmux 3.3a leaves it behind (one file per test, thousands a day). */
export function killTmuxServer(socket: string): void {
  Bun.spawnSync(["tmux", "-L", socket, "kill-server"], { stdout: "ignore", stderr: "ignore", env: { ...process.env, TMUX: "" } });
  try {
    if (lstatSync(tmuxSocketFile(socket)).isSocket()) rmSync(tmuxSocketFile(socket), { force: true });
  } catch {
    /* no server was started on it */
  }
  made.sockets.delete(socket);
}

export const REPO_ROOT = join(import.meta.dir, "..", "..");
export const BINARY = join(REPO_ROOT, "dist", "agentmux");

let binaryCopy: string | undefined;

/**
 * The compiled binary at a path in a temp dir, so nothing from node_modules is reachable from
 * it: a hard link (a 118 MB copy took half a second, and with bun test --parallel every file
 * makes its own), a copy where the temp dir is on another file system. A rebuild replaces
 * dist/agentmux with a new file, so the link keeps the binary the test started with. Read-only.
 */
export function isolatedBinary(): string {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`bun build.ts\` (npm test does it)`);
  if (binaryCopy && existsSync(binaryCopy)) return binaryCopy;
  const bin = join(makeTmpDir("amx-bin-"), "agentmux");
  try {
    linkSync(BINARY, bin);
  } catch {
    copyFileSync(BINARY, bin);
    Bun.spawnSync(["chmod", "+x", bin]);
  }
  binaryCopy = bin;
  return bin;
}

/** Temp dirs and tmux servers that live as long as a scope: `using s = scratch();` in a test. */
export function scratch(): { dir(prefix?: string): string; socket(): string; [Symbol.dispose](): void } {
  const dirs: string[] = [];
  const sockets: string[] = [];
  return {
    dir: (prefix) => (dirs.push(makeTmpDir(prefix)), dirs.at(-1)!),
    socket: () => (sockets.push(privateSocket()), sockets.at(-1)!),
    [Symbol.dispose]() {
      sockets.forEach(killTmuxServer);
      dirs.forEach(removeDir);
    },
  };
}

/** Everything still registered: what no test disposed of itself. */
export function leftovers(): { dirs: string[]; sockets: string[] } {
  return { dirs: [...made.dirs], sockets: [...made.sockets] };
}

/** Kill every tmux server and remove every temp dir this process made and nobody disposed of. */
export function disposeAll(): void {
  for (const s of [...made.sockets]) killTmuxServer(s);
  for (const d of [...made.dirs]) removeDir(d);
  binaryCopy = undefined;
}
