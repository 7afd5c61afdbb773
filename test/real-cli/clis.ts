/**
 * The real CLIs the suite drives, and what each needs to talk to the mock model server
 * from a throwaway HOME with no dialog: the user-level files a user of that CLI would have
 * (API-key choice, onboarding done), plus a test config layer that points agentmux's provider
 * at the local binary and the mock. agentmux's own built-in catalog supplies everything else
 * (MCP wiring, pre-trust, auto-updater switches, role args) — that is what is under test.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findOnPath } from "../../src/providers/doctor.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

export type CliName = "claude" | "codex" | "gemini" | "qwen" | "opencode" | "copilot";

export type CliSetup = {
  /** user-level files written under the throwaway home */
  files: { path: string; content: string }[];
  /** the provider's extra env in the test config layer (merged over the built-in env) */
  env: Record<string, string>;
};

export type CliDef = {
  name: CliName;
  npm: string;
  setup(o: { home: string; repo: string; mockUrl: string }): CliSetup;
  /**
   * (opencode: "shown" is assumed, not yet measured by the suite's 429 test; qwen 0.24.4 shows the error
   * and retries by itself, 10 attempts 60 s apart (test/real-cli/record-screens.ts); copilot 1.0.102 retries
   * 5 times over about a minute by itself, then shows its error: measured.)
   * What the CLI does with an HTTP 429: `shown` — it gives up and shows an error that agentmux
   * must read as a usage limit (claude and codex, told not to retry); `retried` — it retries by
   * itself and shows only its spinner (gemini 0.61: immediately, ~15 requests/s, even with
   * general.maxAttempts=1), so the agent just looks busy until the limit lifts.
   */
  on429: "shown" | "retried";
  /** with "shown": the retries it makes by itself before it shows the error (copilot 1.0.102: 5, with no switch for it in its own-endpoint mode) */
  retries429?: number;
  /** every blocking screen text seen in reference/real-cli-behaviour.md §1.2, §1.5, §2.2, §2.5, §3.2, §3.5 */
  dialogs: string[];
};

const MOCK_KEY = "sk-ant-mock-0123456789abcdefghijklmnop";
/** the model name the Chat Completions CLIs ask the mock for */
const MOCK_MODEL = "mock-model";

/** XDG folders inside the throwaway home, and no proxy except to nowhere for non-loopback hosts. */
function isolation(home: string, mockUrl: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    // anything that is not loopback goes to the mock (logged there, never forwarded)
    HTTPS_PROXY: mockUrl,
    HTTP_PROXY: mockUrl,
    https_proxy: mockUrl,
    http_proxy: mockUrl,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  };
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";

