import type { ReadyGate, SubmitStrategy } from "../../schema/config.ts";
import type { Logger } from "../log.ts";
import { Tmux } from "./runner.ts";
import { monotonicClock, type Clock } from "../clock.ts";
import { inertLine } from "../../schema/inert-text.ts";
import { TmuxTargetNotFound, isGone } from "./errors.ts";
import { compileGate, pasteComplete, pasteVisible, submitSign, type CompiledGate, type Snapshot } from "./screen.ts";
import { tmuxPane, type PaneIO } from "./pane-io.ts";

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
/** a pane prepared ahead is looked at less often: nobody waits on it yet, and a later look only delays its settle */
const PREPARE_POLL_MS = 50;
const PASTE_SHOW_MS = 3000;
const PASTE_WHOLE_MS = 500;
/** pastes of one prompt at most, when the first never shows in an empty input box */
const PASTE_TRIES = 3;

/** What a pane that never got ready last showed (its last non-empty lines), for the reason an agent is stuck. */
function lastLines(screen: string): string {
  const lines = screen
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3);
  return lines.length ? `; its screen ends: ${lines.join(" / ").slice(0, 300)}` : "";
}

/** clock time at the end of each step of one delivery (for the delivered log line). */
type Steps = { ready: number; pasted?: number; entered?: number };

class DeliveryFailure extends Error {
  constructor(
    readonly reason: string,
    readonly screen: string,
    readonly exited = false,
  ) {
    super(reason);
  }
}

/**
 * Verified prompt delivery with one writer queue per pane: deliveries to the same pane run
 * strictly one after another in call order; different panes proceed in parallel.
 */
export class PaneWriter {
  private readonly queues = new Map<string, Promise<unknown>>();
  /**
   * The screen a pane showed when last looked at before its first prompt, and since when
   * (on the writer's clock): a first delivery's settle time counts from there, so a pane prepared
   * ahead (`prepare`) has settled already when its prompt comes.
   */
  private readonly seen = new Map<string, { screen: string; since: number }>();
  /** panes being prepared: a delivery queued behind a preparation ends it (it waits on its own) */
  private readonly preparing = new Map<string, { stop: boolean }>();
  /**
   * panes a preparation found ready on a settled screen: their start-up drawing is over, so their
   * first prompt waits for no second settle_ms when the screen changed since (claude's animated
   * logo, a redraw when the pane is shown): only for the ready prompt, no busy sign and the MCP gate
   */
  private readonly prepared = new Set<string>();
  private readonly io: PaneIO;
  constructor(
    tmux: Tmux | PaneIO,
    private readonly log: Logger = () => {},
    private readonly clock: Clock = monotonicClock,
  ) {
    this.io = tmux instanceof Tmux ? tmuxPane(tmux) : tmux;
  }

  deliver(pane: string, text: string, opts: DeliverOptions): Promise<DeliveryResult> {
    const prep = this.preparing.get(pane);
    if (prep) prep.stop = true;
    return this.enqueue(pane, () => this.deliverNow(pane, text, opts));
  }

  /**
   * Get a pane ready for its first prompt ahead of time (a pre-started agent, #15.3): answer its
   * trust dialog, then wait for its ready prompt, its extra gate (`waitFirst`: MCP) and a screen
   * that has settled — what the first delivery would otherwise wait for at the handoff. Never
   * sends text. Resolves with whether the pane got ready; false when it did not within
   * ready.timeout_ms, exited, or a delivery came first (that delivery goes on from what was seen).
   */
  prepare(pane: string, opts: DeliverOptions): Promise<boolean> {
    const state = { stop: false };
    this.preparing.set(pane, state);
    return this.enqueue(pane, async () => {
      try {
        if (state.stop) return false;
        await this.waitReady(pane, { ...opts, first: true }, this.clock.now(), { pollMs: PREPARE_POLL_MS, stop: () => state.stop });
        if (state.stop) return false;
        this.prepared.add(pane);
        return true;
      } catch (e) {
        if (!(e instanceof DeliveryFailure) && !(e instanceof TmuxTargetNotFound) && !isGone(e)) throw e;
        return false;
      } finally {
        if (this.preparing.get(pane) === state) this.preparing.delete(pane);
      }
    });
  }

  /** A pane that will get no prompt (a pre-start closed unused): what was seen of it goes. */
  forget(pane: string): void {
    this.seen.delete(pane);
    this.prepared.delete(pane);
    const prep = this.preparing.get(pane);
    if (prep) prep.stop = true;
  }

