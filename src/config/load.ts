import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import builtinText from "../../assets/config.yaml" with { type: "text" };
import { builtinProvidersYaml } from "../providers/adapters/registry.ts";
import { Config } from "../schema/config.ts";
import { AGENTMUX_DIR } from "../protocol/paths.ts";
import { blame, leafPaths, mergeLayer, originOf, type Layer, type Origin, type Tree } from "./merge.ts";
import { parseConfigText, readConfigFile } from "./read.ts";
import { describeIssues, validateLayer } from "./validate.ts";
import { ConfigInvalid, UnknownProvider } from "./errors.ts";
import { simScenarioFromEnv } from "./sim-env.ts";

export type LoadedConfig = {
  config: Config;
  /** dot path of every leaf of `config` → the layer and file that set it (built on first use) */
  readonly origins: Record<string, Origin>;
  /** the layer and file that set one leaf (or the nearest ancestor a layer set as a whole) */
  originOf(path: string): Origin;
  /** the files that were read, lowest layer first (the built-in layer is "(built-in)") */
  files: string[];
};

export const BUILTIN_FILE = "(built-in)";
/** assets/config.yaml, then every CLI adapter's provider block (src/providers/adapters). */
export const BUILTIN_CONFIG_TEXT: string = `${builtinText.replace(/\n*$/, "\n")}\n${builtinProvidersYaml()}`;
export const PROJECT_CONFIG_NAMES = ["config.yaml", "config.yml", "config.json"] as const;

export type LoadOptions = { projectDir: string; configPath?: string; env?: Record<string, string | undefined> };

/**
 * The built-in layer, read by Bun's native YAML parser: it ships in the binary, and a test
 * checks that this parse equals the checked one (parseConfigText) and that the layer validates
 * (validateLayer). The checked parse costs every process that loads the config 100–200 ms of
 * start-up (the yaml library's first use), and most runs have no other config file.
 */
export function builtinLayer(): Tree {
  return Bun.YAML.parse(BUILTIN_CONFIG_TEXT) as Tree;
}

/** The config files that apply, lowest layer first (only files that exist, except --config). */
export function configLayers(opts: LoadOptions): { layer: Layer; path: string }[] {
  const env = opts.env ?? process.env;
  const home = env.HOME || homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  const layers: { layer: Layer; path: string }[] = [];
  const user = join(xdg, "agentmux", "config.yaml");
  if (existsSync(user)) layers.push({ layer: "user", path: user });
  const project = PROJECT_CONFIG_NAMES.map((n) => join(opts.projectDir, AGENTMUX_DIR, n)).find((p) => existsSync(p));
  if (project) layers.push({ layer: "project", path: project });
  if (opts.configPath) layers.push({ layer: "cli", path: resolve(opts.configPath) });
  return layers;
}

/** How messages name a file: relative inside the project, `~/…` under home, else absolute. */
export function displayPath(path: string, projectDir: string, home: string): string {
  const rel = relative(projectDir, path);
  if (rel && !rel.startsWith("..") && !isAbsolute(rel)) return rel;
  const h = relative(home, path);
  if (home && h && !h.startsWith("..") && !isAbsolute(h)) return join("~", h);
  return path;
}

/**
 * Load the layered configuration: built-in → $XDG_CONFIG_HOME/agentmux/config.yaml →
 * <project>/.agentmux/config.{yaml,yml,json} → --config PATH. Each file is validated on its
 * own, then the merged result; every problem is a named config error (config/errors.ts) naming file + key.
 */
export function loadConfig(opts: LoadOptions): LoadedConfig {
  const env = opts.env ?? process.env;
  const home = env.HOME || homedir();
  const read = configLayers(opts).map(({ layer, path }) => {
    const display = displayPath(path, opts.projectDir, home);
    return { layer, file: display, path, data: readConfigFile(path, display) };
  });
  return resolveLayers(read, env);
}

/**
 * A file's config on the built-in layer (and `below`: the user's config, where a project file's
 * providers may be defined), as a run would load it (`config migrate` checks its output with
 * it); throws the same named errors as loadConfig.
 */
export function loadOnBuiltin(file: string, data: Tree, below: { file: string; data: Tree }[] = []): LoadedConfig {
  const lower = below.map((b) => ({ layer: "user" as const, file: b.file, path: b.file, data: b.data }));
  return resolveLayers([...lower, { layer: "project", file, path: file, data }], {});
}

function resolveLayers(layers: { layer: Layer; file: string; path: string; data: Tree }[], env: Record<string, string | undefined>): LoadedConfig {
  const origins: Record<string, Origin> = {};
  const builtin = builtinLayer();
  let merged: Tree = mergeLayer({}, builtin, { layer: "built-in", file: BUILTIN_FILE }, origins);
  const files = [BUILTIN_FILE];
  for (const { layer, file, path, data } of layers) {
    validateLayer(file, data);
    merged = mergeLayer(merged, data, { layer, file }, origins);
    files.push(path);
  }
  const parsed = Config.safeParse(merged);
  if (!parsed.success) {
    // Name the file that set the offending value (or its nearest set ancestor).
    const issues = parsed.error.issues.flatMap((i) =>
      describeIssues([i], merged).map((problem) => ({ file: blame(origins, i.path.map(String).join(".")).file, problem })),
    );
    throw new ConfigInvalid({ issues });
  }
  const config = parsed.data;
  checkProviders(config, origins);
  simScenarioFromEnv(config, env, origins);
  // every leaf's origin is only printed by `agentmux config`; a run asks for one or two
  let all: Record<string, Origin> | undefined;
  return {
    config,
    files,
    get origins() {
      if (!all) {
        all = {};
        for (const path of leafPaths(config)) all[path] = originOf(origins, path);
      }
      return all;
    },
    originOf: (path) => originOf(origins, path),
  };
}

function checkProviders(config: Config, origins: Record<string, Origin>): void {
  const valid = Object.keys(config.providers).sort();
  const refs: [string, string | null][] = [["defaults.provider", config.defaults.provider]];
  for (const [role, rc] of Object.entries(config.roles)) refs.push([`roles.${role}.provider`, rc?.provider ?? null]);
  const unknown = refs
    .filter((r): r is [string, string] => r[1] !== null && !valid.includes(r[1]))
    .map(([key, name]) => ({ file: blame(origins, key).file, key, name }));
  if (unknown.length) throw new UnknownProvider({ refs: unknown, valid });
}
