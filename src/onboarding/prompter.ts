import { createInterface, type Interface } from "node:readline";
import { Canceled } from "./errors.ts";

export type Option = { value: string; label?: string };

/**
 * Line-based questions on a terminal (Node readline, no extra dependency). Every answer has a
 * default shown in brackets that Enter keeps; a wrong answer is asked again with the reason.
 * Ctrl-C or Ctrl-D rejects the pending question with an exit-130 error, so a canceled wizard
 * writes nothing.
 */
export class Prompter {
  private pending: ((e: Error) => void) | null = null;
  private closed = false;

  constructor(
    private readonly rl: Interface,
    private readonly out: NodeJS.WritableStream,
  ) {
    const cancel = () => {
      this.closed = true;
      this.pending?.(new Canceled({}));
    };
    rl.on("SIGINT", () => {
      this.out.write("\n");
      cancel();
      rl.close();
    });
    rl.on("close", cancel);
  }

  static forTerminal(): Prompter {
    return new Prompter(createInterface({ input: process.stdin, output: process.stdout, terminal: true }), process.stdout);
  }

  say(text: string): void {
    this.out.write(text + "\n");
  }

  private line(question: string): Promise<string> {
    if (this.closed) return Promise.reject(new Canceled({}));
    return new Promise((resolve, reject) => {
      this.pending = reject;
      this.rl.question(question, (answer) => {
        this.pending = null;
        resolve(answer.trim());
      });
    });
  }

  /** Free text; Enter keeps `def`. */
  async text(label: string, def: string): Promise<string> {
    const answer = await this.line(`${label} [${def}]: `);
    return answer === "" ? def : answer;
  }

  /** y/n; Enter keeps `def`. */
  async confirm(label: string, def: boolean): Promise<boolean> {
    for (;;) {
      const answer = (await this.line(`${label} [${def ? "Y/n" : "y/N"}]: `)).toLowerCase();
      if (answer === "") return def;
      if (["y", "yes"].includes(answer)) return true;
      if (["n", "no"].includes(answer)) return false;
      this.say("  please answer y or n");
    }
  }

  /** One of `options`, by number or by value; Enter keeps `def` (null: no default, an answer is needed). */
  async choose(label: string, options: Option[], def: string | null): Promise<string> {
    this.say(label);
    options.forEach((o, i) => this.say(`  ${String(i + 1).padStart(2)}) ${o.value}${o.label ? `  ${o.label}` : ""}`));
    for (;;) {
      const answer = await this.line(def === null ? "choice (a number or a name): " : `choice [${def}]: `);
      if (answer === "" && def !== null) return def;
      if (answer === "") {
        this.say("  there is no default here: type the number or the name of one");
        continue;
      }
      const byNumber = /^\d+$/.test(answer) ? options[Number(answer) - 1] : undefined;
      const picked = byNumber ?? options.find((o) => o.value === answer);
      if (picked) return picked.value;
      this.say(`  "${answer}" is not one of: ${options.map((o) => o.value).join(", ")}`);
    }
  }

  close(): void {
    this.closed = true;
    this.rl.close();
  }
}
