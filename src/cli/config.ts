import { existsSync } from "node:fs";
import { ConfigFileNotFound, ConfigInvalid, ConfigUnreadable } from "../config/errors.ts";
import { loadConfig } from "../config/load.ts";
import { migrateConfigText } from "../config/migrate.ts";
import { parseConfigText } from "../config/read.ts";
import { renderConfigYaml } from "../config/render.ts";
import { validateLayer } from "../config/validate.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { readRegularFile } from "../effects/fs/read-regular.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import { usage } from "./args.ts";
import type { config } from "./specs/setup.ts";

/** `agentmux config`: a bad config exits 2 with the file and key path (thrown to main). */
export async function run(args: ParsedArgs<typeof config>): Promise<number> {
  if (args.positionals[0] === "migrate") return migrate(args);
  if (args.positionals.length) throw usage("config", `unexpected argument "${args.positionals[0]}"`, "agentmux config migrate <file> converts a Python agentmux config");
  if (args.flags.write) throw usage("config", "--write goes with migrate", "agentmux config migrate <file> --write");
  const loaded = loadConfig({ projectDir: findProjectDir(), configPath: args.flags.config });
  if (args.flags.json) {
    process.stdout.write(JSON.stringify({ config: loaded.config, origins: loaded.origins }, null, 2) + "\n");
  } else {
    process.stdout.write(renderConfigYaml(loaded));
  }
  return 0;
}

/** `agentmux config migrate <file> [--write]`: the Python tool's config as ours (config/migrate.ts). */
function migrate(args: ParsedArgs<typeof config>): number {
  const file = args.positionals[1];
  if (!file) throw usage("config", "the file to convert is required", "agentmux config migrate .agentmux/config.yaml");
  const read = readRegularFile(file);
  if (!read.ok && read.reason === "missing") throw new ConfigFileNotFound({ file, toMigrate: true });
  if (!read.ok) throw new ConfigUnreadable({ file, reason: read.message });
  parseConfigText(read.text, file); // syntax, alias bombs, reserved keys: named like any config error
  const { text, notes } = migrateConfigText(read.text);
  for (const n of notes) process.stderr.write(`agentmux: config migrate: ${n}\n`);
  try {
    validateLayer(file, parseConfigText(text, file));
  } catch (e) {
    if (!(e instanceof ConfigInvalid)) throw e;
    for (const i of e.data.issues) process.stderr.write(`agentmux: config migrate: still to fix: ${i.problem}\n`);
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
