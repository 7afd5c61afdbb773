import { defineError } from "../errors.ts";

/** Another live run works in this checkout; resuming here would switch its branch. */
export const CheckoutBusy = defineError("CheckoutBusy", "session", (d: { projectDir: string; holder: string }) => ({
  message: `another run (${d.holder}) is working in this checkout`,
  where: d.projectDir,
  hint: `resume this session once that run has finished (agentmux status ${d.holder}); to stop it, press c in its monitor (agentmux attach ${d.holder})`,
}));
