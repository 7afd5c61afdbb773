import type * as Yaml from "yaml";

let lib: typeof Yaml | undefined;

/**
 * The yaml library, evaluated on its first use: the session files most processes read are
 * JSON, and a process that never reads or writes YAML (the monitor, `agentmux status`) does not
 * carry it (about 8 MB of RSS in the compiled binary, #15.2). `require` is synchronous, so the
 * parse and format functions stay synchronous.
 */
export function yamlLib(): typeof Yaml {
  return (lib ??= require("yaml") as typeof Yaml);
}
