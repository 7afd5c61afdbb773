import type { Logger } from "../effects/log.ts";
import type { Runner } from "../effects/process/run.ts";
import type { CliAdapter } from "../providers/adapters/types.ts";

/** `--version` on a loaded machine may be slow; a start never waits longer than this for it */
export const VERSION_PROBE_MS = 5_000;

/**
 * The version of each CLI whose adapter adapts to it (cursor, agy), asked once per run before
 * its first start: `<command> --version`, bounded. Unknown (slow, failing, unparsed) is null:
 * the launch then takes the args every version accepts. The version and its notes are logged.
 */
export class CliVersions {
  private readonly probed = new Map<string, Promise<string | null>>();

  constructor(
    private readonly run: Runner,
    private readonly log: Logger,
  ) {}

  of(command: string, adapter: CliAdapter | undefined, env: Record<string, string>): Promise<string | null> {
    const v = adapter?.version;
    if (!v || command === "@self") return Promise.resolve(null);
    let p = this.probed.get(command);
    if (!p) {
      p = this.probe(command, v, env);
      this.probed.set(command, p);
    }
    return p;
  }

  private async probe(command: string, v: NonNullable<CliAdapter["version"]>, env: Record<string, string>): Promise<string | null> {
    const r = await this.run([command, "--version"], { env, timeoutMs: VERSION_PROBE_MS });
    const version = r.code === 0 ? v.parse(`${r.stdout}\n${r.stderr}`) : null;
    if (!version) {
      const why = r.timedOut
        ? `no answer within ${VERSION_PROBE_MS / 1000} s`
        : r.code !== 0
          ? `exit ${r.code}`
          : `no version in ${JSON.stringify(r.stdout.trim().slice(0, 80))}`;
      this.log(`${command} --version: ${why}; started with the args every version takes`, { level: "warn", data: { command } });
      return null;
    }
    const { argv, notes } = v.adapt(version);
    this.log(`${command} --version: ${version}${argv.length ? `; adds ${argv.join(" ")}` : ""}`, { data: { command, version, argv } });
    for (const note of notes) this.log(`${command} ${version}: ${note}`, { level: "warn", data: { command, version } });
    return version;
  }
}
