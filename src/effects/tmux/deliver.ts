import type { ReadyGate, SubmitStrategy } from "../../schema/config.ts";
import type { Logger } from "../log.ts";
import type { Tmux } from "./runner.ts";
import { inertLine } from "../../schema/inert-text.ts";
import { TmuxTargetNotFound, isGone } from "./errors.ts";
import { compileGate, pasteComplete, pasteVisible, snapshot, submitSign, type Snapshot } from "./screen.ts";

export type DeliverOptions = {
  submit: SubmitStrategy;
  ready: ReadyGate;
  trust: { detect: string; keys: string[] }[];
  /** extra readiness condition before the first prompt, e.g. the pane's MCP server answered tools/list */
  waitFirst?: () => boolean | Promise<boolean>;
  first?: boolean;
  /** called once the pasted text shows in the input box */
  onPasted?: () => void;
  /**
   * the agent acted after the paste (e.g. it called a tool): the prompt was taken, however fast
   * the agent went back to idle; no retry Enter is sent then
   */
  acted?: () => boolean;
  /**
   * the screen after the submit shows the CLI's answer to the prompt (a usage-limit or API
   * error line that was not there when the text was pasted): the prompt was taken
   */
  answered?: (pasted: string, now: string) => boolean;
};
/** `exited`: the pane's program ended during the delivery (its exit is reported on its own). */
export type DeliveryResult = { ok: true; ms: number; attempts: number } | { ok: false; reason: string; screen: string; exited?: boolean };

const POLL_MS = 10;
const PASTE_SHOW_MS = 3000;
const PASTE_WHOLE_MS = 500;

class DeliveryFailure extends Error {
  constructor(readonly reason: string, readonly screen: string, readonly exited = false) {
    super(reason);
  }
}

/**
 * Verified prompt delivery with one writer queue per pane: deliveries to the same pane run
 * strictly one after another in call order; different panes proceed in parallel.
 */
export class PaneWriter {
  private readonly queues = new Map<string, Promise<unknown>>();
  constructor(private readonly tmux: Tmux, private readonly log: Logger = () => {}) {}

  deliver(pane: string, text: string, opts: DeliverOptions): Promise<DeliveryResult> {
    const prev = this.queues.get(pane) ?? Promise.resolve();
    const run = prev.then(() => this.deliverNow(pane, text, opts));
    const tail = run.catch(() => {});
    this.queues.set(pane, tail);
    tail.then(() => {
      if (this.queues.get(pane) === tail) this.queues.delete(pane);
    });
    return run;
  }

  /** A short note to an agent (e.g. "research for X is ready in …"): same verified path. */
  notify(pane: string, text: string, opts: DeliverOptions): Promise<DeliveryResult> {
    return this.deliver(pane, text, { ...opts, first: false });
  }

  private async deliverNow(pane: string, raw: string, opts: DeliverOptions): Promise<DeliveryResult> {
    const started = performance.now();
    // ESC, CR, BS and friends would drive the receiving TUI; a delivered prompt is one line
    const text = inertLine(raw).trim();
    if (!text) return { ok: false, reason: "nothing to deliver: the text is empty after removing control characters", screen: "" };
    try {
      await this.waitReady(pane, opts, started);
      const attempts = await this.pasteAndSubmit(pane, text, opts);
      const ms = Math.round(performance.now() - started);
      this.log(`delivered to ${pane} in ${ms} ms (${attempts} submit attempt${attempts > 1 ? "s" : ""})`, { event: "delivered", pane, data: { ms, attempts } });
      return { ok: true, ms, attempts };
    } catch (e) {
      if (e instanceof DeliveryFailure) {
        this.log(`delivery to ${pane} failed: ${e.reason}`, { level: "warn", event: "delivery_failed", pane, data: { reason: e.reason } });
        return { ok: false, reason: e.reason, screen: e.screen, ...(e.exited ? { exited: true } : {}) };
      }
      const last = await snapshot(this.tmux, pane).catch(() => null);
      // the pane (or its session) vanished under the delivery: an exit, reported on its own
      const exited = e instanceof TmuxTargetNotFound || isGone(e);
      return { ok: false, reason: e instanceof Error ? e.message : String(e), screen: last?.screen ?? "", ...(exited ? { exited: true } : {}) };
    }
  }

