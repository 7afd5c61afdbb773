import type { RunEvent } from "../../schema/run-api/event.ts";
import type { RunSnapshot, Waiting } from "../../schema/run-api/snapshot.ts";
import type { RunView } from "../source.ts";
import { DecideView } from "./decide-view.ts";
import { clock, duration, getJson, h, lineEl, money, postJson, replace, type Seg } from "./dom.ts";

/** One run: what the run API's snapshot says, its documents, its agents' screens, its live log, and (answering on) its decisions. */
export class RunPage {
  private readonly base: string;
  private readonly head = h("section", { class: "head" });
  private readonly waits = h("section", { class: "waiting" });
  private readonly agents = h("section", { class: "agents" });
  private readonly reviews = h("section", { class: "reviews" });
  private readonly checks = h("section", { class: "checks" });
  private readonly timeline = h("section", { class: "timeline" });
  private readonly feed = h("ol", { class: "feed" });
  private readonly docs = h("section", { class: "docs" });
  private readonly logBox = h("div", { class: "log mono" });
  private readonly decide: DecideView;
  private snapshot: RunSnapshot | null = null;
  private archived = false;
  private waitsKey = "";

  constructor(
    private readonly root: HTMLElement,
    private readonly project: number,
    private readonly id: string,
    private readonly answering: boolean,
  ) {
    this.base = `/api/runs/${project}/${encodeURIComponent(id)}`;
    this.decide = new DecideView(this.base, answering);
    replace(
      root,
      h("a", { class: "back", href: "#/" }, "← all runs"),
      this.head,
      this.waits,
      this.decide.el,
      this.agents,
      h("section", { class: "activity" }, h("h2", {}, "Just now"), this.feed),
      this.checks,
      this.reviews,
      this.timeline,
      this.docs,
      h("section", { class: "logs" }, h("h2", {}, "Log"), this.logBox),
    );
  }

  async load(): Promise<void> {
    try {
      this.run(await getJson<RunView>(this.base), []);
    } catch (e) {
      replace(this.head, h("p", { class: "bad" }, `cannot show run ${this.id}: ${(e as Error).message}`));
      return;
    }
    void this.loadDocs();
  }

  run(r: RunView, happened: RunEvent[]): void {
    if (r.project !== this.project || r.id !== this.id) return;
    const s = r.snapshot;
    const before = this.snapshot;
    this.archived = r.archived;
    this.snapshot = s;
    this.drawHead(s);
    this.drawWaits(s);
    this.drawAgents(s);
    this.drawReviews(s, r.review_comments);
    this.drawChecks(s);
    this.drawTimeline(s);
    this.decide.update(s, r.review_comments);
    this.drawEvents(happened);
    if (before && (before.phase !== s.phase || before.review_iteration !== s.review_iteration)) void this.loadDocs();
  }

  log(lines: Seg[][], reset: boolean): void {
    if (reset) this.logBox.replaceChildren();
    const atEnd = this.logBox.scrollTop + this.logBox.clientHeight >= this.logBox.scrollHeight - 4;
    for (const l of lines) this.logBox.append(lineEl(l));
    if (atEnd) this.logBox.scrollTop = this.logBox.scrollHeight;
  }

