// The status line above the list: the switch's confirmation, an error, or "working on it".
import { el, errorPanel } from "../../shared/app";
import { label, type ActiveSpace } from "./state";

export const statusBox = el("div", { class: "status", "data-testid": "status" });

export function showConfirmation(active: ActiveSpace, changed: boolean | undefined): void {
  statusBox.replaceChildren(
    el(
      "div",
      { class: "panel ok", role: "status" },
      el("strong", {}, `Active space is now ${label(active)}.`),
      el(
        "p",
        { class: "muted" },
        changed === false
          ? "It already was; nothing changed. Requests with this key keep using it unless they name another space."
          : "Requests with this key use it from now on, unless they name another space.",
      ),
    ),
  );
}

export function showError(title: string, detail: string): void {
  statusBox.replaceChildren(errorPanel(title, detail));
}

export function showWorking(message: string): void {
  statusBox.replaceChildren(el("p", { class: "muted", role: "status" }, message));
}
