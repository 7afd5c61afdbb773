import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArtifact } from "../../src/artifacts/parse.ts";
import { formatProblem } from "../../src/artifacts/problems.ts";
import { readToolLines } from "../../src/bus/tool-lines.ts";
import { toolLineToEvent } from "../../src/bus/tool-events.ts";
import { loadSealKey, sealLine, type SealKey } from "../../src/bus/tool-seal.ts";
import { writeSnapshot } from "../../src/mcp/snapshot.ts";
import { ROLE_TOOLS, TOOL_PHASES, type Phase, type Role, type ToolName } from "../../src/schema/catalog.ts";
import { commitChanges } from "../../src/effects/git/commit.ts";
import { BORDER_FORMAT, createSession } from "../../src/effects/tmux/session.ts";
import { LABEL_MAX, Layout } from "../../src/effects/tmux/layout.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { formatError, isAgentmuxError } from "../../src/errors.ts";
import { TOOL_HANDLERS } from "../../src/mcp/tools.ts";
import type { State } from "../../src/schema/state.ts";
import { createSessionDir } from "../../src/session/create.ts";
import { F, doneArtifact, reviewYaml } from "../../src/protocol/paths.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import type { CorpusCase } from "./case-schema.ts";

export const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
/** Where gate and tool-lines cases keep their session folder, relative to the work folder. */
export const SESSION = ".agentmux/.sessions/s1";

export type Ctx = { work: string; home: string; socket: string; expand: (s: string) => string };
export type Outcome = { code?: number; outcome?: "refused" | "accepted"; output: string };

const errorText = (e: unknown): string => (isAgentmuxError(e) ? formatError(e) : `agentmux: internal error: ${(e as Error)?.stack ?? String(e)}`);

async function cli(c: CorpusCase, x: Ctx): Promise<Outcome> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "TMUX" && k !== "TMUX_PANE") env[k] = v;
  Object.assign(env, { HOME: x.home, XDG_CONFIG_HOME: join(x.home, ".config"), CI: "true", NO_COLOR: "1", AGENTMUX_TMUX_SOCKET: x.socket });
  const p = Bun.spawn([BUN, join(REPO_ROOT, "src", "main.ts"), ...c.args.map(x.expand)], { cwd: x.work, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, output: out + err };
}

/** A phase in which the tool is accepted (the corpus is about the lines, not the run's progress). */
const phaseOf = (tool: ToolName): Phase => TOOL_PHASES[tool][0]!;

/**
 * The corpus writes lines as the endpoint would, minus what only the endpoint can add: every
 * line that is a JSON object with a `tool` and no `seal` is sealed here as the run's endpoint
 * (agent/role: the tool's first role, a snapshot of the artifact it names as it is on disk),
 * so the cases exercise what happens to the lines around a bad one. `"seal": "none"` keeps a
 * line unsealed: a line an agent appended by hand.
 */
function sealCaseLines(path: string, key: SealKey): void {
  if (!existsSync(path)) return;
  const sessionDir = join(path, "..");
  const text = readFileSync(path, "utf8");
  let seq = 0;
  const out = text.split("\n").map((line) => {
    let v: any;
    try {
      v = JSON.parse(line);
    } catch {
      return line;
    }
    if (!v || typeof v !== "object" || Array.isArray(v) || typeof v.tool !== "string" || (typeof v.seal === "string" && v.seal !== "none")) return line;
    if (v.seal === "none") {
      delete v.seal;
      return JSON.stringify(v);
    }
    const role = (Object.keys(ROLE_TOOLS) as Role[]).find((r) => ROLE_TOOLS[r].includes(v.tool)) ?? "coder";
    const file = snapshotSource(v.tool, v.payload);
    if (file && existsSync(join(sessionDir, file)) && v.payload && typeof v.payload === "object")
      v.payload.snapshot = writeSnapshot(sessionDir, readFileSync(join(sessionDir, file)), file);
    return sealLine(key, JSON.stringify({ ...v, agent: v.agent ?? role, role: v.role ?? role, seq: ++seq }));
  });
  writeFileSync(path, out.join("\n"));
}

function snapshotSource(tool: string, payload: any): string | null {
  if (tool === "submit_plan") return F.planYaml;
  if (tool === "submit_review" && typeof payload?.role === "string") return reviewYaml(payload.role);
  if (tool === "submit_done" && Number.isInteger(payload?.subplan_index)) return doneArtifact(payload.subplan_index);
  return null;
}

/** Every complete line of the session's tool_events.jsonl, as the bus sees it: an error or the event it becomes. */
async function toolLines(_c: CorpusCase, x: Ctx): Promise<Outcome> {
  const sessionDir = join(x.work, SESSION);
  const key = loadSealKey(sessionDir);
  const lines = readToolLines(join(sessionDir, F.toolEvents), 0);
  const out: string[] = [`${lines.length} complete line(s)`];
  let rejected = false;
  for (const l of lines) {
    if (!l.value) {
      rejected = true;
      out.push(`rejected (before byte ${l.end}): ${l.error}`);
      continue;
    }
    const ctx = { sessionDir, key, phase: phaseOf(l.value.tool), appliedSeq: 0 };
    const r = toolLineToEvent(l.value, l.text, ctx);
    if ("skip" in r) continue;
    const ev = r.event;
    if (ev.type === "tool_rejected") {
      rejected = true;
      out.push(`event tool_rejected ${ev.tool}: ${ev.reason}`);
    } else out.push(`event ${ev.type}`);
  }
  return { outcome: rejected ? "refused" : "accepted", output: out.join("\n") };
}

