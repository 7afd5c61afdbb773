import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigFileNotFound, ConfigInvalid, ConfigUnreadable, UnknownProvider } from "../config/errors.ts";
import { builtinLayer, configLayers, loadConfig, loadOnBuiltin } from "../config/load.ts";
import type { Tree } from "../config/merge.ts";
import { AgentmuxError } from "../errors.ts";
import { migrateConfigText } from "../config/migrate.ts";
import { parseConfigText, readConfigFile } from "../config/read.ts";
import { renderConfigYaml } from "../config/render.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { readRegularFile } from "../effects/fs/read-regular.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import { usage } from "./args.ts";
import type { config } from "./specs/setup.ts";

/** `agentmux config`: a bad config exits 2 with the file and key path (thrown to main). */
export async function run(args: ParsedArgs<typeof config>): Promise<number> {
  if (args.positionals[0] === "migrate") return migrate(args);
  if (args.positionals.length)
    throw usage("config", `unexpected argument "${args.positionals[0]}"`, "agentmux config migrate <file> converts a Python agentmux config");
  if (args.flags.write) throw usage("config", "--write goes with migrate", "agentmux config migrate <file> --write");
  const loaded = loadConfig({ projectDir: findProjectDir(), configPath: args.flags.config });
  if (args.flags.json) {
    process.stdout.write(JSON.stringify({ config: loaded.config, origins: loaded.origins }, null, 2) + "\n");
  } else {
    process.stdout.write(renderConfigYaml(loaded));
  }
  return 0;
}

/** Why the converted config would not load as a run loads it (on the built-in layer), one line each. */
function loadProblems(file: string, text: string): string[] {
  try {
    loadOnBuiltin(file, parseConfigText(text, file), userLayerBelow(file));
    return [];
  } catch (e) {
    if (e instanceof ConfigInvalid) return e.data.issues.map((i) => i.problem);
    if (e instanceof UnknownProvider) return e.data.refs.map((r) => `${r.key}: unknown provider "${r.name}" (valid providers: ${e.data.valid.join(", ")})`);
    if (e instanceof AgentmuxError) return [e.message];
    throw e;
  }
}

/** The user's config, when it loads and is not the file being converted: a project file may use its providers. */
function userLayerBelow(file: string): { file: string; data: Tree }[] {
  const user = configLayers({ projectDir: process.cwd() }).find((l) => l.layer === "user");
  if (!user || resolve(user.path) === resolve(file)) return [];
  try {
    const data = readConfigFile(user.path, user.path);
    loadOnBuiltin(user.path, data);
    return [{ file: user.path, data }];
  } catch {
    return []; // a user config that does not load is not this file's problem
  }
}

/** `agentmux config migrate <file> [--write]`: the Python tool's config as ours (config/migrate.ts). */
function migrate(args: ParsedArgs<typeof config>): number {
  const file = args.positionals[1];
  if (!file) throw usage("config", "the file to convert is required", "agentmux config migrate .agentmux/config.yaml");
  const read = readRegularFile(file);
  if (!read.ok && read.reason === "missing") throw new ConfigFileNotFound({ file, toMigrate: true });
  if (!read.ok) throw new ConfigUnreadable({ file, reason: read.message });
  parseConfigText(read.text, file); // syntax, alias bombs, reserved keys: named like any config error
  const migrated = migrateConfigText(read.text, Object.keys(builtinLayer().providers as object));
  const { notes, unresolved } = migrated;
  // a config.json stays JSON (the YAML document keeps the JSON's flow style, not its quoting)
  const text = file.endsWith(".json") ? JSON.stringify(parseConfigText(migrated.text, file), null, 2) + "\n" : migrated.text;
  for (const n of notes) process.stderr.write(`agentmux: config migrate: ${n}\n`);
  for (const u of unresolved) process.stderr.write(`agentmux: config migrate: ${u.problem}\n`);
  const problems = loadProblems(file, text).filter((p) => !unresolved.some((u) => p.startsWith(`${u.key}:`)));
  for (const p of problems) process.stderr.write(`agentmux: config migrate: still to fix: ${p}\n`);
  if (unresolved.length || problems.length) {
    if (!args.flags.write) process.stdout.write(text);
    return 1;
  }
  if (!args.flags.write) {
    process.stdout.write(text);
    return 0;
  }
  const backup = `${file}.bak`;
  if (existsSync(backup)) throw usage("config", `${backup} exists; nothing was written`, "move it away, then run the command again");
  writeFileAtomic(backup, read.text);
  writeFileAtomic(file, text);
  process.stderr.write(`agentmux: config migrate: ${file} converted (the original is ${backup})\n`);
  return 0;
}
