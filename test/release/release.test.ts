import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { makeTmpDir, REPO_ROOT, removeDir } from "../helpers/tmp.ts";
import { assetName, buildRelease, isHostTarget, RELEASE_TARGETS, ReleaseFailed, type BuildFn } from "../../scripts/release.ts";
import { VERSION } from "../../src/version.ts";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) removeDir(d);
  dirs = [];
});

function tmp(): string {
  const d = makeTmpDir("amx-release-");
  dirs.push(d);
  return d;
}

/** A stand-in for bun build --compile: a small executable that prints a version and its target. */
function fakeBuild(calls: { outfile: string; target?: string }[], version = VERSION): BuildFn {
  return async (outfile, target) => {
    calls.push({ outfile, target });
    writeFileSync(outfile, `#!/bin/sh\n# target ${target}\necho "agentmux ${version}"\n`, { mode: 0o644 });
  };
}

const quiet = () => {};

describe("buildRelease", () => {
  test("builds every platform with the right bun target, then SHA256SUMS and VERSION", async () => {
    const out = join(tmp(), "release");
    const calls: { outfile: string; target?: string }[] = [];
    const manifest = await buildRelease(fakeBuild(calls), { outDir: out, log: quiet, installScript: join(REPO_ROOT, "install.sh") });

    expect(calls.map((c) => c.target)).toEqual(["bun-linux-x64-baseline", "bun-linux-arm64", "bun-darwin-x64", "bun-darwin-arm64"]);
    const names = ["agentmux-linux-x64", "agentmux-linux-arm64", "agentmux-darwin-x64", "agentmux-darwin-arm64"];
    expect(manifest.assets.map((a) => a.file)).toEqual(names);
    expect(readdirSync(out).sort()).toEqual([...names, "SHA256SUMS", "VERSION", "install.sh"].sort());
    expect(readFileSync(join(out, "install.sh"), "utf8")).toBe(readFileSync(join(REPO_ROOT, "install.sh"), "utf8"));
    expect(readFileSync(join(out, "VERSION"), "utf8")).toBe(`${VERSION}\n`);
    for (const n of names) expect(statSync(join(out, n)).mode & 0o777).toBe(0o755);

    const sums = readFileSync(join(out, "SHA256SUMS"), "utf8");
    const lines = sums.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[4]).toMatch(/^[0-9a-f]{64}  install\.sh$/);
    for (const [i, line] of lines.slice(0, 4).entries()) {
      const m = line.match(/^([0-9a-f]{64})  (\S+)$/);
      expect(m).not.toBeNull();
      expect(m![2]).toBe(names[i]!);
      const expected = createHash("sha256")
        .update(readFileSync(join(out, names[i]!)))
        .digest("hex");
      expect(m![1]).toBe(expected);
      expect(manifest.assets[i]!.sha256).toBe(expected);
    }
  });

  test("sha256sum -c accepts the sums and catches a tampered binary", async () => {
    const out = join(tmp(), "release");
    await buildRelease(fakeBuild([]), { outDir: out, log: quiet });
    const ok = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: out, stdout: "pipe", stderr: "pipe" });
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout.toString()).toContain("agentmux-darwin-arm64: OK");

    writeFileSync(join(out, "agentmux-linux-arm64"), "tampered\n");
    const bad = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: out, stdout: "pipe", stderr: "pipe" });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stdout.toString()).toContain("agentmux-linux-arm64: FAILED");
  });

  test("a failing target leaves the previous release untouched and no staging folder", async () => {
    const parent = tmp();
    const out = join(parent, "release");
    await buildRelease(fakeBuild([]), { outDir: out, log: quiet });
    const before = readFileSync(join(out, "SHA256SUMS"), "utf8");

    const failing: BuildFn = async (outfile, target) => {
      if (target === "bun-darwin-x64") throw new Error("registry unreachable");
      writeFileSync(outfile, `#!/bin/sh\necho "agentmux 9.9.9"\n`);
    };
    const err = await buildRelease(failing, { outDir: out, version: "9.9.9", log: quiet }).catch((e) => e);
    expect(err).toBeInstanceOf(ReleaseFailed);
    expect(err.data).toEqual({ step: "build", target: "bun-darwin-x64", file: "agentmux-darwin-x64", detail: "registry unreachable" });
    expect(err.where).toBe("release agentmux-darwin-x64");
    expect(readFileSync(join(out, "SHA256SUMS"), "utf8")).toBe(before);
    expect(readFileSync(join(out, "VERSION"), "utf8")).toBe(`${VERSION}\n`);
    expect(readdirSync(parent)).toEqual(["release"]);
  });

  test("a build that writes nothing is an error naming the file", async () => {
    const out = join(tmp(), "release");
    const err = await buildRelease(async () => {}, { outDir: out, log: quiet }).catch((e) => e);
    expect(err.message).toContain("produced no file");
    expect(err.where).toContain("agentmux-linux-x64");
    expect(existsSync(out)).toBe(false);
  });

  test("the binary for this machine must report the released version", async () => {
    const host = RELEASE_TARGETS.find(isHostTarget);
    if (!host) return; // only linux/darwin x64/arm64 hosts can run their own asset
    const out = join(tmp(), "release");
    const err = await buildRelease(fakeBuild([], "0.0.0-wrong"), { outDir: out, version: "1.2.3", log: quiet }).catch((e) => e);
    expect(err.message).toContain("smoke test failed");
    expect(err.message).toContain("agentmux 0.0.0-wrong");
    expect(err.where).toContain(assetName(host));

    const good = await buildRelease(fakeBuild([], "1.2.3"), { outDir: out, version: "1.2.3", log: quiet });
    expect(good.version).toBe("1.2.3");
    expect(readFileSync(join(out, "VERSION"), "utf8")).toBe("1.2.3\n");
  });

  test("the release folder installs itself: sh install.sh --from <release>", async () => {
    if (!RELEASE_TARGETS.find(isHostTarget)) return;
    const parent = tmp();
    const out = join(parent, "release");
    await buildRelease(fakeBuild([]), { outDir: out, log: quiet, installScript: join(REPO_ROOT, "install.sh") });
    const p = Bun.spawnSync(["sh", join(out, "install.sh"), "--from", out], {
      env: { ...process.env, AGENTMUX_INSTALL_DIR: join(parent, "bin") },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(p.exitCode).toBe(0);
    expect(p.stdout.toString()).toContain(`installed version: agentmux ${VERSION}`);
    expect(existsSync(join(parent, "bin", "agentmux"))).toBe(true);
  });
});
