import { basename } from "node:path";
import { snapshot } from "../../src/report/snapshot.ts";
import type { CreatedFile } from "../../src/session/data.ts";
import type { RuntimeState } from "../../src/schema/runtime.ts";
import type { State } from "../../src/schema/state.ts";
import type { MonitorInput } from "../../src/views/monitor.ts";
import type { RunSnapshot } from "../../src/schema/run-api/snapshot.ts";

/** A session's files as the monitor reads them: live (it runs in the run's tmux session), no tool-call count. */
export type MonitorSession = { dir: string; state: State; runtime?: RuntimeState; created?: CreatedFile[]; now: number };

/** The run's snapshot as the monitor derives it (tui/monitor-app.ts). */
export const monitorRun = (d: MonitorSession): RunSnapshot =>
  snapshot({
    dir: d.dir,
    state: d.state,
    runtime: d.runtime,
    created: d.created,
    id: basename(d.dir),
    live: true,
    toolEvents: d.state.applied_tool_events ?? 0,
    now: d.now,
  });

/** What monitorView draws for a session: its snapshot, and where the user is. */
export const monitorInput = (d: MonitorSession & { selected?: number; prefix?: string }): MonitorInput => ({
  run: monitorRun(d),
  now: d.now,
  selected: d.selected,
  prefix: d.prefix,
});
