import { mkdtempSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { stringify } from "yaml";
import { ActionConfigOutside } from "./context.ts";
import { writeFileAtomic } from "../../effects/fs/atomic.ts";
import { mergeLayer, type Tree } from "../../config/merge.ts";
import { readConfigFile } from "../../config/read.ts";
import { validateLayer } from "../../config/validate.ts";
import type { ActionInputs } from "../../schema/github-action.ts";

/** The config the action's inputs set (only what they set: the repository's config stays in charge of the rest). */
export function inputsLayer(inputs: ActionInputs): Tree {
  const layer: Tree = {};
  if (inputs.provider) layer.defaults = { provider: inputs.provider };
  const roles = Object.entries(inputs.providers);
  if (roles.length) layer.roles = Object.fromEntries(roles.map(([role, provider]) => [role, { provider }]));
  if (inputs.draft !== undefined) layer.github = { draft: inputs.draft };
  const watchdog: Tree = {};
  if (inputs.timeout_minutes) watchdog.run_timeout_s = inputs.timeout_minutes * 60;
  if (inputs.phase_timeout_minutes) watchdog.phase_timeout_s = inputs.phase_timeout_minutes * 60;
  if (Object.keys(watchdog).length) layer.watchdog = watchdog;
  return layer;
}

/**
 * The run's extra config layer (--config): the file named by the `config` input, with the
 * other inputs on top. Written under `tempDir` (RUNNER_TEMP on GitHub), never into the
 * repository; it holds no secrets (keys come from the environment only). Undefined when empty.
 */
export function writeActionConfig(inputs: ActionInputs, projectDir: string, tempDir: string): string | undefined {
  let tree: Tree = {};
  if (inputs.config) {
    const path = resolve(projectDir, inputs.config);
    const rel = relative(projectDir, path);
    if (rel.startsWith("..") || isAbsolute(rel)) {
      throw new ActionConfigOutside({ config: inputs.config });
    }
    tree = readConfigFile(path, rel);
    validateLayer(rel, tree);
  }
  const over = inputsLayer(inputs);
  tree = mergeLayer(tree, over, { layer: "cli", file: "action inputs" }, {});
  if (!Object.keys(tree).length) return undefined;
  validateLayer("action inputs", tree);
  const file = join(mkdtempSync(join(tempDir, "agentmux-action-")), "config.yaml");
  writeFileAtomic(file, `# written by agentmux github-action from the action's inputs${inputs.config ? ` and ${inputs.config}` : ""}\n${stringify(tree)}`);
  return file;
}
