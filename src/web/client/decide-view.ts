import type { ReviewComment } from "../../schema/state.ts";
import type { RunSnapshot } from "../../schema/run-api/snapshot.ts";
import { getJson, h, postJson, replace } from "./dom.ts";

type Changes = {
  files: { path: string; status: string }[];
  proposed_message: string;
  draft: { commit_message?: string; exclude_files: string[]; change_request?: string } | null;
  commit: string | null;
};

/**
 * The run's changes: the files with their diffs and the reviewers' comments on them, and, while
 * the run waits for a decision and answering is on, what the approval panel offers: leave files
 * out, edit the commit message, approve, or request changes with a note.
 */
export class DecideView {
  readonly el = h("section", { class: "changes" });
  private readonly heading = h("h2", {}, "Changes");
  private readonly list = h("div", { class: "files" });
  private readonly diff = h("div", { class: "diff mono" });
  private readonly form = h("div", { class: "decide" });
  private waiting: boolean | null = null;
  private committed: string | null | undefined = undefined;
  private files: Changes["files"] = [];
  private comments: ReviewComment[] = [];
  private readonly excluded = new Set<string>();

  constructor(
    private readonly base: string,
    private readonly answering: boolean,
  ) {
    replace(this.el, this.heading, this.list, this.form, this.diff);
  }

  /** A new snapshot: the files are read again when the run starts or stops waiting for a decision. */
  update(s: RunSnapshot, comments: ReviewComment[]): void {
    this.comments = comments;
    const waiting = s.live && s.awaiting_decision;
    const committed = s.commit_hash;
    if (waiting === this.waiting && committed === this.committed) return;
    this.waiting = waiting;
    this.committed = committed;
    void this.load(s);
  }

  private async load(s: RunSnapshot): Promise<void> {
    let c: Changes;
    try {
      c = await getJson<Changes>(`${this.base}/changes`);
    } catch (e) {
      return replace(this.list, h("p", { class: "muted" }, `no changes to show: ${(e as Error).message}`));
    }
    this.files = c.files;
    this.heading.textContent = c.commit ? `Changes (committed in ${c.commit.slice(0, 10)})` : "Changes";
    this.excluded.clear();
    for (const p of c.draft?.exclude_files ?? []) this.excluded.add(p);
    this.drawFiles();
    replace(this.form);
    if (this.waiting && this.answering) this.drawForm(c);
    else if (this.waiting)
      this.form.append(
        h(
          "p",
          { class: "muted" },
          `The run waits for your decision. This page is read-only: approve in the terminal (agentmux attach ${s.id}), or restart the server with --answer.`,
        ),
      );
  }

  private drawFiles(): void {
    const rows = this.files.map((f) => {
      const n = this.comments.filter((c) => c.file === f.path).length;
      const name = h("a", { href: "#", class: "mono", "data-file": f.path }, f.path);
      name.addEventListener("click", (e) => (e.preventDefault(), this.showDiff(f.path)));
      const box = h("input", { type: "checkbox", "aria-label": `commit ${f.path}` });
      box.checked = !this.excluded.has(f.path);
      box.disabled = !(this.waiting && this.answering);
      box.addEventListener("change", () => (box.checked ? this.excluded.delete(f.path) : this.excluded.add(f.path)));
      return h(
        "div",
        { class: "file" },
        box,
        h("span", { class: `st ${f.status}` }, f.status[0]!.toUpperCase()),
        name,
        n ? h("span", { class: "badge" }, `${n} comment${n === 1 ? "" : "s"}`) : null,
      );
    });
    replace(this.list, ...(rows.length ? rows : [h("p", { class: "muted" }, "no changes")]));
  }

  async showDiff(file: string): Promise<void> {
    let text: string;
    try {
      text = (await getJson<{ diff: string }>(`${this.base}/diff?file=${encodeURIComponent(file)}`)).diff;
    } catch (e) {
      text = `cannot show the diff of ${file}: ${(e as Error).message}`;
    }
    const lines = text
      .split("\n")
      .map((l) =>
        h(
          "div",
          { class: l.startsWith("+") && !l.startsWith("+++") ? "add" : l.startsWith("-") && !l.startsWith("---") ? "del" : l.startsWith("@@") ? "hunk" : "" },
          l || " ",
        ),
      );
    const notes = this.comments
      .filter((c) => c.file === file)
      .map((c) =>
        h(
          "div",
          { class: "finding" },
          h("span", { class: "mono" }, `line ${c.start_line}${c.end_line !== c.start_line ? `-${c.end_line}` : ""} `),
          h("span", { class: "muted small" }, `${c.reviewer}: `),
          c.body,
        ),
      );
    replace(this.diff, h("div", { class: "diff-head mono" }, file), ...notes, ...lines);
    this.diff.scrollIntoView({ block: "nearest" });
  }

  private drawForm(c: Changes): void {
    const message = h("textarea", { class: "mono", rows: "5", "aria-label": "commit message" });
    message.value = c.draft?.commit_message ?? c.proposed_message;
    const note = h("textarea", { rows: "4", placeholder: "What should change?", "aria-label": "change request" });
    note.value = c.draft?.change_request ?? "";
    const said = h("p", { class: "said" });
    const approve = h("button", { type: "button", class: "primary act-approve" }, "Approve and commit");
    const changes = h("button", { type: "button", class: "act-changes" }, "Request changes");
    const send = async (what: string, body: unknown) => {
      approve.disabled = changes.disabled = true;
      const r = await postJson(`${this.base}/${what}`, body);
      said.textContent = r.text;
      said.className = r.ok ? "said good" : "said bad";
      if (!r.ok) approve.disabled = changes.disabled = false;
    };
    approve.addEventListener("click", () => void send("approve", { exclude_files: [...this.excluded], commit_message: message.value }));
    changes.addEventListener("click", () =>
      note.value.trim() ? void send("changes", { text: note.value }) : ((said.textContent = "say what should change first"), (said.className = "said bad")),
    );
    replace(
      this.form,
      h("label", {}, "Commit message", message),
      h("div", { class: "actions" }, approve),
      h("label", {}, "Or request changes", note),
      h("div", { class: "actions" }, changes),
      said,
    );
  }
}
