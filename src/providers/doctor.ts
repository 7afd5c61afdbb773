import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import { adapterFor } from "./adapters/registry.ts";
import { ROLES } from "../schema/catalog.ts";
import type { Config } from "../schema/config.ts";
import { buildLaunch } from "./launch.ts";
import { providersInUse, resolveRole } from "./resolve.ts";
import { preTrust } from "./trust.ts";
import { sandboxAvailability, sandboxedRoles } from "../sandbox/available.ts";

import type { ProcResult, Runner } from "../effects/process/run.ts";

export type DoctorCheck = { ok: boolean; label: string; detail: string; fix?: string; required: boolean };
export type DoctorReport = { checks: DoctorCheck[]; ok: boolean };

export type DoctorOptions = {
  /** the PATH to search (tests pass a temp folder of fake CLIs) */
  path: string;
  exec: Runner;
  /** how tmux is asked for its version; production passes the single tmux runner's argv */
  tmuxVersionArgv: string[];
  projectDir: string;
  home: string;
  selfCommand: string[];
  env?: Record<string, string>;
  /** per-command timeout (default 5 s) */
  timeoutMs?: number;
  /** the operating system the sandbox check assumes (default: this one) */
  platform?: NodeJS.Platform;
};

const MIN_TMUX: [number, number] = [3, 2];
const VERSION_TIMEOUT_MS = 5000;

/** The first executable named `name` on `path` (or `name` itself when it is a path). */
export function findOnPath(name: string, path: string): string | null {
  const candidates =
    isAbsolute(name) || name.includes("/")
      ? [name]
      : path
          .split(delimiter)
          .filter(Boolean)
          .map((d) => join(d, name));
  for (const c of candidates) {
    try {
      if (statSync(c).isFile()) {
        accessSync(c, constants.X_OK);
        return c;
      }
    } catch {
      // not here
    }
  }
  return null;
}

const firstLine = (r: ProcResult) => (r.stdout.trim() || r.stderr.trim()).split("\n")[0]!.trim();