  /** Leave copy mode, answer trust dialogs, then wait for the ready gate (bounded by ready.timeout_ms). */
  private async waitReady(pane: string, opts: DeliverOptions, started: number): Promise<void> {
    const gate = compileGate(opts.ready);
    const deadline = started + opts.ready.timeout_ms;
    let lastScreen = "";
    let stableSince = performance.now();
    let extraOk = !opts.first || !opts.waitFirst;
    // trust dialog texts are regular expressions, like the ready and busy patterns
    const trustDialogs = opts.trust.map((t) => ({ ...t, re: new RegExp(t.detect, "m") }));
    for (;;) {
      const snap = await this.alive(pane);
      if (snap.inMode) {
        await this.tmux.run(["send-keys", "-t", pane, "-X", "cancel"]);
        continue;
      }
      const dialog = trustDialogs.find((t) => t.re.test(snap.screen));
      if (dialog) {
        this.log(`answering "${dialog.detect}" in ${pane} with ${dialog.keys.join(" ")}`, { event: "dialog_answered", pane, data: { dialog: dialog.detect, keys: dialog.keys } });
        await this.tmux.run(["send-keys", "-t", pane, ...dialog.keys]);
        await this.until(pane, deadline, (s) => !dialog.re.test(s.screen), `the trust dialog "${dialog.detect}" did not go away`);
        stableSince = performance.now();
        continue;
      }
      const now = performance.now();
      if (snap.screen !== lastScreen) {
        lastScreen = snap.screen;
        stableSince = now;
      }
      const readyShown = gate.ready ? gate.ready.test(snap.screen) : snap.screen.trim().length > 0;
      const busy = gate.isBusy(snap);
      if (!extraOk && opts.waitFirst) extraOk = await opts.waitFirst();
      const settled = !opts.first || now - stableSince >= opts.ready.settle_ms;
      if (readyShown && !busy && settled && extraOk) return;
      if (now > deadline) {
        const why = !readyShown ? "the ready prompt never showed" : busy ? "the agent stayed busy" : !settled ? "the screen never settled" : "its MCP server never became ready";
        throw new DeliveryFailure(`not ready after ${opts.ready.timeout_ms} ms: ${why}`, snap.screen);
      }
      await Bun.sleep(POLL_MS);
    }
  }

  private async pasteAndSubmit(pane: string, text: string, opts: DeliverOptions): Promise<number> {
    const gate = compileGate(opts.ready);
    const before = await this.alive(pane);
    const buffer = `amx-${crypto.randomUUID()}`;
    await this.tmux.run(["load-buffer", "-b", buffer, "-", ";", "paste-buffer", "-p", "-d", "-b", buffer, "-t", pane], text);
    // wait for the whole paste; a start that shows alone for long (its end shared with an older
    // copy that scrolled off as it landed) is taken after PASTE_WHOLE_MS
    const shown = performance.now();
    const pasted = await this.until(
      pane,
      shown + PASTE_SHOW_MS,
      (s) => pasteComplete(before.screen, s.screen, text) || (performance.now() - shown > PASTE_WHOLE_MS && pasteVisible(before.screen, s.screen, text)),
      "the pasted text never showed in the input box",
    );
    opts.onPasted?.();
    if (opts.submit.delay_ms > 0) await Bun.sleep(opts.submit.delay_ms);
    const tries = opts.submit.retries + 1;
    for (let attempt = 1; attempt <= tries; attempt++) {
      // never a retry Enter into an agent that already acted on the prompt
      if (attempt > 1 && opts.acted?.()) return attempt - 1;
      await this.tmux.run(["send-keys", "-t", pane, ...opts.submit.keys]);
      const deadline = performance.now() + opts.submit.verify_ms;
      let gone = 0;
      for (;;) {
        const snap = await this.alive(pane);
        const sign = submitSign(gate, before, pasted, snap, text);
        // "the text left" twice in a row: one look may catch a redraw half done
        gone = sign === "gone" ? gone + 1 : 0;
        if (sign === "busy" || gone >= 2 || opts.acted?.() || opts.answered?.(pasted.screen, snap.screen)) return attempt;
        if (performance.now() > deadline) break;
        await Bun.sleep(POLL_MS);
      }
      this.log(`${pane}: submit not accepted after ${opts.submit.verify_ms} ms (attempt ${attempt}/${tries})`);
    }
    const last = await snapshot(this.tmux, pane);
    throw new DeliveryFailure(`the prompt was pasted but not accepted after ${tries} submit attempts (${opts.submit.keys.join(" ")})`, last.screen);
  }

  private async alive(pane: string): Promise<Snapshot> {
    const snap = await snapshot(this.tmux, pane);
    if (snap.dead) throw new DeliveryFailure(`pane ${pane} exited (status ${snap.exitStatus})`, snap.screen, true);
    return snap;
  }

  private async until(pane: string, deadline: number, ok: (s: Snapshot) => boolean, reason: string): Promise<Snapshot> {
    for (;;) {
      const snap = await this.alive(pane);
      if (ok(snap)) return snap;
      if (performance.now() > deadline) throw new DeliveryFailure(reason, snap.screen);
      await Bun.sleep(POLL_MS);
    }
  }
}
