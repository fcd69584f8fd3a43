// Following the document after its bytes are sent: poll `upload-status` (every second, then every
// three) through queued → extracting → embedding → done or failed, then show what came out of it
// and tell the model.
import { call, el, tellModel } from "../../shared/app";
import { formatBytes, plural } from "./check";
import { live, sleep, spaceName, state } from "./state";
import { button, clearOutcome, fail, showSteps } from "./steps";
import type { DocumentView, Session, StatusResult } from "./types";

const POLL_FAST_MS = 1000;
const POLL_SLOW_MS = 3000;
const SLOW_AFTER_MS = 30_000;
const GIVE_UP_AFTER_MS = 10 * 60_000;

export async function follow(s: Session): Promise<void> {
  const documentId = s.started!.documentId;
  const began = Date.now();
  let failures = 0;
  for (;;) {
    if (!live(s)) return;
    let result: StatusResult;
    try {
      result = await call<StatusResult>(state.app, "upload-status", { documentId, containerTag: s.spaceKey });
      failures = 0;
    } catch (err) {
      if (!live(s)) return;
      if (++failures >= 3) {
        fail(s, "Could not check on the file.", (err as Error).message, () => void follow(s), "Check again");
        return;
      }
      await sleep(POLL_SLOW_MS);
      continue;
    }
    if (!live(s)) return;
    const doc = result.document;
    if (doc.status === "failed") return failedOnServer(s, doc);
    showSteps(s, doc.status);
    if (doc.status === "done") return finished(s, result);
    const elapsed = Date.now() - began;
    if (elapsed > GIVE_UP_AFTER_MS) {
      clearOutcome(s);
      s.outcome.append(el("div", { class: "panel", role: "status" },
        el("strong", {}, `It is still ${doc.status} after 10 minutes.`),
        el("p", {}, "The server keeps working on it. Check again in a while, or ask the assistant about this document later."),
      ));
      s.actions.append(
        el("span", { class: "spacer" }),
        button("Upload another file", () => s.restart()),
        button("Check again", () => { clearOutcome(s); void follow(s); }, true),
      );
      return;
    }
    await sleep(elapsed < SLOW_AFTER_MS ? POLL_FAST_MS : POLL_SLOW_MS);
  }
}

function finished(s: Session, result: StatusResult): void {
  const doc = result.document;
  const memories = result.memories ?? [];
  const count = doc.memoryCount ?? memories.length;
  const title = doc.title || doc.filename || s.file.name;
  const space = spaceName(s.spaceKey);
  clearOutcome(s);
  s.heading.textContent = `Uploaded “${title}” to ${space}`;
  s.progressText.textContent = `${formatBytes(s.file.size)} sent and processed.`;

  const list = el("ul", { class: "memories", hidden: true },
    ...memories.map((m) => el("li", { "data-testid": "memory-item" }, m.memory)),
  );
  if (count > memories.length && memories.length > 0) {
    list.append(el("li", { class: "muted more" }, `…and ${plural(count - memories.length, "more memory", "more memories")}.`));
  }
  const toggle = memories.length > 0
    ? el("button", { type: "button", class: "link", "data-testid": "show-memories", "aria-expanded": "false" }, "Show its memories")
    : null;
  toggle?.addEventListener("click", () => {
    list.hidden = !list.hidden;
    toggle.textContent = list.hidden ? "Show its memories" : "Hide its memories";
    toggle.setAttribute("aria-expanded", String(!list.hidden));
  });
  const headline = count === 0
    ? `No memories came out of “${title}”.`
    : `${count === 1 ? "1 memory" : `${count.toLocaleString()} memories`} came out of “${title}”.`;
  s.outcome.append(
    el("div", { class: "panel ok", role: "status", "data-testid": "upload-done", "data-memory-count": String(count) },
      el("strong", {}, headline),
      doc.coverage?.note ? el("p", { class: "coverage" }, doc.coverage.note) : null,
      toggle,
      list,
    ),
  );
  s.actions.append(el("span", { class: "spacer" }), button("Upload another file", () => s.restart(), true));
  s.stepHint.textContent = "";

  const note = doc.coverage?.note && doc.coverage.complete === false ? ` ${doc.coverage.note}` : "";
  void tellModel(state.app,
    `Uploaded “${title}” to ${space}: ${plural(count, "memory was", "memories were")} extracted (document ${doc.id}).${note}`,
    {
      event: "upload-done", documentId: doc.id, title, space: s.spaceKey, memoryCount: count,
      coverage: doc.coverage?.note ?? null,
    });
}

function failedOnServer(s: Session, doc: DocumentView): void {
  const title = doc.title || doc.filename || s.file.name;
  const reason = doc.statusReason || "The server did not say why.";
  clearOutcome(s);
  showSteps(s, "failed", s.lastStep === "uploading" ? "queued" : s.lastStep);
  s.progressText.textContent = `${formatBytes(s.file.size)} sent.`;
  s.outcome.append(
    el("div", { class: "panel error", role: "alert", "data-testid": "upload-failed" },
      el("strong", {}, `Memory-MCP could not turn “${title}” into memories.`),
      el("p", { class: "reason" }, reason),
    ),
  );
  s.actions.append(el("span", { class: "spacer" }), button("Upload another file", () => s.restart(), true));
  void tellModel(state.app, `The upload of “${title}” to ${spaceName(s.spaceKey)} failed: ${reason}`,
    { event: "upload-failed", documentId: doc.id, title, space: s.spaceKey, reason });
}
