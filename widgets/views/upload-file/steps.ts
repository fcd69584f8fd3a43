// Drawing one upload's progress in place: bytes sent, the step list, and the outcome area with
// its buttons (an error panel with Retry, or the way back to the form).
import { el, errorPanel } from "../../shared/app";
import { formatBytes } from "./check";
import { STEPS, type Session, type Step } from "./types";

export function setSent(s: Session, sent: number, total: number): void {
  const safeTotal = total > 0 ? total : s.file.size;
  s.progress.setAttribute("data-sent", String(sent));
  s.progress.setAttribute("data-total", String(safeTotal));
  s.progress.setAttribute("aria-valuemax", String(safeTotal));
  s.progress.setAttribute("aria-valuenow", String(sent));
  s.fill.style.width = `${safeTotal ? Math.min(100, (sent / safeTotal) * 100) : 0}%`;
  s.progressText.textContent = `${formatBytes(sent)} of ${formatBytes(safeTotal)} sent`;
}

/**
 * Draw the step list for `status` (written to data-status). With `failedAt`, that step is marked
 * as where it went wrong; otherwise the step named by `status` is the current one.
 */
export function showSteps(s: Session, status: string, failedAt?: Step): void {
  s.steps.hidden = false;
  s.steps.setAttribute("data-status", status);
  const reached = STEPS.findIndex((step) => step.status === (failedAt ?? status));
  const items = STEPS.map((step, i) => {
    let state: "done" | "current" | "failed" | "pending" = "pending";
    if (status === "done" || i < reached) state = "done";
    else if (i === reached) state = failedAt ? "failed" : "current";
    const mark = state === "done" ? "✓" : state === "failed" ? "✕" : state === "current" ? "●" : "○";
    return el("li", { class: state, "data-step": step.status, "aria-current": state === "current" ? "step" : undefined },
      el("span", { class: "mark", "aria-hidden": "true" }, mark),
      el("span", {}, step.label),
      state === "failed" ? el("span", { class: "sr-only" }, " (failed here)") : null,
    );
  });
  s.steps.replaceChildren(...items);
  const current = STEPS.find((step) => step.status === status);
  s.stepHint.textContent = current && !failedAt && status !== "done" ? current.doing : "";
  if (current && !failedAt) s.lastStep = current.status;
}

export function button(label: string, onClick: () => void, primary = false): HTMLButtonElement {
  const b = el("button", { type: "button", class: primary ? "primary" : undefined }, label);
  b.addEventListener("click", onClick);
  return b;
}

export function clearOutcome(s: Session): void {
  s.outcome.replaceChildren();
  s.actions.replaceChildren();
}

export function fail(s: Session, title: string, detail: string, retry: () => void, retryLabel = "Retry"): void {
  clearOutcome(s);
  const panel = errorPanel(title, detail);
  panel.setAttribute("data-testid", "upload-error");
  s.outcome.append(panel);
  s.actions.append(
    el("span", { class: "spacer" }),
    button("Choose another file", () => s.restart()),
    button(retryLabel, () => { clearOutcome(s); retry(); }, true),
  );
}
