import type { Logger } from "../effects/log.ts";

/**
 * A part of the orchestrator with a lifetime: `start` (when it has one) once the run's first
 * step is made, `stop` when the run ends. A service made running (the MCP endpoint, the
 * watchdog's timer) has only `stop`.
 */
export type Service = { readonly name: string; start?(): void; stop(): void };

/**
 * The orchestrator's services in one list: started in the order they were added, stopped in the
 * reverse order, each stop on its own (one that throws is logged and the others still stop).
 */
export class Services {
  readonly #list: Service[] = [];
  #stopped = false;

  constructor(private readonly log: Logger) {}

  add<S extends Service>(service: S): S {
    this.#list.push(service);
    return service;
  }

  /** A service from a stop function alone (a timer, a watcher made running). */
  running(name: string, stop: () => void): void {
    this.add({ name, stop });
  }

  get names(): string[] {
    return this.#list.map((s) => s.name);
  }

  startAll(): void {
    for (const s of this.#list) s.start?.();
  }

  stopAll(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    for (const s of [...this.#list].reverse()) {
      try {
        s.stop();
      } catch (e) {
        this.log(`stopping ${s.name}: ${(e as Error).message}`, { level: "warn" });
      }
    }
  }
}