  /** Run `job` after every earlier job of the pane (one writer per pane). */
  private enqueue<T>(pane: string, job: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(pane) ?? Promise.resolve();
    const run = prev.then(job);
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
    const started = this.clock.now();
    // ESC, CR, BS and friends would drive the receiving TUI; a delivered prompt is one line
    const text = inertLine(raw).trim();
    if (!text) return { ok: false, reason: "nothing to deliver: the text is empty after removing control characters", screen: "" };
    try {
      await this.waitReady(pane, opts, started);
      // the paste changes the screen: what was seen before the first prompt is of no more use
      this.seen.delete(pane);
      this.prepared.delete(pane);
      const steps: Steps = { ready: this.clock.now() };
      const attempts = await this.pasteAndSubmit(pane, text, opts, steps);
      const end = this.clock.now();
      const ms = Math.round(end - started);
      // where the time went: ready gate, paste shown, submit delay, submit taken
      const split = {
        ready_ms: Math.round(steps.ready - started),
        paste_ms: Math.round(steps.pasted! - steps.ready),
        delay_ms: Math.round(steps.entered! - steps.pasted!),
        accept_ms: Math.round(end - steps.entered!),
      };
      this.log(
        `delivered to ${pane} in ${ms} ms (${attempts} submit attempt${attempts > 1 ? "s" : ""}; ready ${split.ready_ms}, paste ${split.paste_ms}, delay ${split.delay_ms}, accept ${split.accept_ms} ms)`,
        { event: "delivered", pane, data: { ms, attempts, ...split } },
      );
      return { ok: true, ms, attempts };
    } catch (e) {
      if (e instanceof DeliveryFailure) {
        this.log(`delivery to ${pane} failed: ${e.reason}`, { level: "warn", event: "delivery_failed", pane, data: { reason: e.reason } });
        return { ok: false, reason: e.reason, screen: e.screen, ...(e.exited ? { exited: true } : {}) };
      }
      const last = await this.io.look(pane).catch(() => null);
      // the pane (or its session) vanished under the delivery: an exit, reported on its own
      const exited = e instanceof TmuxTargetNotFound || isGone(e);
      return { ok: false, reason: e instanceof Error ? e.message : String(e), screen: last?.screen ?? "", ...(exited ? { exited: true } : {}) };
    }
  }

  /**
   * Leave copy mode, answer trust dialogs, then wait for the ready gate (bounded by
   * ready.timeout_ms). The settle time of a first prompt counts from when the screen last
   * changed as this writer saw it, also before this call (`prepare`).
   */
  private async waitReady(pane: string, opts: DeliverOptions, started: number, o: { pollMs?: number; stop?: () => boolean } = {}): Promise<void> {
    const gate = compileGate(opts.ready);
    const deadline = started + opts.ready.timeout_ms;
    const before = this.seen.get(pane);
    let lastScreen = before?.screen ?? "";
    let stableSince = before?.since ?? this.clock.now();
    let extraOk = !opts.first || !opts.waitFirst;
    // trust dialog texts are regular expressions, like the ready and busy patterns
    const trustDialogs = opts.trust.map((t) => ({ ...t, re: new RegExp(t.detect, "m") }));
    for (;;) {
      const snap = await this.alive(pane);
      if (snap.inMode) {
        await this.io.keys(pane, ["-X", "cancel"]);
        continue;
      }
      const dialog = trustDialogs.find((t) => t.re.test(snap.screen));
      if (dialog) {
        this.log(`answering "${dialog.detect}" in ${pane} with ${dialog.keys.join(" ")}`, {
          event: "dialog_answered",
          pane,
          data: { dialog: dialog.detect, keys: dialog.keys },
        });
        await this.io.keys(pane, dialog.keys);
        await this.until(pane, deadline, (s) => !dialog.re.test(s.screen), `the trust dialog "${dialog.detect}" did not go away`);
        stableSince = this.clock.now();
        continue;
      }
      const now = this.clock.now();
      if (snap.screen !== lastScreen) {
        lastScreen = snap.screen;
        stableSince = now;
        this.seen.set(pane, { screen: lastScreen, since: stableSince });
      }
      const readyShown = gate.ready ? gate.ready.test(snap.screen) : snap.screen.trim().length > 0;
      const busy = gate.isBusy(snap);
      if (!extraOk && opts.waitFirst) extraOk = await opts.waitFirst();
      const settled = !opts.first || this.prepared.has(pane) || now - stableSince >= opts.ready.settle_ms;
      if (readyShown && !busy && settled && extraOk) return;
      if (o.stop?.()) return;
      if (now > deadline) {
        const why = !snap.screen.trim()
          ? "the pane stayed blank (the CLI drew nothing)"
          : !readyShown
            ? "the ready prompt never showed"
            : busy
              ? "the agent stayed busy"
              : !settled
                ? "the screen never settled"
                : "its MCP server never became ready";
        throw new DeliveryFailure(`not ready after ${opts.ready.timeout_ms} ms: ${why}${lastLines(snap.screen)}`, snap.screen);
      }
      await this.clock.sleep(o.pollMs ?? POLL_MS);
    }
  }

