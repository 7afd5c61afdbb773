/**
 * Builds the single executable dist/agentmux (bun build --compile, bytecode, minified ESM).
 *   bun build.ts                       host binary → dist/agentmux
 */
import type { BunPlugin } from "bun";
import { mkdirSync, readFileSync } from "node:fs";

/** blessed loads its widgets with require('./widgets/' + file); make each require static. */
const blessedStaticWidgets: BunPlugin = {
  name: "blessed-static-widgets",
  setup(build) {
    build.onLoad({ filter: /[\\/]blessed[\\/]lib[\\/]widget\.js$/ }, (args) => {
      const src = readFileSync(args.path, "utf8");
      const names = [...src.matchAll(/^\s+'([A-Za-z]+)',?$/gm)].map((m) => m[1]!);
      const loop = /widget\.classes\.forEach\(function\(name\) \{[\s\S]*?\n\}\);/;
      if (!loop.test(src) || names.length < 20) throw new Error("blessed/lib/widget.js changed shape; update build.ts");
      const statics = names
        .map((n) => `widget[${JSON.stringify(n)}] = widget[${JSON.stringify(n.toLowerCase())}] = require('./widgets/${n.toLowerCase()}');`)
        .join("\n");
      return { contents: src.replace(loop, statics), loader: "js" };
    });
  },
};

export async function buildBinary(outfile: string, target?: string): Promise<void> {
  const result = await Bun.build({
    entrypoints: ["src/main.ts"],
    compile: target ? ({ outfile, target } as any) : { outfile },
    minify: true,
    splitting: true,
    bytecode: true,
    format: "esm",
    sourcemap: "none",
    external: ["term.js", "pty.js"],
    plugins: [blessedStaticWidgets],
  } as any);
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build failed for ${target ?? "host"}`);
  }
}

if (import.meta.main) {
  const started = performance.now();
  mkdirSync("dist", { recursive: true });
  await buildBinary("dist/agentmux");
  const smoke = Bun.spawnSync(["dist/agentmux", "--version"], { stdout: "pipe", stderr: "pipe" });
  const out = smoke.stdout.toString().trim();
  if (smoke.exitCode !== 0 || !out.startsWith("agentmux ")) {
    console.error(`smoke test failed: dist/agentmux --version → exit ${smoke.exitCode}\n${out}\n${smoke.stderr}`);
    process.exit(1);
  }
  console.log(`built dist/agentmux (${out}) in ${Math.round(performance.now() - started)} ms`);
  if (process.argv.includes("--release")) {
    const { buildRelease } = await import("./scripts/release.ts");
    await buildRelease(buildBinary);
  }
}
