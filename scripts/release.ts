/**
 * Release builds: one binary per supported platform plus install.sh, SHA256SUMS and VERSION.
 *   bun build.ts --release     → dist/release/agentmux-<os>-<arch>, install.sh, SHA256SUMS, VERSION
 *
 * Everything is built into a staging folder next to the output folder and renamed into
 * place at the end, so a failed target never leaves a SHA256SUMS that lists stale files.
 */
import { chmodSync, copyFileSync, createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { arch as hostArch, platform as hostPlatform } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { defineError } from "../src/errors.ts";

/** A release step failed: the cross-build of a target, its output, or the host binary's smoke test. */
export const ReleaseFailed = defineError(
  "ReleaseFailed",
  "internal",
  (
    d:
      | { step: "build"; target: string; file: string; detail: string }
      | { step: "no-output"; target: string; path: string }
      | { step: "smoke"; path: string; exit: number | null; out: string; expected: string; stderr: string },
  ) =>
    d.step === "build"
      ? {
          message: `release build failed for ${d.target}: ${d.detail}`,
          where: `release ${d.file}`,
          hint: "cross-compiling fetches the bun runtime for each target from the npm registry; check network access and retry",
        }
      : d.step === "no-output"
        ? { message: `the build for ${d.target} produced no file`, where: d.path }
        : { message: `smoke test failed: --version → exit ${d.exit}, "${d.out}" (expected "${d.expected}")`, where: d.path, hint: d.stderr || undefined },
);
import { writeFileAtomic } from "../src/effects/fs/atomic.ts";
import { VERSION } from "../src/version.ts";

export type BuildFn = (outfile: string, target?: string) => Promise<void>;
export type ReleaseTarget = { os: "linux" | "darwin"; arch: "x64" | "arm64"; bunTarget: string };
export type ReleaseAsset = { file: string; target: ReleaseTarget; sha256: string; bytes: number };
export type ReleaseManifest = { version: string; dir: string; assets: ReleaseAsset[] };
export type ReleaseOptions = {
  outDir?: string;
  version?: string;
  targets?: readonly ReleaseTarget[];
  /** Shipped next to the binaries so `<release-url>/install.sh` works; default ./install.sh. */
  installScript?: string;
  log?: (line: string) => void;
};

/** linux-x64 uses the baseline runtime so the binary also runs on CPUs without AVX2. */
export const RELEASE_TARGETS: readonly ReleaseTarget[] = [
  { os: "linux", arch: "x64", bunTarget: "bun-linux-x64-baseline" },
  { os: "linux", arch: "arm64", bunTarget: "bun-linux-arm64" },
  { os: "darwin", arch: "x64", bunTarget: "bun-darwin-x64" },
  { os: "darwin", arch: "arm64", bunTarget: "bun-darwin-arm64" },
];

export const assetName = (t: Pick<ReleaseTarget, "os" | "arch">): string => `agentmux-${t.os}-${t.arch}`;

export async function buildRelease(build: BuildFn, opts: ReleaseOptions = {}): Promise<ReleaseManifest> {
  const outDir = resolve(opts.outDir ?? "dist/release");
  const version = opts.version ?? VERSION;
  const targets = opts.targets ?? RELEASE_TARGETS;
  const log = opts.log ?? ((line: string) => console.log(line));
  const staging = join(dirname(outDir), `.${basename(outDir)}.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const assets: ReleaseAsset[] = [];
    for (const target of targets) {
      const started = performance.now();
      const file = assetName(target);
      const path = join(staging, file);
      try {
        await build(path, target.bunTarget);
      } catch (e) {
        throw new ReleaseFailed({ step: "build", target: target.bunTarget, file, detail: (e as Error)?.message ?? String(e) }, { cause: e });
      }
      if (!existsSync(path) || statSync(path).size === 0) {
        throw new ReleaseFailed({ step: "no-output", target: target.bunTarget, path });
      }
      chmodSync(path, 0o755);
      if (isHostTarget(target)) smokeTest(path, version);
      const bytes = statSync(path).size;
      assets.push({ file, target, sha256: await sha256File(path), bytes });
      log(`built ${file} (${target.bunTarget}, ${(bytes / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`);
    }
    const installScript = resolve(opts.installScript ?? "install.sh");
    const extras: Pick<ReleaseAsset, "file" | "sha256">[] = [];
    if (existsSync(installScript)) {
      copyFileSync(installScript, join(staging, "install.sh"));
      chmodSync(join(staging, "install.sh"), 0o755);
      extras.push({ file: "install.sh", sha256: await sha256File(join(staging, "install.sh")) });
    }
    writeFileAtomic(join(staging, "SHA256SUMS"), formatSums([...assets, ...extras]));
    writeFileAtomic(join(staging, "VERSION"), `${version}\n`);
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(dirname(outDir), { recursive: true });
    renameSync(staging, outDir);
    log(`release ${version} → ${outDir}`);
    return { version, dir: outDir, assets };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** sha256sum format: `<hex>  <file>` (two spaces: text mode), one line per asset. */
export function formatSums(assets: readonly Pick<ReleaseAsset, "file" | "sha256">[]): string {
  return assets.map((a) => `${a.sha256}  ${a.file}\n`).join("");
}

export async function sha256File(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of createReadStream(path)) hasher.update(chunk as Buffer);
  return hasher.digest("hex");
}

export function isHostTarget(t: Pick<ReleaseTarget, "os" | "arch">): boolean {
  return t.os === hostPlatform() && t.arch === hostArch();
}

/** The binary for this machine must run and report the version being released. */
function smokeTest(path: string, version: string): void {
  const p = Bun.spawnSync([path, "--version"], { stdout: "pipe", stderr: "pipe" });
  const out = p.stdout.toString().trim();
  if (p.exitCode !== 0 || out !== `agentmux ${version}`) {
    throw new ReleaseFailed({ step: "smoke", path, exit: p.exitCode, out, expected: `agentmux ${version}`, stderr: p.stderr.toString().trim() });
  }
}
