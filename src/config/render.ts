import { Document, isMap, isScalar, isSeq, type Node } from "yaml";
import { z } from "zod";
import { Config } from "../schema/config.ts";
import type { LoadedConfig } from "./load.ts";
import { BUILTIN_FILE } from "./load.ts";
import type { Origin } from "./merge.ts";
import { joinPath } from "./merge.ts";

function label(o: Origin | undefined): string {
  if (!o) return "built-in";
  if (o.layer === "built-in") return o.file === BUILTIN_FILE ? "built-in" : `built-in ${o.file}`;
  return `${o.layer}: ${o.file}`;
}

/**
 * The resolved configuration as YAML, each leaf followed by a comment naming the layer that
 * set it, e.g. `max_review_iterations: 5 # project: .agentmux/config.yaml`.
 */
export function renderConfigYaml(loaded: LoadedConfig): string {
  const doc = new Document(loaded.config);
  annotate(doc.contents as Node, "", loaded.origins);
  const header = ["# agentmux resolved configuration; each value names the layer it came from.", "# layers (lowest first): " + loaded.files.join(" → ")].join(
    "\n",
  );
  return header + "\n" + doc.toString({ lineWidth: 0 });
}

function annotate(node: Node, path: string, origins: Record<string, Origin>): void {
  if (isMap(node) && node.items.length > 0) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      annotate(pair.value as Node, joinPath(path, key), origins);
    }
    return;
  }
  // A leaf: scalar, list or empty map. Lists print inline so the comment stays on their line.
  if (isSeq(node) || isMap(node)) node.flow = true;
  (node as { comment?: string | null }).comment = " " + label(origins[path]);
}

/** The JSON Schema of a config file (input side: every defaulted key is optional). */
export function configJsonSchemaText(): string {
  const schema = z.toJSONSchema(Config, { io: "input" }) as Record<string, unknown>;
  return JSON.stringify({ ...schema, title: "agentmux configuration (version 2)" }, null, 2) + "\n";
}
