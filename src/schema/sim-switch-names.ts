/**
 * The names of the simulated agent's scenario switches (`agentmux demo --scenario`,
 * AGENTMUX_SIM_SCENARIO), without their schema: the command table loads these at every start
 * (shell completion). sim-scenario.ts checks at compile time that its schema has exactly these.
 */
export const SIM_SWITCH_NAMES = [
  "parallel",
  "design",
  "coders",
  "reviewers",
  "review_fail_once",
  "check_bug",
  "check_hang",
  "check_flaky",
  "check_base_failure",
  "review_fail_always",
  "line_comments",
  "malformed_plan_once",
  "review_focus",
  "gate_refuse_once",
  "commit_message",
  "research",
  "crash",
  "crash_once",
  "stall",
  "trust_dialog",
  "slow_start",
  "ignore_first_enter",
  "early_enter_ms",
  "crash_midway",
  "forget_submit",
  "ask",
  "permission",
  "rate_limit",
  "limit_reset_s",
  "probe",
  "hold",
] as const;
export type SimSwitchName = (typeof SIM_SWITCH_NAMES)[number];
