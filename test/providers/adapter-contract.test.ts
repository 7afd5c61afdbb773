/**
 * The adapter contract (#27): every CLI adapter, with its built-in provider block as the config
 * loads it, read against the screens kept per CLI version in test/fixtures/screens/<cli>/<version>/
 * (comment lines, a `title:` line, the screen). Each version has at least:
 *   ready.txt  idle at an empty input box: ready, not busy
 *   busy.txt   working: busy (so no turn ends and no prompt goes in)
 *   paste.txt  a prompt pasted, not yet submitted: the paste shows (its text or the CLI's placeholder)
 *   limit.txt  a usage or rate limit: one of its limit patterns, and not a dialog
 * and may have ready-*.txt (ready-question*.txt: a turn that ended with the suite mock's question) / busy-*.txt / paste-*.txt / starting*.txt (not ready), trust-*.txt
 * (a dialog agentmux answers with its keys) and dialog-<question|permission>.txt (a dialog
 * that waits for a person). Adding a CLI is its adapter file plus such a folder. A new version of
 * an installed CLI gets its ready, busy, paste and limit screens from test/real-cli/record-screens.ts
 * (the real CLI in tmux against the suite's mock model).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { ADAPTERS, adapterFor } from "../../src/providers/adapters/registry.ts";
import { compileGate, pasteVisible, PASTE_PLACEHOLDER } from "../../src/effects/tmux/screen.ts";
import { Conversation, Provider, ReadyGate } from "../../src/schema/config.ts";
import { UsageSource } from "../../src/schema/usage.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";
import { dialogText, questionAtEnd } from "../../src/daemon/screen-facts.ts";
import { MOCK_QUESTION } from "../real-cli/mock-turns.ts";

const ROOT = join(REPO_ROOT, "test", "fixtures", "screens");
const PROMPT = 'Read and follow the instructions in "/home/u/repo/.agentmux/.sessions/s/02_architecting/architect_prompt.md"';
const { config } = loadConfig({ projectDir: REPO_ROOT, env: { HOME: "/nonexistent-home" } });

type Screen = { name: string; title: string; screen: string };

function read(dir: string, file: string): Screen {
  const lines = readFileSync(join(dir, file), "utf8").replace(/\n$/, "").split("\n");
  let i = 0;
  while (lines[i]?.startsWith("# ")) i++;
  expect(lines[i]).toStartWith("title: ");
  return { name: file.replace(/\.txt$/, ""), title: lines[i]!.slice("title: ".length), screen: lines.slice(i + 1).join("\n") };
}

const matches = (pattern: string, s: Screen) => new RegExp(pattern, "m").test(s.screen) || new RegExp(pattern, "m").test(s.title);

test("every adapter is a built-in provider of the same name, wired by itself, and every usage format and capture has its reader", () => {
  for (const a of ADAPTERS) {
    expect({ name: a.name, mcp: config.providers[a.name]?.mcp }).toEqual({ name: a.name, mcp: a.name as Provider["mcp"] });
    expect(a.checked.versions.length).toBeGreaterThan(0);
  }
  // the schema's closed lists name adapters only
  for (const m of Provider.shape.mcp.unwrap().options) if (m !== "none") expect(adapterFor(m)).not.toBeNull();
  for (const f of UsageSource.shape.format.options) expect(adapterFor(f)?.usage).toBeDefined();
  for (const c of Conversation.shape.capture.unwrap().options) if (c !== "none") expect(adapterFor(c)?.captureConversation).toBeDefined();
});

for (const adapter of ADAPTERS.filter((a) => a.name !== "sim")) {
  const provider = config.providers[adapter.name]!;
  const gate = compileGate(ReadyGate.parse(provider.ready));
  const cliDir = join(ROOT, adapter.name);

  describe(`${adapter.name} (${adapter.checked.how}: ${adapter.checked.versions.join(", ")})`, () => {
    test("has recorded screens for at least one version", () => {
      expect(existsSync(cliDir) ? readdirSync(cliDir).length : 0).toBeGreaterThan(0);
    });
    const versions = existsSync(cliDir) ? readdirSync(cliDir).sort() : [];
    for (const version of versions) {
      const dir = join(cliDir, version);
      const files = readdirSync(dir)
        .filter((f) => f.endsWith(".txt"))
        .sort();
      const screens = files.map((f) => read(dir, f));
      const of = (prefix: string) => screens.filter((s) => s.name === prefix || s.name.startsWith(`${prefix}-`));
      const dialogOpen = (s: Screen) => provider.dialogs.some((d) => matches(d.detect, s)) || provider.trust.some((t) => matches(t.detect, s));

      test(`${version}: ready, busy, paste and limit screens are there`, () => {
        for (const kind of ["ready", "busy", "paste", "limit"]) expect({ kind, n: of(kind).length }).not.toEqual({ kind, n: 0 });
      });

      test(`${version}: ready screens are ready and not busy, with no dialog open`, () => {
        for (const s of of("ready")) {
          expect({ s: s.name, ready: gate.ready ? gate.ready.test(s.screen) : true, busy: gate.isBusy(s), dialog: dialogOpen(s) }).toEqual({
            s: s.name,
            ready: true,
            busy: false,
            dialog: false,
          });
        }
      });

      test(`${version}: busy and starting screens are not a finished turn`, () => {
        for (const s of of("busy")) expect({ s: s.name, busy: gate.isBusy(s) }).toEqual({ s: s.name, busy: true });
        for (const s of of("starting"))
          expect({ s: s.name, takesPrompt: !gate.isBusy(s) && (gate.ready?.test(s.screen) ?? true) }).toEqual({ s: s.name, takesPrompt: false });
      });

      // a turn that ended asking (the agent's last words a question): agentmux answers it, it does not remind (#27)
      test(`${version}: ready-question screens end the turn with the agent's question, read from its main column`, () => {
        for (const s of of("ready").filter((x) => x.name.startsWith("ready-question")))
          expect({ s: s.name, question: questionAtEnd(s.screen, gate.ready, gate.main) }).toEqual({ s: s.name, question: MOCK_QUESTION });
        for (const s of of("ready").filter((x) => !x.name.startsWith("ready-question")))
          expect({ s: s.name, question: questionAtEnd(s.screen, gate.ready, gate.main) }).toEqual({ s: s.name, question: null });
      });

      test(`${version}: a pasted prompt shows against the fresh ready screen (its text or the CLI's own placeholder)`, () => {
        const ready = screens.find((s) => s.name === "ready")!;
        for (const s of of("paste")) expect({ s: s.name, shown: pasteVisible(ready.screen, s.screen, PROMPT, gate.paste) }).toEqual({ s: s.name, shown: true });
      });

      test(`${version}: the CLI's own paste placeholder is known to the default union too`, () => {
        for (const s of of("paste").filter((p) => !p.screen.includes("Read and follow the instructions in"))) {
          expect({ s: s.name, own: new RegExp(gate.paste.source).test(s.screen), union: new RegExp(PASTE_PLACEHOLDER.source).test(s.screen) }).toEqual({
            s: s.name,
            own: true,
            union: true,
          });
        }
      });

      test(`${version}: limit screens match a limit pattern and are not taken for a dialog`, () => {
        for (const s of of("limit")) {
          expect({
            s: s.name,
            limit: provider.limits.some((l) => new RegExp(l, "m").test(s.screen)),
            dialog: provider.dialogs.some((d) => matches(d.detect, s)),
          }).toEqual({ s: s.name, limit: true, dialog: false });
        }
        // and no other recorded screen looks like a limit
        for (const s of screens.filter((x) => !x.name.startsWith("limit")))
          expect({ s: s.name, limit: provider.limits.some((l) => new RegExp(l, "m").test(s.screen)) }).toEqual({ s: s.name, limit: false });
      });

      test(`${version}: trust screens are answered with their keys; person dialogs wait with their kind`, () => {
        for (const s of of("trust")) {
          const t = provider.trust.find((d) => matches(d.detect, s));
          expect({ s: s.name, answered: t?.keys.length ?? 0 }).not.toEqual({ s: s.name, answered: 0 });
          expect({ s: s.name, personDialog: provider.dialogs.some((d) => matches(d.detect, s)) }).toEqual({ s: s.name, personDialog: false });
        }
        for (const s of screens.filter((x) => x.name.startsWith("dialog-"))) {
          const kind = s.name.slice("dialog-".length).split("-")[0];
          expect({ s: s.name, kinds: provider.dialogs.filter((d) => matches(d.detect, s)).map((d) => d.kind) }).toEqual({
            s: s.name,
            kinds: [kind as "question" | "permission"],
          });
        }
      });

      // what the monitor's row and the run's state carry: the dialog's own question first (#27.3)
      test(`${version}: a person dialog's text starts with its question`, () => {
        for (const s of screens.filter((x) => x.name.startsWith("dialog-"))) {
          const d = provider.dialogs.find((x) => matches(x.detect, s))!;
          const first = dialogText(s.screen, s.title, new RegExp(d.detect, "m")).split(" · ")[0]!;
          expect({ s: s.name, first, asks: /\?["'”’)\]]*$/.test(first), onScreen: s.screen.includes(first) }).toEqual({
            s: s.name,
            first,
            asks: true,
            onScreen: true,
          });
        }
      });
    }
  });
}