  private drawHead(s: RunSnapshot): void {
    const facts: [string, string][] = [
      ["Phase", `${s.phase} · ${s.last_event_label}`],
      ["Active", duration(s.active_ms)],
      ["Branch", s.branch ?? ""],
      ["Commit", s.commit_hash ?? ""],
      ["Pull request", s.pr_url ?? ""],
      ["Usage", s.usage ? `${s.usage.tokens} tokens ${money(s.usage.cost_usd)}${s.usage.simulated ? " (simulated)" : ""}` : ""],
      ["Budget", s.budget_reached ?? ""],
      ["Tool calls", String(s.tool_events)],
    ];
    replace(
      this.head,
      h("h1", {}, h("span", { class: `dot ${s.live ? "on" : ""}`, title: s.live ? "running" : "stopped" }), s.feature),
      h("div", { class: "muted small id" }, `${s.id} · ${s.live ? "running" : this.archived ? "finished (archived)" : "stopped"}`),
      h("dl", { class: "facts" }, ...facts.filter(([, v]) => v).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
      s.interruption
        ? h("p", { class: s.interruption.category === "canceled" ? "warn" : "bad" }, `${s.interruption.category}: ${s.interruption.cause ?? ""}`)
        : null,
      s.resume_command ? h("p", { class: "muted" }, "resume: ", h("code", {}, s.resume_command)) : null,
      ...s.notes.map((n) => h("p", { class: "muted" }, n)),
    );
  }

  private drawWaits(s: RunSnapshot): void {
    // redrawn only when what it waits for changes: an answer being typed stays
    const key = JSON.stringify([s.live, s.waiting_for]);
    if (key === this.waitsKey) return;
    this.waitsKey = key;
    const items = s.waiting_for.map((w) => this.waitItem(s, w));
    const cancel =
      this.answering && s.live
        ? h("div", { class: "actions" }, this.button("Cancel the run", "cancel", {}, "Cancel this run? It stops and stays resumable."))
        : null;
    replace(this.waits, ...(items.length ? [h("h2", {}, "Needs you"), ...items] : []), cancel);
  }

  private waitItem(s: RunSnapshot, w: Waiting): HTMLElement {
    const box = (title: string, text: string, ...more: (Node | null)[]) => h("div", { class: "wait" }, h("strong", {}, title), h("p", {}, text), ...more);
    const attach = h("p", { class: "muted small" }, `in a terminal: agentmux attach ${s.id}`);
    switch (w.kind) {
      case "decision":
        return box("Waits for your approval", this.answering ? "approve or request changes below" : "the page is read-only (agentmux serve --answer)");
      case "budget":
        return box("Paused at its budget", w.text, this.answering ? this.button("Go on past the budget", "go-on", {}) : null);
      case "agent_input":
        if (this.answering && w.question?.kind === "question") return box(`${w.agent} asks`, w.question.text, this.answerForm(w.agent));
        return box(`${w.agent} asks`, w.question?.text ?? "", h("p", { class: "muted small" }, "answer it in the agent's pane:"), attach);
      case "usage_limit":
        return box(`${w.agent} waits out a usage limit`, w.limit?.text ?? "");
      case "stuck_agent":
        return box(`${w.agent} is stuck`, w.note ?? "", attach);
    }
  }

  /** The answer to an agent's question, typed into its pane by the orchestrator. */
  private answerForm(agent: string): HTMLElement {
    const text = h("textarea", { rows: "3", "aria-label": `answer to ${agent}`, placeholder: "Your answer" });
    const send = h("button", { type: "button", class: "primary act-answer" }, "Send answer");
    const said = h("span", { class: "said" });
    send.addEventListener("click", async () => {
      send.disabled = true;
      const r = await postJson(`${this.base}/answer`, { agent, text: text.value });
      said.textContent = r.text;
      said.className = r.ok ? "said good" : "said bad";
      send.disabled = r.ok;
    });
    return h("div", {}, text, h("div", { class: "actions" }, send, said));
  }

  private drawEvents(happened: RunEvent[]): void {
    for (const e of happened) this.feed.prepend(h("li", {}, h("span", { class: "muted mono" }, clock("at" in e ? e.at : null)), ` ${eventText(e)}`));
    while (this.feed.children.length > 30) this.feed.lastElementChild?.remove();
  }

  private button(label: string, what: string, body: unknown, confirmText?: string): HTMLButtonElement {
    const b = h("button", { type: "button", class: `act-${what}` }, label);
    const said = h("span", { class: "said" });
    b.addEventListener("click", async () => {
      if (confirmText && !confirm(confirmText)) return;
      b.disabled = true;
      const r = await postJson(`${this.base}/${what}`, body);
      said.textContent = r.text;
      said.className = r.ok ? "said good" : "said bad";
      b.after(said);
      b.disabled = r.ok;
    });
    return b;
  }

  private drawAgents(s: RunSnapshot): void {
    const rows = [...s.agents, ...s.done_agents].map((a) => {
      const screen = h("pre", { class: "screen mono" });
      screen.hidden = true;
      const show = h("button", { type: "button", class: "small" }, "screen");
      show.addEventListener("click", async () => {
        if (!screen.hidden) return void (screen.hidden = true);
        try {
          const r = await getJson<{ lines: string[]; live: boolean }>(`${this.base}/screen/${encodeURIComponent(a.key)}`);
          screen.textContent = r.lines.join("\n") || "(empty screen)";
        } catch (e) {
          screen.textContent = `no screen: ${(e as Error).message}`;
        }
        screen.hidden = false;
      });
      return h(
        "div",
        { class: `agent st-${a.status.replace(/[^a-z_]/g, "")}` },
        h(
          "div",
          { class: "row" },
          h("strong", {}, a.label),
          h("span", { class: "badge" }, a.status),
          h("span", { class: "muted small" }, [a.provider, a.model].filter(Boolean).join("/")),
          show,
        ),
        a.detail ? h("div", { class: "small" }, a.detail) : null,
        a.usage ? h("div", { class: "muted small" }, `${a.usage.tokens} tokens ${money(a.usage.cost_usd)}`) : null,
        screen,
      );
    });
    replace(this.agents, h("h2", {}, "Agents"), ...(rows.length ? rows : [h("p", { class: "muted" }, "no agents now")]));
  }

  private drawReviews(s: RunSnapshot, reviewComments: RunView["review_comments"]): void {
    const verdicts = Object.entries(s.reviews).map(([role, r]) =>
      h(
        "div",
        { class: "review" },
        h("span", { class: `badge ${r.verdict === "pass" ? "good" : "bad"}` }, r.verdict),
        h("strong", {}, ` ${role} `),
        h("span", {}, r.summary.split("\n")[0] ?? ""),
      ),
    );
    const comments = reviewComments.map((c) =>
      h(
        "div",
        { class: `finding ${c.blocking ? "blocking" : ""}` },
        h(
          "a",
          { class: "anchor mono", href: "#", "data-file": c.file, title: "show this file's diff" },
          `${c.file}:${c.start_line}${c.end_line !== c.start_line ? `-${c.end_line}` : ""}`,
        ),
        h(
          "span",
          { class: "muted small" },
          ` ${c.reviewer} · round ${c.round}${c.severity ? ` · ${c.severity}` : ""}${c.addressed_in !== undefined ? ` · addressed in fix round ${c.addressed_in}` : ""}`,
        ),
        h("div", { class: "body" }, c.body),
      ),
    );
    for (const a of comments.map((c) => c.querySelector("a.anchor") as HTMLAnchorElement))
      a.addEventListener("click", (e) => (e.preventDefault(), this.decide.showDiff(a.getAttribute("data-file") ?? "")));
    replace(
      this.reviews,
      ...(verdicts.length || comments.length ? [h("h2", {}, `Reviews${s.review_round ? ` (round ${s.review_round})` : ""}`), ...verdicts, ...comments] : []),
    );
  }

  /** The project's checks of the latest round they ran in: state, tests, findings with their file anchors. */
  private drawChecks(s: RunSnapshot): void {
    const c = s.checks;
    if (!c || c.round === null) return replace(this.checks);
    const rows = c.results
      .filter((r) => r.round === c.round)
      .map((r) => {
        const good = r.state === "passed";
        const tag = r.blocking ? "blocking" : r.pre_existing ? "fails on the base too" : r.required === false ? "optional" : "";
        const findings = r.findings.slice(0, 20).map((f) => {
          const where = f.file ? `${f.file}${f.line ? `:${f.line}` : ""}` : "";
          const anchor = where ? h("a", { class: "anchor mono", href: "#", "data-file": f.file, title: "show this file's diff" }, where) : null;
          anchor?.addEventListener("click", (e) => (e.preventDefault(), this.decide.showDiff(f.file ?? "")));
          return h("div", { class: `finding ${r.blocking && !f.pre_existing ? "blocking" : ""}` }, anchor, h("div", { class: "body" }, f.message));
        });
        return h(
          "div",
          { class: "check" },
          h(
            "div",
            { class: "row" },
            h("span", { class: `badge ${good ? "good" : r.state === "queued" || r.state === "running" ? "busy" : "bad"}` }, r.state),
            h("strong", {}, r.name),
            tag ? h("span", { class: r.blocking ? "bad small" : "muted small" }, tag) : null,
          ),
          h(
            "div",
            { class: "muted small" },
            [r.tests ? `${r.tests.passing}/${r.tests.total} tests passing` : "", r.duration_ms !== null ? duration(r.duration_ms) : "", r.command ?? ""]
              .filter(Boolean)
              .join(" · "),
          ),
          ...findings,
        );
      });
    replace(
      this.checks,
      h("h2", {}, `Checks${c.round ? ` (fix round ${c.round})` : ""}${c.blocking.length ? ` · ${c.blocking.length} blocking` : ""}`),
      ...rows,
    );
  }

  private drawTimeline(s: RunSnapshot): void {
    const items = s.timeline.map((t) =>
      h("li", {}, h("span", { class: "muted mono" }, clock(t.at)), ` ${t.phase} · ${t.event} `, h("span", { class: "muted" }, duration(t.duration_ms))),
    );
    replace(this.timeline, h("details", {}, h("summary", {}, `Timeline (${items.length})`), h("ol", {}, ...items)));
  }

  private async loadDocs(): Promise<void> {
    try {
      const d = await getJson<{ requirements: string; plan: string; summary: string; review: string }>(`${this.base}/documents`);
      const doc = (title: string, text: string) => (text.trim() ? h("details", {}, h("summary", {}, title), h("pre", { class: "doc" }, text)) : null);
      replace(this.docs, doc("Request", d.requirements), doc("Plan", d.plan), doc("Review", d.review), doc("Summary", d.summary));
    } catch {
      // the run went away: its last documents stay
    }
  }
}

/** One run API event, in words. */
function eventText(e: RunEvent): string {
  switch (e.kind) {
    case "phase":
      return `${e.phase} (${e.event})`;
    case "agent_status":
      return `${e.label}: ${e.from ? `${e.from} → ` : ""}${e.status}`;
    case "review_verdict":
      return `${e.reviewer}: ${e.verdict} — ${e.summary.split("\n")[0]}`;
    case "awaiting_decision":
      return "waits for your approval";
    case "committed":
      return `committed ${e.commit.slice(0, 10)}${e.branch ? ` on ${e.branch}` : ""}`;
    case "pull_request":
      return `pull request ${e.url}`;
    case "interrupted":
      return `${e.category}: ${e.cause ?? ""}`;
    case "check":
      return `check ${e.name}: ${e.status}${e.blocking ? " (blocking)" : e.pre_existing ? " (fails on the base too)" : ""}`;
    case "budget_reached":
      return `budget reached${e.paused ? " (paused)" : ""}: ${e.text}`;
    case "notice":
      return e.message;
    default:
      return `${e.kind.replace(/_/g, " ")}${"agent" in e ? `: ${e.agent}` : ""}`;
  }
}