/** The real submit_done handler: done_<N>.json is read, validated and checked against the work tree. */
async function gate(c: CorpusCase, x: Ctx): Promise<Outcome> {
  const r = await TOOL_HANDLERS.submit_done(
    { sessionDir: join(x.work, SESSION), role: "coder", state: {} as State, workDir: x.work },
    { subplan_index: c.subplan },
  );
  return r.ok ? { outcome: "accepted", output: r.text } : { outcome: "refused", output: r.message };
}

/** The approval flow's first half: approval.json must parse, then the commit validates its excludes. */
async function commit(_c: CorpusCase, x: Ctx): Promise<Outcome> {
  const file = join(x.work, SESSION, F.approval);
  const parsed = parseArtifact("approval", readFileSync(file, "utf8"));
  if (!parsed.ok) return { outcome: "refused", output: parsed.problems.map((p) => `${F.approval}: ${formatProblem(p)}`).join("\n") };
  try {
    const r = await commitChanges(x.work, {
      branch: "feature/corpus",
      message: parsed.value.commit_message ?? "corpus commit",
      excludeFiles: parsed.value.exclude_files,
    });
    return { outcome: "accepted", output: `committed ${r.short}` };
  } catch (e) {
    return { outcome: "refused", output: errorText(e) };
  }
}

/** A session folder for a hostile request: its id and tmux name must be safe, the request kept verbatim. */
async function session(c: CorpusCase, x: Ctx): Promise<Outcome> {
  const request = x.expand(c.text);
  try {
    const s = createSessionDir({ projectDir: x.work, request, productManager: false });
    const req = readFileSync(join(s.dir, F.requirements), "utf8");
    const lines = [
      `id ${s.id}`,
      `id safe ${/^\d{8}-\d{6}-[a-z0-9]+(-[a-z0-9]+)*$/.test(s.id) && s.id.length <= 64}`,
      `tmux name safe ${/^agentmux-[A-Za-z0-9._-]+$/.test(s.state.session_name)}`,
      `request kept verbatim ${req.includes(request.trim())}`,
    ];
    return { outcome: "accepted", output: lines.join("\n") };
  } catch (e) {
    return { outcome: "refused", output: errorText(e) };
  }
}

/**
 * A hostile string as a pane's command argument and as its label, on a private tmux server:
 * the program must receive the exact bytes and the label must display literally (a format or
 * job sequence that tmux expanded would not show as itself).
 */
async function tmux(c: CorpusCase, x: Ctx): Promise<Outcome> {
  const hostile = x.expand(c.text);
  const t = new Tmux(x.socket);
  const received = join(x.home, "received.txt");
  const { controlPane } = await createSession(t, {
    name: "corpus",
    cwd: x.work,
    width: 120,
    height: 40,
    controlWidth: 40,
    controlCommand: ["sh", "-c", 'printf "%s" "$1" > "$2.tmp" && mv "$2.tmp" "$2"; exec sleep 600', "sh", hostile, received],
  });
  const got = await waitFor("the pane command to write its argument", () => existsSync(received) && readFileSync(received, "utf8"));
  const layout = await Layout.open(t, { session: "corpus", controlPane, controlWidth: 40, envDir: join(x.work, ".env") });
  await layout.setLabel(controlPane, hostile);
  const shown = await t.run(["display-message", "-p", "-t", controlPane, BORDER_FORMAT]);
  // tmux keeps an escaped style start as "##[" in the title (drawn as a literal "#[")
  const title = await t.run(["display-message", "-p", "-t", controlPane, "#{pane_title}"]);
  return {
    outcome: "accepted",
    output: [
      `argument intact ${got === hostile}`,
      `label literal ${shown.includes(` ${hostile.slice(0, LABEL_MAX)} `)}`,
      `title literal ${title.replaceAll("##[", "#[") === hostile.slice(0, LABEL_MAX)}`,
      `label shown: ${shown.slice(0, 200)}`,
      `title shown: ${title.slice(0, 200)}`,
    ].join("\n"),
  };
}

/** Set-up a runner needs before the "nothing changed" snapshot is taken. */
export const PREPARE: Partial<Record<CorpusCase["run"], (c: CorpusCase, x: Ctx) => void>> = {
  "tool-lines": (_c, x) => sealCaseLines(join(x.work, SESSION, F.toolEvents), loadSealKey(join(x.work, SESSION))),
};

export const RUNNERS: Record<CorpusCase["run"], (c: CorpusCase, x: Ctx) => Promise<Outcome>> = {
  cli,
  "tool-lines": toolLines,
  gate,
  commit,
  session,
  tmux,
};
