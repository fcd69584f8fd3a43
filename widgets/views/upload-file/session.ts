// One upload from the person's point of view: draw the progress page, ask `upload-start` for an
// upload URL (again, when the last one has expired), PUT the bytes, then follow the document.
import { call, el, render } from "../../shared/app";
import { formatBytes } from "./check";
import { follow } from "./follow";
import { showForm } from "./form";
import { expired, put } from "./put";
import { live, spaceName, state } from "./state";
import { clearOutcome, fail, showSteps } from "./steps";
import type { Session, Started } from "./types";

export async function upload(file: File, contentType: string, spaceKey: string): Promise<void> {
  const gen = ++state.generation;
  const fill = el("div", { class: "fill" });
  const progress = el("div", {
    class: "progress", "data-testid": "upload-progress", "data-sent": "0", "data-total": String(file.size),
    role: "progressbar", "aria-valuemin": "0", "aria-valuemax": String(file.size), "aria-valuenow": "0",
    "aria-label": "Bytes sent",
  }, fill);
  const progressText = el("p", { class: "muted progress-text" }, "Preparing the upload…");
  const steps = el("ol", { class: "steps", "data-testid": "upload-status", "data-status": "uploading", hidden: true });
  const stepHint = el("p", { class: "muted step-hint" });
  const outcome = el("div", { class: "outcome" });
  const actions = el("div", { class: "row actions" });
  const heading = el("h1", {}, `Uploading “${file.name}” to ${spaceName(spaceKey)}`);
  const s: Session = {
    gen, file, contentType, spaceKey, started: null, lastStep: "uploading",
    restart: () => {
      if (state.offer) showForm(state.offer, upload, s.spaceKey);
    },
    heading, progress, fill, progressText, steps, stepHint, outcome, actions,
  };
  render(
    el("section", { class: "session" },
      heading,
      progress, progressText, steps, stepHint, outcome, actions,
    ),
  );
  await begin(s);
}

/** Ask for an upload URL (again, when the last one has expired), then send the bytes. */
async function begin(s: Session): Promise<void> {
  clearOutcome(s);
  if (!s.started || expired(s.started)) {
    s.progressText.textContent = "Preparing the upload…";
    try {
      s.started = await call<Started>(state.app, "upload-start", {
        filename: s.file.name, contentType: s.contentType, size: s.file.size, containerTag: s.spaceKey,
      });
    } catch (err) {
      if (!live(s)) return;
      s.progressText.textContent = "Nothing was sent.";
      fail(s, "Memory-MCP did not accept this upload.", (err as Error).message, () => void begin(s));
      return;
    }
    if (!live(s)) return;
    if (s.started.space) s.spaceKey = s.started.space;
  }
  showSteps(s, "uploading");
  try {
    await put(s, s.started);
  } catch (err) {
    if (!live(s)) return;
    showSteps(s, "not-uploaded", "uploading");
    fail(s, "The file was not uploaded.", (err as Error).message, () => void begin(s));
    return;
  }
  if (!live(s)) return;
  s.progressText.textContent = `${formatBytes(s.file.size)} sent. Memory-MCP is processing it…`;
  showSteps(s, "queued");
  await follow(s);
}
