import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isPlainYaml } from "../../src/config/plain-yaml.ts";
import { checkedParse, parseConfigText } from "../../src/config/read.ts";
import { loadConfig } from "../../src/config/load.ts";
import { makeTmpDir, REPO_ROOT, removeDir } from "../helpers/tmp.ts";

/**
 * #31: a large config is read by Bun's native parser when its text is plain YAML (config/plain-yaml.ts);
 * the data must be what the checked parse gives, and anything outside the plain subset, or any
 * repeated key, must take the checked parse (which names it with line and column).
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

/** Every YAML block of the docs and README (the configs users copy), and the plain shapes a config takes. */
function corpus(): string[] {
  const docs = [
    join(REPO_ROOT, "README.md"),
    ...readdirSync(join(REPO_ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => join(REPO_ROOT, "docs", f)),
  ];
  const blocks = docs.flatMap((f) => [...readFileSync(f, "utf8").matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m) => m[1]!));
  return [
    ...blocks,
    "version: 2\ndefaults:\n  provider: codex # the default\n  model: null\nroles:\n  coder:\n    provider: claude\n",
    'providers:\n  mine:\n    command: my-cli\n    args: ["--yes", \'-x\', plain, "a \\"q\\" \\u00e9"]\n    env: { }\n',
    "checks:\n  test:\n    command: npm test -- --reporter=dot && echo done\n    timeout_s: 600\n    required: true\n",
    "worktree:\n  setup:\n    - npm ci\n    - cp .env.example .env\n  copy:\n    - .env*\n",
    'providers:\n  x:\n    dialogs:\n      - detect: Trust this folder? (y/n)\n        keys: [Enter]\n      - detect: "Allow: yes"\n        kind: permission\n',
    "a: yes\nb: no\nc: on\nd: True\ne: FALSE\nf: NULL\ng: ~\nh: 1\ni: -2.50\nj: 0\nk: it's fine\nl: url http://127.0.0.1:8080/mcp\nm: a#b\n",
    "empty:\nnext: 1\n",
    "",
    "# only a comment\n",
  ];
}

test("where the text is plain YAML, Bun's parse is the checked parse (every YAML block of the docs, and config shapes)", () => {
  let plain = 0;
  for (const text of corpus()) {
    if (!isPlainYaml(text)) continue;
    plain++;
    let checked: unknown;
    try {
      checked = checkedParse(text, "x.yaml");
    } catch (e) {
      throw new Error(`plain, but the checked parse refuses it (${(e as Error).message}):\n${text}`);
    }
    expect({ text, data: parseConfigText(text, "x.yaml") }).toEqual({ text, data: checked as never });
  }
  expect(plain).toBeGreaterThanOrEqual(8);
});

test("anything outside the plain subset, or a repeated key, takes the checked parse", () => {
  const notPlain = {
    anchor: "a: &x 1\nb: 2\n",
    alias: "a: 1\nb: *x\n",
    tag: "a: !!str 1\n",
    merge: "base:\n  x: 1\nc:\n  <<: 1\n",
    "duplicate key": "providers:\n  p1:\n    command: a\n  p1:\n    command: b\n",
    "duplicate nested key": "a:\n  b: 1\n  c: 2\n  b: 3\n",
    "duplicate key in a sequence entry": "d:\n  - k: 1\n    k: 2\n",
    "block scalar": "a: |\n  text\n",
    "flow mapping": "a: { b: 1 }\n",
    "complex key": "? a\n: 1\n",
    documents: "a: 1\n---\nb: 2\n",
    __proto__: "providers:\n  __proto__:\n    command: x\n",
    "null key": "null: 1\n",
    tab: "a:\n\tb: 1\n",
    "multi-line plain scalar": "a: one\n  two\n",
    "top-level sequence": "- a\n- b\n",
    "nested flow sequence": "a: [[1, 2]]\n",
    "pair in a flow sequence": "a: [b: 1]\n",
    "leading-zero number": "a: 007\n",
    "dash-led plain value": "a: --flag\n",
    escape: 'a: "\\e"\n',
  };
  for (const [what, text] of Object.entries(notPlain)) expect({ what, plain: isPlainYaml(text) }).toEqual({ what, plain: false });
  // and the checked parse names a repeated key with its line, as before
  expect(() => parseConfigText(notPlain["duplicate key"], "big.yaml")).toThrow("big.yaml:4:3: YAML syntax error: Map keys must be unique");
});

test("a large plain config takes the fast parse; a bad provider in it is still named with its file and key", () => {
  const lines = ["version: 2", "providers:"];
  for (let i = 0; i < 20_000; i++) lines.push(`  p${i}:`, `    command: ${i === 12_345 ? 5 : `cli-${i}`}`, `    args: ["--flag"]`);
  const text = lines.join("\n") + "\n";
  expect(isPlainYaml(text)).toBe(true);
  const dir = makeTmpDir("amx-plain-");
  dirs.push(dir);
  writeFileSync(join(dir, "big.yaml"), text);
  let err: any;
  try {
    loadConfig({ projectDir: dir, configPath: join(dir, "big.yaml"), env: { HOME: dir } });
  } catch (e) {
    err = e;
  }
  expect(String(err?.message)).toContain("providers.p12345.command");
  expect(`${err?.where ?? ""} ${err?.message}`).toContain("big.yaml");
});