  private async pasteAndSubmit(pane: string, text: string, opts: DeliverOptions, steps: Steps): Promise<number> {
    const gate = compileGate(opts.ready);
    const before = await this.alive(pane);
    const pasted = await this.pasteShown(pane, text, gate, before);
    opts.onPasted?.();
    steps.pasted = this.clock.now();
    if (opts.submit.delay_ms > 0) await this.clock.sleep(opts.submit.delay_ms);
    steps.entered = this.clock.now();
    const tries = opts.submit.retries + 1;
    for (let attempt = 1; attempt <= tries; attempt++) {
      // never a retry Enter into an agent that already acted on the prompt
      if (attempt > 1 && opts.acted?.()) return attempt - 1;
      await this.io.keys(pane, opts.submit.keys);
      const deadline = this.clock.now() + opts.submit.verify_ms;
      let gone = 0;
      for (;;) {
        // an agent that took the prompt and finished at once has its pane closed under this look
        // (its submit reaches the in-process endpoint within milliseconds): that was a delivery
        const snap = await this.alive(pane).catch((e) => {
          if (opts.acted?.()) return null;
          throw e;
        });
        if (!snap) return attempt;
        const sign = submitSign(gate, before, pasted, snap, text);
        // "the text left" twice in a row: one look may catch a redraw half done
        gone = sign === "gone" ? gone + 1 : 0;
        if (sign === "busy" || gone >= 2 || opts.acted?.() || opts.answered?.(pasted.screen, snap.screen)) return attempt;
        if (this.clock.now() > deadline) break;
        await this.clock.sleep(POLL_MS);
      }
      this.log(`${pane}: submit not accepted after ${opts.submit.verify_ms} ms (attempt ${attempt}/${tries})`);
    }
    const last = await this.io.look(pane);
    throw new DeliveryFailure(`the prompt was pasted but not accepted after ${tries} submit attempts (${opts.submit.keys.join(" ")})`, last.screen);
  }

  /**
   * Paste the text and wait until the whole of it shows; a start that shows alone for long (its
   * end shared with an older copy that scrolled off as it landed) is taken after PASTE_WHOLE_MS.
   * A paste that never shows while the input box is still empty (the ready prompt: a CLI that
   * dropped it, as claude 2.1.197 did under load) is pasted again, up to PASTE_TRIES in all; a
   * box that shows something else is never pasted into twice.
   */
  private async pasteShown(pane: string, text: string, gate: CompiledGate, before: Snapshot): Promise<Snapshot> {
    for (let paste = 1; ; paste++) {
      await this.io.paste(pane, text);
      const shown = this.clock.now();
      try {
        return await this.until(
          pane,
          shown + PASTE_SHOW_MS,
          (s) =>
            pasteComplete(before.screen, s.screen, text, gate.paste) ||
            (this.clock.now() - shown > PASTE_WHOLE_MS && pasteVisible(before.screen, s.screen, text, gate.paste)),
          paste > 1 ? `the pasted text never showed in the input box (pasted ${paste} times)` : "the pasted text never showed in the input box",
        );
      } catch (e) {
        const lost = e instanceof DeliveryFailure && !e.exited && (!gate.ready || gate.ready.test(e.screen)) && !gate.isBusy({ screen: e.screen, title: "" });
        if (!lost || paste >= PASTE_TRIES) throw e;
        this.log(`${pane}: the paste never showed and the input box is empty: pasting again (${paste + 1}/${PASTE_TRIES})`, {
          level: "warn",
          event: "paste_retried",
          pane,
          data: { paste: paste + 1 },
        });
      }
    }
  }

  private async alive(pane: string): Promise<Snapshot> {
    const snap = await this.io.look(pane);
    if (snap.dead) throw new DeliveryFailure(`pane ${pane} exited (status ${snap.exitStatus})`, snap.screen, true);
    return snap;
  }

  private async until(pane: string, deadline: number, ok: (s: Snapshot) => boolean, reason: string): Promise<Snapshot> {
    for (;;) {
      const snap = await this.alive(pane);
      if (ok(snap)) return snap;
      if (this.clock.now() > deadline) throw new DeliveryFailure(reason, snap.screen);
      await this.clock.sleep(POLL_MS);
    }
  }
}
