import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { lineViolations, sources, SRC } from "./imports.ts";

/**
 * Adapters own their vocabularies. Only src/effects/tmux/ speaks tmux (command names,
 * `#{…}` formats, `tmux -L …` command lines); only src/effects/process/ starts processes; only
 * src/effects/git/ imports isomorphic-git. Everything else calls their typed functions.
 */

/** Every tmux 3.3 command (`tmux list-commands`), full names: none of them is an English word. */
const TMUX_COMMANDS = `attach-session bind-key break-pane capture-pane choose-buffer choose-client choose-tree clear-history
clear-prompt-history clock-mode command-prompt confirm-before copy-mode customize-mode delete-buffer detach-client display-menu
display-message display-popup display-panes find-window has-session if-shell join-pane kill-pane kill-server kill-session
kill-window last-pane last-window link-window list-buffers list-clients list-commands list-keys list-panes list-sessions
list-windows load-buffer lock-client lock-server lock-session move-pane move-window new-session new-window next-layout
next-window paste-buffer pipe-pane previous-layout previous-window refresh-client rename-session rename-window resize-pane
resize-window respawn-pane respawn-window rotate-window run-shell save-buffer select-layout select-pane select-window
send-keys send-prefix server-access set-buffer set-environment set-hook set-option set-window-option show-buffer
show-environment show-hooks show-messages show-options show-prompt-history show-window-options source-file split-window
start-server suspend-client swap-pane swap-window switch-client unbind-key unlink-window wait-for`.split(/\s+/);

const TMUX_RULES: [RegExp, string][] = [
  [new RegExp(`(?<![\\w-])(${TMUX_COMMANDS.join("|")})(?![\\w-])`), "names a tmux command"],
  [/#\{[a-z_@?!=]/, "writes a tmux format"],
  [/\[\s*["'`]tmux["'`]/, "starts a tmux argv"],
  [/tmux -L/, "writes a tmux command line"],
];

/** isomorphic-git is one adapter's library: everything else asks src/effects/git/. */
const GIT_LIBRARY_RULES: [RegExp, string][] = [[/["']isomorphic-git(\/[^"']*)?["']/, "imports isomorphic-git"]];

const PROCESS_RULES: [RegExp, string][] = [
  [/\bBun\.spawn(Sync)?\b/, "spawns with Bun.spawn"],
  [/["']node:child_process["']|["']child_process["']/, "imports child_process"],
  [/\bBun\.\$/, "runs a Bun shell"],
];

const violations = lineViolations;

const read = (under: (rel: string) => boolean) =>
  sources(SRC)
    .map((p) => ({ path: relative(SRC, p), text: readFileSync(p, "utf8") }))
    .filter((f) => under(f.path));

describe("boundaries: one tmux vocabulary, one process layer, one git library", () => {
  test("no file outside src/effects/tmux/ builds tmux argv, formats or command lines", () => {
    expect(
      violations(
        read((p) => !p.startsWith("effects/tmux/")),
        TMUX_RULES,
      ),
    ).toEqual([]);
  });

  test("no file outside src/effects/process/ starts a process", () => {
    expect(
      violations(
        read((p) => !p.startsWith("effects/process/")),
        PROCESS_RULES,
      ),
    ).toEqual([]);
  });

  test("no file outside src/effects/git/ imports isomorphic-git", () => {
    expect(
      violations(
        read((p) => !p.startsWith("effects/git/")),
        GIT_LIBRARY_RULES,
      ),
    ).toEqual([]);
    // the rule matches the adapter's own imports, static and dynamic
    expect(
      violations(
        read((p) => p.startsWith("effects/git/")),
        GIT_LIBRARY_RULES,
      ).length,
    ).toBeGreaterThan(5);
    const bad = [
      { path: "sim/x.ts", text: 'import git from "isomorphic-git";\nconst { default: g } = await import("isomorphic-git");\n// isomorphic-git in prose' },
    ];
    expect(violations(bad, GIT_LIBRARY_RULES).map((v) => v.split(" ")[0])).toEqual(["sim/x.ts:1", "sim/x.ts:2"]);
  });

  test("the checks see what they forbid", () => {
    const bad = [
      { path: "tui/x.ts", text: 'await tmux.exec(["select-pane", "-t", pane]);' },
      { path: "session/y.ts", text: 'tmux.run(["list-sessions", "-F", "#{session_name}"])' },
      { path: "launcher/z.ts", text: 'const hint = `tmux -L ${s} attach -t ${n}`;\nBun.spawn(["tmux", "-V"]);' },
      { path: "cli/ok.ts", text: "// select-pane in a comment is prose\nconst re = /^#{1,2}\\s/;" },
    ];
    const found = violations(bad, TMUX_RULES);
    expect(found.map((v) => v.split(" ")[0])).toEqual(["tui/x.ts:1", "session/y.ts:1", "session/y.ts:1", "launcher/z.ts:1", "launcher/z.ts:2"]);
    expect(violations(bad, PROCESS_RULES).map((v) => v.split(" ")[0])).toEqual(["launcher/z.ts:2"]);
    // and the adapters themselves do speak it (the rules match real code)
    expect(
      violations(
        read((p) => p.startsWith("effects/tmux/")),
        TMUX_RULES,
      ).length,
    ).toBeGreaterThan(10);
  });
});
