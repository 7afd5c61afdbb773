/**
 * The test command: type-checks (tsc), builds dist/agentmux (end-to-end tests drive the
 * compiled binary), runs `bun test`, and ends with one line "N passed, N failed" while keeping
 * bun's exit code. A type error or a failed build counts as one failure.
 */
import { join } from "node:path";

const args = process.argv.slice(2);
const bun = process.execPath; // bun is not on PATH when started as ./node_modules/.bin/bun

if (!process.env.AGENTMUX_SKIP_TYPECHECK) {
  const tsc = Bun.spawnSync([join(import.meta.dir, "..", "node_modules", ".bin", "tsc"), "-p", join(import.meta.dir, "..")], { stdout: "inherit", stderr: "inherit" });
  if (tsc.exitCode !== 0) {
    console.error("tsc: type errors (above)");
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

if (!process.env.AGENTMUX_SKIP_BUILD) {
  const build = Bun.spawnSync([bun, "build.ts"], { stdout: "inherit", stderr: "inherit" });
  if (build.exitCode !== 0) {
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

const proc = Bun.spawn([bun, "test", "--timeout", "120000", ...args], { stdout: "inherit", stderr: "pipe", env: process.env });
let tail = "";
const decoder = new TextDecoder();
for await (const chunk of proc.stderr) {
  const text = decoder.decode(chunk, { stream: true });
  process.stderr.write(text);
  tail = (tail + text).slice(-20000);
}
const code = await proc.exited;
const count = (word: string) => {
  const m = tail.match(new RegExp(`^\\s*(\\d+) ${word}$`, "m"));
  return m ? Number(m[1]) : 0;
};
const passed = count("pass");
const failed = count("fail");
const skipped = count("skip");
const failedTotal = code !== 0 && failed === 0 ? 1 : failed;
console.log(`${passed} passed, ${failedTotal} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(code);
