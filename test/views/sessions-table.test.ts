import { expect, test } from "bun:test";
import { toPlain } from "../../src/views/line.ts";
import { sessionsTable } from "../../src/views/sessions.ts";
import type { SessionSummary } from "../../src/session/list.ts";
import { stateIn } from "../tui/fixtures.ts";

const session = (id: string, live: boolean): SessionSummary => ({
  id,
  dir: `/p/.agentmux/.sessions/${id}`,
  state: live ? stateIn("completing", { awaiting_decision: true }) : stateIn("done"), // PHASE "awaiting approval": the widest
  live,
  ageMs: 240_000,
  updatedAt: 0,
  socket: "agentmux",
});

/**
 * Every row fits the width it is given, its leading "› " / "  " counted: at 80 columns the
 * home screen and `agentmux sessions` used to cut the STATUS of a session with a long id to
 * "○ stop…", and the LAST EVENT column was kept 2 columns past where it fits.
 */
test("rows fit the width with the STATUS whole, the selection mark counted", () => {
  const list = [session("20261127-105808-add-a-greeting", false), session("20261127-105723-add-a-hello-world-script", true)];
  for (const width of [80, 100, 120]) {
    for (const selected of [undefined, 0, 1]) {
      const rows = sessionsTable(list, width, selected).map(toPlain);
      for (const row of rows) expect({ width, row, cells: row.length <= width }).toEqual({ width, row, cells: true });
      expect(rows[1]!.trimEnd()).toEndWith("○ stopped");
      expect(rows[2]!.trimEnd()).toEndWith("● live");
      expect(rows[2]).toContain("awaiting approval");
    }
  }
  // wide enough for every id and LAST EVENT: nothing is cut
  const wide = sessionsTable(list, 120).map(toPlain);
  expect(wide[0]).toContain("LAST EVENT");
  expect(wide.join("\n")).not.toContain("…");
});
