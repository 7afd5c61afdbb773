import { z } from "zod";
import { ROLES } from "./catalog.ts";

/**
 * The GitHub Action's inputs. action.yml hands each input to `agentmux github-action` as an
 * environment variable `INPUT_<NAME>` (upper case), so no input is ever spliced into a shell
 * script. Every value arrives as a string; empty means "not set".
 */
/** true / false, or undefined when empty (then the configuration decides) */
const flag = z
  .string()
  .trim()
  .toLowerCase()
  .default("")
  .refine((s) => ["", "true", "false"].includes(s), "must be true or false")
  .transform((s) => (s === "" ? undefined : s === "true"));

const minutes = z
  .string()
  .trim()
  .default("")
  .refine((s) => s === "" || /^\d{1,5}$/.test(s), "must be a whole number of minutes")
  .transform((s) => (s === "" ? 0 : Number(s)));

const words = (fallback: string[]) =>
  z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(/[\s,]+/)
        .map((w) => w.trim())
        .filter(Boolean),
    )
    .transform((l) => (l.length ? l : fallback));

/** `role=provider` pairs, one per line or comma-separated. */
const providerMap = z
  .string()
  .default("")
  .transform((s, ctx) => {
    const out: Record<string, string> = {};
    for (const pair of s
      .split(/[\n,]+/)
      .map((p) => p.trim())
      .filter(Boolean)) {
      const m = /^([a-z_-]+)\s*[=:]\s*([A-Za-z0-9_.-]+)$/.exec(pair);
      if (!m || !(ROLES as readonly string[]).includes(m[1]!)) {
        ctx.addIssue({ code: "custom", message: `"${pair}" is not role=provider (roles: ${ROLES.join(", ")})` });
        continue;
      }
      out[m[1]!] = m[2]!;
    }
    return out;
  });

/** An npm package spec as `npm install` takes it (name[@version]); nothing a shell could read. */
export const NPM_SPEC = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*(@[A-Za-z0-9._^~<>=*-]+)?$/;

export const ActionInputs = z.object({
  request: z.string().default(""),
  /** scheduled and manual runs: the issue to work on */
  issue: z
    .string()
    .trim()
    .default("")
    .refine((s) => s === "" || /^#?\d{1,9}$/.test(s), "must be an issue number")
    .transform((s) => (s === "" ? null : Number(s.replace("#", "")))),
  provider: z
    .string()
    .trim()
    .default("")
    .refine((s) => s === "" || /^[A-Za-z0-9_.-]+$/.test(s), "must be a provider name"),
  providers: providerMap,
  config: z.string().trim().default(""),
  cli_packages: words([]).refine((l) => l.every((p) => NPM_SPEC.test(p)), "must be npm package names (name or name@version), separated by spaces"),
  trigger_phrase: z
    .string()
    .trim()
    .default("/agentmux")
    .transform((s) => s || "/agentmux"),
  label: z.string().trim().default("agentmux"),
  assignee: z
    .string()
    .trim()
    .default("")
    .transform((s) => s.replace(/^@/, "")),
  allowed_associations: words(["OWNER", "MEMBER", "COLLABORATOR"]).transform((l) => l.map((a) => a.toUpperCase())),
  timeout_minutes: minutes,
  phase_timeout_minutes: minutes,
  draft: flag,
});
export type ActionInputs = z.infer<typeof ActionInputs>;

export const INPUT_NAMES = Object.keys(ActionInputs.shape) as (keyof ActionInputs)[];
