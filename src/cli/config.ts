import { loadConfig } from "../config/load.ts";
import { renderConfigYaml } from "../config/render.ts";
import { findProjectDir } from "../session/project.ts";
import { bool, parseArgs, str } from "./args.ts";

const HELP = `Usage: agentmux config [--json] [--config PATH]

Print the resolved configuration and where each value came from:
built-in → ~/.config/agentmux/config.yaml → .agentmux/config.yaml → --config PATH.

Options:
  --json          print {"config": …, "origins": {"<key path>": {"layer", "file"}}}
  --config PATH   add a config file as the last (highest) layer
`;

/** `agentmux config`: a bad config exits 2 with the file and key path (thrown to main). */
export async function run(argv: string[]): Promise<number> {
  const args = parseArgs("config", argv, { flags: { json: { type: "boolean" } }, maxPositionals: 0 });
  if (bool(args.flags.help)) {
    process.stdout.write(HELP);
    return 0;
  }
  const loaded = loadConfig({ projectDir: findProjectDir(), configPath: str(args.flags.config) });
  if (bool(args.flags.json)) {
    process.stdout.write(JSON.stringify({ config: loaded.config, origins: loaded.origins }, null, 2) + "\n");
  } else {
    process.stdout.write(renderConfigYaml(loaded));
  }
  return 0;
}
