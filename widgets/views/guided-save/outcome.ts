// After a save: what happened (a new memory, a new version of an existing one, or already known),
// shown to the person with a "Save another" button, and the sentence the model is told.
import { el, render } from "../../shared/app";
import { resetForm, state } from "./form";
import type { SaveResult } from "./types";

function spaceLabel(key: string): string {
  const found = state.spaces.find((s) => s.key === key);
  return found && found.name && found.name !== key ? `${found.name} (${key})` : key;
}

function quoted(value: string, max = 280): string {
  const flat = value.replace(/\s+/g, " ").trim();
  return `“${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}”`;
}

/** An identical text that was still changed: re-tagged, or kept as a saved memory. */
function changedInPlace(result: SaveResult): boolean {
  return result.categoryWas !== undefined || result.keptFromDocument !== undefined;
}

function inPlaceNote(result: SaveResult): string {
  const notes: string[] = [];
  if (result.categoryWas !== undefined) {
    notes.push(`its category is now “${result.memory.category ?? ""}” (was ${result.categoryWas ? `“${result.categoryWas}”` : "none"})`);
  }
  if (result.keptFromDocument !== undefined) {
    notes.push("it came from a document and is now kept as a saved memory too, so deleting that document no longer forgets it");
  }
  return notes.join("; ");
}

function headline(result: SaveResult): string {
  switch (result.action) {
    case "versioned":
      return `Saved as version ${result.memory.version ?? "?"} of an existing memory`;
    case "unchanged":
      return changedInPlace(result)
        ? "Already known — this exact text is stored, now updated in place"
        : "Already known — this exact text is stored";
    default:
      return "Saved as a new memory";
  }
}

export function showOutcome(result: SaveResult): void {
  const memory = result.memory;
  const again = el("button", { type: "button", "data-testid": "save-another" }, "Save another");
  again.addEventListener("click", resetForm);
  const panel = el(
    "div",
    {
      class: "panel ok outcome",
      role: "status",
      "data-testid": "save-result",
      "data-action": result.action,
      "data-memory-id": memory?.id ?? "",
    },
    el("strong", {}, headline(result)),
    el(
      "p",
      {},
      result.action === "unchanged" && !changedInPlace(result) ? "Nothing changed in " : "In ",
      el("span", { class: "space-name" }, spaceLabel(result.space)),
      ". Memory id ",
      el("code", { "data-testid": "memory-id" }, memory?.id ?? "unknown"),
      memory?.category ? `, category “${memory.category}”` : "",
      ".",
    ),
    memory?.memory ? el("blockquote", { class: "memory-text" }, memory.memory) : null,
    changedInPlace(result)
      ? el("p", { class: "muted", "data-testid": "changed-in-place" },
          `Updated in place: ${inPlaceNote(result)}.`)
      : null,
    result.supersedes
      ? el(
          "p",
          { class: "muted" },
          `It replaces version ${result.supersedes.version ?? "?"}, which stays in the history: `,
          quoted(result.supersedes.memory),
        )
      : null,
    result.keptSeparateFrom
      ? el(
          "p",
          { class: "muted" },
          "A similar memory was kept separate, so both stay current: ",
          quoted(result.keptSeparateFrom.memory),
          result.keptSeparateFrom.reason ? ` — ${result.keptSeparateFrom.reason}.` : ".",
        )
      : null,
    result.mayReplace
      ? el(
          "p",
          { class: "muted", "data-testid": "may-replace" },
          "It may correct a memory that is still current: ",
          quoted(result.mayReplace.memory),
          result.mayReplace.differs?.length ? ` (${result.mayReplace.differs.join("; ")})` : "",
          ". If it does, ask the assistant to forget that one.",
        )
      : null,
    el("div", { class: "row actions" }, again),
  );
  render(panel);
  again.focus({ preventScroll: true });
}

export function modelNote(result: SaveResult): string {
  const where = `space ${spaceLabel(result.space)}`;
  const id = result.memory?.id ?? "unknown";
  const what = result.memory?.memory ? ` ${quoted(result.memory.memory, 200)}` : "";
  let message: string;
  if (result.action === "versioned") {
    message =
      `Through the guided-save view the person saved${what} in ${where} as version ` +
      `${result.memory.version ?? "?"} of an existing memory (memory id ${id}; it supersedes ` +
      `${result.supersedes?.id ?? "an older version"}).`;
  } else if (result.action === "unchanged") {
    message =
      `Through the guided-save view the person tried to save${what} in ${where}; this exact text ` +
      `was already stored as memory ${id}, ` +
      (changedInPlace(result) ? `so only this changed: ${inPlaceNote(result)}.` : "so nothing changed.");
  } else {
    message = `Through the guided-save view the person saved a new memory${what} in ${where} (memory id ${id}).`;
    if (result.keptSeparateFrom) {
      message += ` It was kept separate from the similar memory ${result.keptSeparateFrom.id}` +
        (result.keptSeparateFrom.reason ? `: ${result.keptSeparateFrom.reason}.` : ".");
    }
    if (result.mayReplace) {
      message += ` It may correct memory ${result.mayReplace.id} (${quoted(result.mayReplace.memory, 200)}), ` +
        "which is still current; if the person confirms, forget that one by memoryId.";
    }
  }
  return message;
}
