import { defineError } from "../errors.ts";

/** What is wrong with a configuration file, as data. Every one exits 2. */

const FIX = "fix the file, then check the result with: agentmux config";

/** One or more keys of one or more files are wrong: each issue names its file and says what (`key: problem`). */
export const ConfigInvalid = defineError("ConfigInvalid", "config", (d: { issues: { file: string; problem: string }[] }) => ({
  message: d.issues.map((i) => `${i.file}: ${i.problem}`).join("\n"),
  where: "config",
  hint: FIX,
}));

/** Keys that name a provider no layer defines (`file` set when the key comes from a file). */
export const UnknownProvider = defineError("UnknownProvider", "config", (d: { refs: { file?: string; key: string; name: string }[]; valid: string[] }) => ({
  message: d.refs.map((r) => `${r.file ? `${r.file}: ` : ""}${r.key}: unknown provider "${r.name}" (valid providers: ${d.valid.join(", ")})`).join("\n"),
  where: "config",
  hint: `use one of: ${d.valid.join(", ")}, or define providers.<name> with a command`,
}));

export const ConfigYamlSyntax = defineError("ConfigYamlSyntax", "config", (d: { file: string; line?: number; col?: number; detail: string }) => ({
  message: `${d.file}:${d.line === undefined ? "?" : `${d.line}:${d.col}`}: YAML syntax error: ${d.detail}`,
  where: "config",
  hint: "fix the syntax at that line and column",
}));

export const ConfigFileType = defineError("ConfigFileType", "config", (d: { file: string; ext: string }) => ({
  message: `${d.file}: unsupported config file type "${d.ext || "(none)"}"`,
  where: "config",
  hint: "use a .yaml, .yml or .json file",
}));

/** A config file named on the command line is missing: the --config one, or the one `config migrate` converts. */
export const ConfigFileNotFound = defineError("ConfigFileNotFound", "config", (d: { file: string; toMigrate?: boolean }) => ({
  message: `${d.file}: file not found`,
  where: "config",
  hint: d.toMigrate ? "check the path of the file to convert" : "check the --config path",
}));

export const ConfigUnreadable = defineError("ConfigUnreadable", "config", (d: { file: string; reason: string }) => ({
  message: `${d.file}: ${d.reason}`,
  where: "config",
}));

/** init and configure edit YAML only; the project has config.json (`file`). */
export const ConfigNotYaml = defineError("ConfigNotYaml", "config", (d: { file: string }) => ({
  message: `${d.file}: init and configure edit YAML only`,
  where: "config",
  hint: "rename it to .agentmux/config.yaml (JSON is valid YAML), then run the command again",
}));

/** `sim.scenario` holds a switch the simulated agent does not know (it would die at start). */
export const SimScenarioInConfig = defineError("SimScenarioInConfig", "config", (d: { problems: string; switches: string[]; where?: string }) => ({
  message: `bad simulated-agent scenario: ${d.problems}`,
  where: d.where ?? "sim.scenario",
  hint: `switches: ${d.switches.join(", ")}`,
}));
