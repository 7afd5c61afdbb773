import { existsSync, readFileSync } from "node:fs";
import { conversationFile, type SimEnv } from "./context.ts";
import type { SimMcp } from "./mcp-client.ts";
import { KeyDecoder, type KeyEvent } from "./terminal/keys.ts";
import { ENTER_SCREEN, LEAVE_SCREEN, TITLE_IDLE, TITLE_WORKING, titleSeq, view, type ScreenModel } from "./terminal/screen.ts";
import { SimWorker } from "./worker.ts";

const MAX_TRANSCRIPT = 500;

/**
 * The interactive simulated agent: raw mode + bracketed paste, a redraw-on-change screen,
 * the terminal difficulties of the scenario (trust dialog, slow start, dropped or early Enter).
 */
export class SimApp {
  private readonly model: ScreenModel;
  private readonly decoder = new KeyDecoder();
  private readonly worker: SimWorker;
  private redrawQueued = false;
  private title = "";
  private acceptInputAt = 0;
  private lastPasteEnd = -Infinity;
  private pasteSinceEnter = false;
  private droppedEnter = false;
  private answerDialog: ((allowed: boolean) => void) | null = null;
  private finish: (code: number) => void = () => undefined;

  constructor(
    readonly env: SimEnv,
    mcp: SimMcp | null,
    private readonly stdin: NodeJS.ReadStream = process.stdin,
    private readonly stdout: NodeJS.WriteStream = process.stdout,
  ) {
    this.model = { mode: "blank", role: env.role, workDir: env.workDir, transcript: [], input: "", busy: false };
    this.worker = new SimWorker(env, mcp, {
      say: (line) => this.say(line),
      busyChanged: (busy) => {
        this.model.busy = busy;
        this.redraw();
      },
      exit: (code) => this.exit(code, false),
      dialog: (text) =>
        new Promise<boolean>((resolve) => {
          this.say(text);
          this.model.dialog = true;
          this.answerDialog = (ok) => {
            this.answerDialog = null;
            this.model.dialog = false;
            resolve(ok);
          };
          this.redraw();
        }),
    });
  }

  /** Runs until Ctrl-C (130) or a simulated crash (3). */
  run(): Promise<number> {
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    if (this.stdin.isTTY) this.stdin.setRawMode(true);
    this.stdin.setEncoding("utf8");
    this.stdin.on("data", (chunk: string) => this.onData(chunk));
    this.stdin.resume();
    this.stdout.on("resize", () => this.redraw());
    const slow = this.env.scenario.slow_start ?? 0;
    this.acceptInputAt = Date.now() + slow;
    const c = this.env.conversation;
    if (c) {
      const file = this.env.sessionDir ? conversationFile(this.env.sessionDir, c.id) : "";
      const turns = file && existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0;
      this.say(c.resumed ? `● resumed conversation ${c.id} (${turns} earlier prompt${turns === 1 ? "" : "s"})` : `● conversation ${c.id}`);
    }
    const show = () => {
      // input is taken from the moment the screen is drawn (a timer may fire a little early)
      this.acceptInputAt = Math.min(this.acceptInputAt, Date.now());
      this.stdout.write(ENTER_SCREEN);
      this.model.mode = this.env.scenario.trust_dialog ? "trust" : "main";
      this.redraw();
    };
    if (slow > 0) setTimeout(show, slow);
    else show();
    return done;
  }

  private say(line: string): void {
    this.model.transcript.push(...line.split("\n"));
    if (this.model.transcript.length > MAX_TRANSCRIPT) this.model.transcript.splice(0, this.model.transcript.length - MAX_TRANSCRIPT);
    this.redraw();
  }

  private redraw(): void {
    if (this.redrawQueued) return;
    this.redrawQueued = true;
    queueMicrotask(() => {
      this.redrawQueued = false;
      this.draw();
    });
  }

  private draw(): void {
    if (this.model.mode === "blank") return;
    const title = this.model.busy ? TITLE_WORKING : TITLE_IDLE;
    let out = "";
    if (title !== this.title) {
      out += titleSeq(title);
      this.title = title;
    }
    out += view(this.model, this.stdout.columns || 80, this.stdout.rows || 24);
    this.stdout.write(out);
  }

  private onData(chunk: string): void {
    const events = this.decoder.feed(chunk);
    if (Date.now() < this.acceptInputAt || this.model.mode === "blank") return;
    for (const ev of events) this.onKey(ev);
    this.redraw();
  }

  private onKey(ev: KeyEvent): void {
    if (ev.t === "ctrl-c") return this.exit(130, true);
    if (this.model.mode === "trust") {
      if (ev.t === "enter") this.model.mode = "main";
      return;
    }
    if (this.answerDialog) {
      // a modal dialog takes only its answer keys
      if (ev.t === "text" && ev.s.trim().toLowerCase() === "y") this.answerDialog(true);
      else if (ev.t === "escape") this.answerDialog(false);
      return;
    }
    switch (ev.t) {
      case "text":
        this.model.input += ev.s;
        return;
      case "paste":
        this.model.input += ev.s.replace(/\r\n|\r|\n/g, " ");
        this.lastPasteEnd = Date.now();
        this.pasteSinceEnter = true;
        return;
      case "backspace":
        this.model.input = Array.from(this.model.input).slice(0, -1).join("");
        return;
      case "enter":
        return this.onEnter();
      case "escape":
        return;
    }
  }

  private onEnter(): void {
    const { scenario } = this.env;
    if (scenario.ignore_first_enter && this.pasteSinceEnter && !this.droppedEnter) {
      this.droppedEnter = true;
      return;
    }
    if (scenario.early_enter_ms !== undefined && Date.now() - this.lastPasteEnd < scenario.early_enter_ms) {
      this.model.input += "\n";
      return;
    }
    this.pasteSinceEnter = false;
    const line = this.model.input.replace(/\s+/g, " ").trim();
    this.model.input = "";
    if (line) this.worker.submit(line);
  }

  private exit(code: number, clean: boolean): void {
    this.draw();
    if (clean) this.stdout.write(LEAVE_SCREEN);
    if (this.stdin.isTTY) this.stdin.setRawMode(false);
    this.stdin.pause();
    // No MCP close: the process exits at once and the server sees EOF on its stdin.
    // (An SDK close still in flight made bun's process.exit linger with the pty already closed.)
    this.finish(code);
  }
}