/** Parses "tmux 3.3a" / "tmux next-3.5" → [3, 3]. */
export function parseTmuxVersion(text: string): [number, number] | null {
  const m = /(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * What `agentmux doctor` checks: tmux ≥ 3.2; each provider the configured roles use (CLI on
 * PATH, `--version` within 5 s, the trust and MCP wiring agentmux will pass); the sandbox
 * (bubblewrap makes one here: required when the config asks for it); gh and its
 * login when pull requests are on. `ok` is false when something the configuration needs is missing.
 */
export async function runDoctor(config: Config, opts: DoctorOptions): Promise<DoctorReport> {
  const env = { ...(opts.env ?? {}), PATH: opts.path };
  const timeoutMs = opts.timeoutMs ?? VERSION_TIMEOUT_MS;
  const checks: DoctorCheck[] = [];

  const tmux = await opts.exec(opts.tmuxVersionArgv, { timeoutMs, env }).catch(() => null);
  const tv = tmux && tmux.code === 0 ? parseTmuxVersion(tmux.stdout) : null;
  if (!tv) {
    checks.push({ ok: false, required: true, label: "tmux", detail: "not found", fix: "install tmux 3.2 or newer (e.g. apt install tmux, brew install tmux)" });
  } else {
    const ok = tv[0] > MIN_TMUX[0] || (tv[0] === MIN_TMUX[0] && tv[1] >= MIN_TMUX[1]);
    checks.push({ ok, required: true, label: "tmux", detail: firstLine(tmux!), fix: ok ? undefined : "upgrade tmux to 3.2 or newer" });
  }

  checks.push(await sandboxCheck(config, opts, timeoutMs));

  const roleNames = ROLES.filter((r) => r !== "designer" || config.roles.designer);
  for (const name of providersInUse(config, roleNames)) {
    const provider = config.providers[name]!;
    const roles = ROLES.filter((r) => (config.roles[r]?.provider ?? config.defaults.provider) === name);
    const label = `${name} (${roles.length === ROLES.length ? "all roles" : roles.length ? roles.join(", ") : "default provider"})`;
    if (provider.command === "@self") {
      checks.push({ ok: true, required: true, label, detail: `built into agentmux (${opts.selfCommand.join(" ")} sim-agent)` });
    } else {
      const found = findOnPath(provider.command, opts.path);
      if (!found) {
        checks.push({ ok: false, required: true, label, detail: `"${provider.command}" not found on PATH`, fix: installHint(name, provider) });
      } else {
        const r = await opts.exec([found, "--version"], { timeoutMs, env }).catch((e): ProcResult => ({ code: 1, stdout: "", stderr: String(e) }));
        // a slow answer is a loaded machine, not a missing CLI: the run starts it all the same
        const ok = r.code === 0 || !!r.timedOut;
        const detail = r.timedOut
          ? `${found}: found; its --version did not answer within ${timeoutMs / 1000} s (a busy machine; the version is not known)`
          : `${found}: ${firstLine(r) || `exit ${r.code}`}`;
        checks.push({ ok, required: true, label, detail, fix: ok ? undefined : `run "${found} --version" yourself to see what is wrong` });
        // what this version takes or ignores (cursor's --trust, agy's --model before 1.1.10)
        const v = r.code === 0 ? adapterFor(provider.mcp)?.version : undefined;
        const version = v?.parse(`${r.stdout}\n${r.stderr}`);
        if (v && version) {
          const { argv, notes } = v.adapt(version);
          if (argv.length)
            checks.push({ ok: true, required: false, label: `${name} ${version}`, detail: `started with ${argv.join(" ")} (this version takes it)` });
          for (const note of notes) checks.push({ ok: true, required: false, label: `${name} ${version}`, detail: note });
        }
      }
    }
    checks.push({ ok: true, required: false, label: `${name} wiring`, detail: wiringSummary(config, name, opts) });
    const adapter = adapterFor(provider.mcp);
    if (adapter?.checked.how === "published") {
      checks.push({
        ok: true,
        required: false,
        label: `${name} support`,
        detail: `built from the published behaviour of ${adapter.name} ${adapter.checked.versions.join(", ")} (other tools' recorded screens and docs); not yet run on this machine: tell us how it goes`,
      });
    }
    checks.push(...(adapter?.doctor?.(opts.env ?? {}) ?? []).map((c) => ({ ...c, required: false })));
  }

  // gh only opens pull requests: without it a run still commits (and pushes with git), and says
  // at its start and end that no pull request is opened — so gh is never required
  const needGh = config.github.pull_request;
  const without = "runs commit and push, but open no pull request";
  const gh = findOnPath("gh", opts.path);
  if (!gh) {
    checks.push(
      needGh
        ? {
            ok: false,
            required: false,
            label: "gh",
            detail: `not found on PATH (${without})`,
            fix: "install the GitHub CLI (https://cli.github.com) and run gh auth login, or set github.pull_request: false",
          }
        : { ok: false, required: false, label: "gh", detail: "not installed (not needed: github.pull_request is false)" },
    );
  } else {
    const r = await opts.exec([gh, "auth", "status"], { timeoutMs, env }).catch((e): ProcResult => ({ code: 1, stdout: "", stderr: String(e) }));
    const ok = r.code === 0;
    const detail = ok ? `${gh}: logged in` : `${gh}: not logged in (${firstLine(r)})${needGh ? `; ${without}` : ""}`;
    checks.push({ ok, required: false, label: "gh", detail, fix: ok || !needGh ? undefined : "run: gh auth login" });
  }
  return { checks, ok: checks.every((c) => c.ok || !c.required) };
}

/** Whether agents can run in the sandbox here; required only when the config asks for it. */
async function sandboxCheck(config: Config, opts: DoctorOptions, timeoutMs: number): Promise<DoctorCheck> {
  const roles = sandboxedRoles(config, ROLES);
  const a = await sandboxAvailability({
    bwrap: findOnPath("bwrap", opts.path),
    exec: opts.exec,
    timeoutMs,
    ...(opts.platform ? { platform: opts.platform } : {}),
  });
  const use = roles.length === ROLES.length ? "on for every role" : roles.length ? `on for ${roles.join(", ")}` : "off (sandbox: false)";
  if (a.ok) return { ok: true, required: roles.length > 0, label: "sandbox", detail: `available (${a.version}, ${a.bwrap}); ${use}` };
  return { ok: false, required: roles.length > 0, label: "sandbox", detail: `not available: ${a.reason}; ${use}`, fix: a.fix };
}

/** One line on what agentmux passes to a provider: MCP wiring and trust handling. */
function wiringSummary(config: Config, name: string, opts: DoctorOptions): string {
  const role = ROLES.find((r) => (config.roles[r]?.provider ?? config.defaults.provider) === name) ?? "coder";
  const agent = { ...resolveRole(config, role), providerName: name, provider: config.providers[name]! };
  const ctx = {
    sessionDir: "<session>",
    projectDir: opts.projectDir,
    workDir: opts.projectDir,
    agentKey: role,
    selfCommand: opts.selfCommand,
    home: opts.home,
  };
  const spec = buildLaunch(agent, ctx);
  const p = agent.provider;
  const mcp =
    p.mcp === "none"
      ? "no MCP wiring: completion tools unavailable"
      : `MCP: the run's endpoint over ${p.mcp_transport === "http" ? "HTTP" : "stdio (agentmux mcp-server)"} via ${adapterFor(p.mcp)?.mcpNote}`;
  const trust = preTrust(agent, opts.projectDir, opts.home).note;
  const model = agent.model ? `model ${agent.model}` : "model: CLI default";
  return `${mcp}; trust: ${trust}; ${model}; ${spec.argv.length} args`;
}

function installHint(name: string, provider: { command: string; npm_package: string | null; mcp: string }): string {
  if (provider.npm_package) return `install it: npm i -g ${provider.npm_package} (or pick another provider in .agentmux/config.yaml)`;
  const how = adapterFor(provider.mcp)?.install;
  const or = `or fix providers.${name}.command, or pick another provider in .agentmux/config.yaml`;
  return how ? `install it: ${how}; ${or}` : `install "${provider.command}" so that it is on PATH; ${or}`;
}

/** `✓ label  detail` / `✗ label  detail` + `    fix: …` lines. */
export function formatDoctor(report: DoctorReport): string {
  const lines: string[] = [];
  for (const c of report.checks) {
    // a missing optional piece is informational, not a failure
    lines.push(`${c.ok ? "✓" : c.required ? "✗" : "○"} ${c.label}: ${c.detail}`);
    if (!c.ok && c.fix) lines.push(`    fix: ${c.fix}`);
  }
  lines.push(report.ok ? "everything the configured roles need is here" : "missing pieces above; agentmux cannot run until they are fixed");
  return lines.join("\n") + "\n";
}
