/**
 * #27.6: cursor and agy are asked their version once per run before their first start: what a
 * version takes (cursor's `--trust` in an interactive session from 2026.07.20, refused before)
 * goes into the launch, what it ignores (agy before 1.1.10: --model; 1.0.x: the workspace MCP
 * file; Linux 1.1.11: its Stop hook) is logged. The `--version` outputs are kept per version
 * under test/fixtures/versions/<cli>/<version>.txt (comment lines, then the output).
 * cursor's own chats: `create-chat` prints a new chat's id (test/fixtures/outputs/cursor/), the
 * launch continues it with `--resume <chatId>`, so a restarted cursor agent keeps its conversation.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { adapterFor } from "../../src/providers/adapters/registry.ts";
import { buildLaunch } from "../../src/providers/launch.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import { CliVersions } from "../../src/daemon/cli-versions.ts";
import { createConversation, createdId } from "../../src/daemon/conversation-create.ts";
import type { ProcResult } from "../../src/effects/process/run.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

const ROOT = join(REPO_ROOT, "test", "fixtures", "versions");
const { config } = loadConfig({ projectDir: REPO_ROOT, env: { HOME: "/nonexistent-home" } });
const output = (cli: string, file: string) =>
  readFileSync(join(ROOT, cli, file), "utf8")
    .split("\n")
    .filter((l) => !l.startsWith("# "))
    .join("\n");

/** per CLI and version: the args that version adds, and whether it has notes */
const EXPECTED: Record<string, Record<string, { argv: string[]; notes: number }>> = {
  cursor: { "2026.06.15": { argv: [], notes: 0 }, "2026.07.20": { argv: ["--trust"], notes: 0 }, "2026.09.02": { argv: ["--trust"], notes: 0 } },
  agy: { "1.0.10": { argv: [], notes: 1 }, "1.1.11": { argv: [], notes: 1 }, "1.2.7": { argv: [], notes: 0 } },
};

function launch(provider: string, cliVersion?: string, batch = false, conversation?: { id: string; resume: boolean }) {
  const c = structuredClone(config);
  c.defaults.provider = provider;
  return buildLaunch(resolveRole(c, "coder"), {
    sessionDir: "/s",
    projectDir: "/p",
    workDir: "/nonexistent-work",
    agentKey: "coder-1",
    selfCommand: ["/opt/agentmux"],
    home: "/nonexistent-home",
    ...(cliVersion ? { cliVersion } : {}),
    ...(batch ? { batchPrompt: "/s/p.md" } : {}),
    ...(conversation ? { conversation } : {}),
  });
}

for (const cli of ["cursor", "agy"]) {
  describe(`${cli}: its --version, recorded per version`, () => {
    const adapter = adapterFor(cli)!;
    for (const file of readdirSync(join(ROOT, cli)).sort()) {
      const version = file.replace(/\.txt$/, "");
      test(`${version}: read from its output; the args it takes and what it ignores`, () => {
        expect(adapter.version!.parse(output(cli, file))).toBe(version);
        const { argv, notes } = adapter.version!.adapt(version);
        expect({ argv, notes: notes.length }).toEqual(EXPECTED[cli]![version]!);
      });
    }
    test("an output without a version is none", () => {
      expect(adapter.version!.parse("command not found\n")).toBeNull();
      expect(adapter.version!.parse("")).toBeNull();
    });
  });
}

test("cursor's launch: --trust only for a version that takes it interactively, never twice in a batch run", () => {
  expect(launch("cursor", "2026.07.20").argv).toContain("--trust");
  expect(launch("cursor", "2026.06.15").argv).not.toContain("--trust");
  expect(launch("cursor").argv).not.toContain("--trust"); // unknown: what every version takes
  expect(launch("cursor", "2026.09.02", true).argv.filter((a) => a === "--trust")).toEqual(["--trust"]); // its batch args have it
});

test("asked once per command, bounded; a slow or failing answer is no version, said in the log", async () => {
  const calls: string[][] = [];
  const answers: Record<string, ProcResult> = {
    "cursor-agent": { code: 0, stdout: "2026.07.20-f0e1d2c\n", stderr: "" },
    agy: { code: 124, stdout: "", stderr: "", timedOut: true },
    "old-agy": { code: 0, stdout: "1.0.10\n", stderr: "" },
  };
  const logs: { msg: string; level?: string }[] = [];
  const versions = new CliVersions(
    async (argv, opts) => {
      calls.push(argv);
      expect(opts?.timeoutMs).toBe(5_000);
      return answers[argv[0]!]!;
    },
    (msg, o) => logs.push({ msg, level: o?.level }),
  );
  const cursor = adapterFor("cursor")!;
  const agy = adapterFor("agy")!;
  expect(await Promise.all([versions.of("cursor-agent", cursor, {}), versions.of("cursor-agent", cursor, {})])).toEqual(["2026.07.20", "2026.07.20"]);
  expect(await versions.of("agy", agy, {})).toBeNull();
  expect(await versions.of("old-agy", agy, {})).toBe("1.0.10");
  expect(await versions.of("claude", adapterFor("claude")!, {})).toBeNull(); // nothing of claude's depends on it: not asked
  expect(calls).toEqual([
    ["cursor-agent", "--version"],
    ["agy", "--version"],
    ["old-agy", "--version"],
  ]);
  expect(logs[0]).toEqual({ msg: "cursor-agent --version: 2026.07.20; adds --trust", level: undefined });
  expect(logs[1]).toEqual({ msg: "agy --version: no answer within 5 s; started with the args every version takes", level: "warn" });
  expect(logs[3]!.msg).toStartWith("old-agy 1.0.10: agy 1.0.x takes a model by its display name");
});

test("cursor: a chat made with create-chat before the launch is continued with --resume, as a restart continues it", async () => {
  const out = output("..", join("outputs", "cursor", "create-chat.txt"));
  const id = createdId(out)!;
  expect(id).toBe("5b0c7e2a-3d41-4f8e-9a6c-2e7d1f0b4c93");
  expect(config.providers.cursor!.conversation).toEqual({ start: [], create: ["create-chat"], resume: ["--resume", "{id}"], capture: "none" });
  expect(launch("cursor", undefined, false, { id, resume: false }).argv.slice(0, 3)).toEqual(["cursor-agent", "--resume", id]);
  expect(launch("cursor", undefined, false, { id, resume: true }).argv.slice(0, 3)).toEqual(["cursor-agent", "--resume", id]);
  // claude picks with --session-id and continues with --resume: unchanged
  expect(launch("claude", undefined, false, { id, resume: false }).argv.slice(1, 3)).toEqual(["--session-id", id]);

  const logs: string[] = [];
  const chat = { agent: "coder-1", command: "cursor-agent", args: ["create-chat"], env: {}, cwd: "/w" };
  const made = await createConversation(
    async (argv) => ({ code: 0, stdout: argv.join(" ") === "cursor-agent create-chat" ? out : "", stderr: "" }),
    (m) => logs.push(m),
    chat,
  );
  expect(made).toBe(id);
  // not signed in, or a slow service: a fresh conversation, said in the log
  const failed = await createConversation(
    async () => ({ code: 1, stdout: "", stderr: "Error: not logged in" }),
    (m) => logs.push(m),
    chat,
  );
  expect(failed).toBeNull();
  expect(logs).toEqual([
    `coder-1: cursor-agent create-chat made conversation ${id}`,
    "coder-1: cursor-agent create-chat: exit 1: Error: not logged in; it starts a conversation agentmux cannot continue after a restart",
  ]);
  expect(createdId("Created chat\n")).toBeNull();
});
