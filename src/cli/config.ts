import { loadConfig } from "../config/load.ts";
import { renderConfigYaml } from "../config/render.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import type { config } from "./specs/setup.ts";

/** `agentmux config`: a bad config exits 2 with the file and key path (thrown to main). */
export async function run(args: ParsedArgs<typeof config>): Promise<number> {
  const loaded = loadConfig({ projectDir: findProjectDir(), configPath: args.flags.config });
  if (args.flags.json) {
    process.stdout.write(JSON.stringify({ config: loaded.config, origins: loaded.origins }, null, 2) + "\n");
  } else {
    process.stdout.write(renderConfigYaml(loaded));
  }
  return 0;
}
