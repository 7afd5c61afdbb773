import { bridgeSpec, endpointOf, json, mcpFile } from "../mcp.ts";
import type { CliAdapter } from "./types.ts";

/** The built-in simulated agent (src/sim): claude's MCP file, its role and scenario in its env. */
export const sim: CliAdapter = {
  name: "sim",
  checked: { how: "measured", versions: ["built in"] },
  config: String.raw`
# The built-in simulated agent: 'agentmux sim-agent' (tests, demo, CI).
command: "@self"
args: [sim-agent]
model_flag: null
default_model: null
env: {}
mcp: sim
# pre-started like the real CLIs: its start and MCP connection (a few hundred ms) leave the
# handoff, and the demo and the tests go through the same handoff path as a real run
prestart: true
trust:
  - detect: "Trust this folder\\? \\(sim\\)"
    keys: [Enter]
pre_trust: false
dialogs:
  - detect: "\\[sim\\] permission: "
    kind: permission
    dismiss: [Escape]
limits:
  - "\\[sim\\] usage limit reached"
conversation: { start: [--session-id, "{id}"], resume: [--resume, "{id}"] }
# the simulated agent writes its usage in claude's format (or codex's, with --transcript codex) into the session
usage:
  - { format: claude, home: "{session}/.runtime/sim/claude" }
  - { format: codex, home: "{session}/.runtime/sim/codex" }
batch: { args: [--prompt], mode: flag }
# no submit delay: the simulated agent takes a bracketed paste as one event, so once its
# placeholder shows (the delivery waits for that) the paste is in and Enter submits it
# (test/sim/difficulties.test.ts). Its early_enter_ms scenario models a CLI that needs a
# delay; give that one 'submit.delay_ms' as you would the real CLI (the real CLIs keep theirs,
# measured in reference/real-cli-behaviour.md)
submit: { delay_ms: 0, keys: [Enter], retries: 2, verify_ms: 1500 }
ready:
  pattern: "\\[sim\\] ready"
  busy_pattern: "\\[sim\\] working"
  # no settle wait either: the simulated agent takes input from the moment its ready line is
  # drawn (its slow_start scenario draws nothing before then); claude swallows an Enter in
  # its first second, so the real CLIs keep theirs
  settle_ms: 0
  timeout_ms: 30000
`,
  mcp: (agent, ctx) => {
    const { url, token } = endpointOf(ctx);
    const path = mcpFile(ctx, "sim");
    const server =
      agent.provider.mcp_transport === "http" ? { type: "http", url, headers: { Authorization: `Bearer ${token}` } } : { type: "stdio", ...bridgeSpec(ctx) };
    const env = {
      AGENTMUX_SESSION_DIR: ctx.sessionDir,
      AGENTMUX_PROJECT_DIR: ctx.workDir,
      AGENTMUX_ROLE: agent.role,
      AGENTMUX_AGENT: ctx.agentKey,
      AGENTMUX_SIM_SCENARIO: agent.sim.scenario.join(","),
      AGENTMUX_SIM_THINK_MS: String(agent.sim.think_ms),
    };
    return { argv: ["--mcp-config", path], env, files: [{ path, content: json({ mcpServers: { agentmux: server } }), secret: true }] };
  },
  mcpNote: "--mcp-config <private folder>/<agent>.sim.json (0600, under ~/.cache/agentmux)",
  // the sim writes its usage in claude's or codex's format (its usage sources name those readers)
  toolName: (t) => t,
};