export const CLIS: CliDef[] = [
  {
    name: "claude",
    npm: "@anthropic-ai/claude-code",
    on429: "shown",
    setup: ({ home, repo, mockUrl }) => ({
      files: [
        {
          // §1.1: onboarding done, the env key approved (stored as its last 20 characters), the repo trusted
          path: join(home, ".claude.json"),
          content: json({
            hasCompletedOnboarding: true,
            customApiKeyResponses: { approved: [MOCK_KEY.slice(-20)], rejected: [] },
            projects: { [repo]: { hasTrustDialogAccepted: true } },
          }),
        },
      ],
      env: {
        ...isolation(home, mockUrl),
        ANTHROPIC_BASE_URL: mockUrl,
        ANTHROPIC_API_KEY: MOCK_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        // a 429 is shown at once instead of after ten retries (the suite's limit test)
        CLAUDE_CODE_MAX_RETRIES: "0",
      },
    }),
    dialogs: [
      "Unable to connect to Anthropic services",
      "Choose the text style that looks best",
      "Security notes:",
      "Do you want to use this API key?",
      "Quick safety check",
      "Yes, I trust this folder",
      "Bypass Permissions mode",
      "New MCP server found in this project",
      "How is Claude doing this session?",
      "Do you want to proceed?",
    ],
  },
  {
    name: "codex",
    npm: "@openai/codex",
    on429: "shown",
    setup: ({ home, mockUrl }) => {
      const codexHome = join(home, ".codex");
      // §2.1: a custom provider with env_key skips sign-in and speaks plain HTTP SSE
      const toml = [
        `model = "mock-model"`,
        `model_provider = "mock"`,
        ``,
        `[model_providers.mock]`,
        `name = "Mock"`,
        `base_url = "${mockUrl}/v1"`,
        `env_key = "MOCK_API_KEY"`,
        `wire_api = "responses"`,
        `request_max_retries = 0`,
        `stream_max_retries = 0`,
        ``,
      ].join("\n");
      return {
        files: [{ path: join(codexHome, "config.toml"), content: toml }],
        env: { ...isolation(home, mockUrl), CODEX_HOME: codexHome, MOCK_API_KEY: "mock-key" },
      };
    },
    dialogs: [
      "Sign in with ChatGPT",
      "Trust this folder?",
      "Allow the agentmux MCP server to run tool",
      "MCP tool call requires approval",
      "user cancelled MCP tool call",
      "enter to submit | esc to cancel",
    ],
  },
  {
    name: "gemini",
    npm: "@google/gemini-cli",
    on429: "retried",
    setup: ({ home, mockUrl }) => ({
      files: [
        {
          // §3.2: the API-key auth type chosen, so neither auth screen shows; no usage statistics
          // one attempt per request: a 429 is shown at once instead of retried (the suite's limit test)
          path: join(home, ".gemini", "settings.json"),
          content: json({ security: { auth: { selectedType: "gemini-api-key" } }, privacy: { usageStatisticsEnabled: false }, general: { maxAttempts: 1 } }),
        },
      ],
      env: { ...isolation(home, mockUrl), GEMINI_API_KEY: "mock-key", GOOGLE_GEMINI_BASE_URL: mockUrl },
    }),
    dialogs: [
      "Do you trust the files in this folder?",
      "How would you like to authenticate",
      "Enter Gemini API Key",
      "Allow execution of MCP tool",
      "Waiting for user confirmation",
      "Action Required",
    ],
  },
  {
    name: "qwen",
    npm: "@qwen-code/qwen-code",
    on429: "shown",
    setup: ({ home, mockUrl }) => ({
      files: [
        {
          // §4: the OpenAI-compatible auth chosen (no auth screen), no auto-update (it installs globally)
          path: join(home, ".qwen", "settings.json"),
          content: json({
            general: { enableAutoUpdate: false },
            security: { auth: { selectedType: "openai" } },
            model: { name: MOCK_MODEL },
            privacy: { usageStatisticsEnabled: false },
          }),
        },
      ],
      env: { ...isolation(home, mockUrl), OPENAI_API_KEY: "mock-key", OPENAI_BASE_URL: `${mockUrl}/v1`, OPENAI_MODEL: MOCK_MODEL },
    }),
    dialogs: ["Allow execution of MCP tool", "Waiting for user confirmation", "How would you like to authenticate", "Do you trust the files in this folder?"],
  },
  {
    name: "opencode",
    npm: "opencode-ai",
    on429: "shown",
    setup: ({ home, mockUrl }) => ({
      files: [
        {
          // §4: a provider on the mock (OpenAI-compatible), chosen as the model; no auto-update
          path: join(home, ".config", "opencode", "opencode.json"),
          content: json({
            $schema: "https://opencode.ai/config.json",
            autoupdate: false,
            share: "disabled",
            model: `mock/${MOCK_MODEL}`,
            provider: {
              mock: {
                npm: "@ai-sdk/openai-compatible",
                name: "Mock",
                options: { baseURL: `${mockUrl}/v1`, apiKey: "mock-key" },
                models: { [MOCK_MODEL]: { name: "Mock Model", tool_call: true } },
              },
            },
          }),
        },
      ],
      env: { ...isolation(home, mockUrl), OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_SHARE: "1" },
    }),
    dialogs: ["Permission required", "Allow once", "Reject"],
  },
  {
    name: "copilot",
    npm: "@github/copilot",
    on429: "shown",
    retries429: 5,
    // `copilot help providers`: its own-endpoint (BYOK) mode needs no GitHub sign-in; offline: no telemetry, no update
    setup: ({ home, mockUrl }) => ({
      files: [],
      env: {
        ...isolation(home, mockUrl),
        COPILOT_PROVIDER_BASE_URL: `${mockUrl}/v1`,
        COPILOT_PROVIDER_TYPE: "openai",
        COPILOT_PROVIDER_API_KEY: "mock-key",
        COPILOT_PROVIDER_WIRE_API: "completions",
        COPILOT_MODEL: MOCK_MODEL,
        COPILOT_OFFLINE: "true",
        COPILOT_AUTO_UPDATE: "false",
      },
    }),
    dialogs: ["Do you trust the files in this folder?", "Sign in", "/login", "Do you want to", "Allow directory access"],
  },
];

/** Where the suite looks for a CLI: PATH first, then the prefix scripts/install-real-clis.sh fills. */
export const LOCAL_PREFIX = process.env.REAL_CLI_PREFIX || join(REPO_ROOT, ".real-cli");

export function findCli(name: CliName): string | null {
  return findOnPath(name, process.env.PATH ?? "") ?? findOnPath(join(LOCAL_PREFIX, "bin", name), "");
}

/**
 * Can the binary start at all here? `--version` in a throwaway HOME, offline. Returns null when
 * it ran, else the reason (for the skip message).
 */
export function probeCli(bin: string, scratch: string): string | null {
  mkdirSync(scratch, { recursive: true });
  const p = Bun.spawnSync([bin, "--version"], {
    env: { PATH: process.env.PATH ?? "", HOME: scratch, CODEX_HOME: join(scratch, ".codex"), DISABLE_AUTOUPDATER: "1", COPILOT_AUTO_UPDATE: "false" },
    stdout: "pipe",
    stderr: "pipe",
    timeout: 60_000,
  });
  if (p.exitCode === 0) return null;
  return `\`${bin} --version\` exited ${p.exitCode}: ${(p.stderr.toString() || p.stdout.toString()).trim().slice(0, 300)}`;
}

/** Write a CLI's user-level files. */
export function writeSetupFiles(setup: CliSetup): void {
  for (const f of setup.files) {
    mkdirSync(join(f.path, ".."), { recursive: true });
    writeFileSync(f.path, f.content);
  }
}
