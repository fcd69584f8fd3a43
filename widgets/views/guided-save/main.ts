// guided-save: the model proposes a memory (content, category, space); the person reviews and
// edits it, picks one of the spaces this key can write to, and saves it. Nothing is written until
// they press "Save memory"; then the view says what happened (a new memory, a new version of an
// existing one, or already known) and tells the model.
//   form.ts: the form and its hints · validation.ts: the server's rules · outcome.ts: the result
import type { App } from "@modelcontextprotocol/ext-apps";
import {
  call,
  connect,
  data,
  el,
  errorPanel,
  render,
  start,
  tellModel,
  text,
  type Json,
  type ToolResult,
} from "../../shared/app";
import {
  category, categoryIssue, content, contentIssue, fields, fillSpaces, form, formError, note, prefill,
  showForm, space, state, str, submit, updateSubmit,
} from "./form";
import { modelNote, showOutcome } from "./outcome";
import type { GuidedSave, SaveResult } from "./types";
import { normalCategory } from "./validation";
import "./style.css";

let resolveApp: (app: App) => void = () => {};
const appReady = new Promise<App>((resolve) => (resolveApp = resolve));

function onInput(args: Json): void {
  // The model's arguments, before the server has answered: show them at once, not saveable yet.
  prefill(args);
  const tag = str(args.containerTag);
  if (!state.ready && state.spaces.length === 0) {
    space.replaceChildren(el("option", { value: tag }, tag ? tag : "Loading spaces…"));
    space.disabled = true;
  }
  showForm();
}

function onResult(result: ToolResult): void {
  if (result.isError) {
    showProblem("The draft could not be prepared.", text(result) || "The server gave no reason.");
    return;
  }
  const found = data<GuidedSave>(result);
  if (!found) {
    showProblem("The draft could not be prepared.", text(result) || "The server sent no data for this view.");
    return;
  }
  const writable = (found.writableSpaces ?? []).filter((s) => s && typeof s.key === "string");
  if (found.canSave === false || writable.length === 0) {
    render(
      el(
        "div",
        { class: "panel", role: "status", "data-testid": "nowhere-to-save" },
        el("p", {}, found.message || "There is nowhere you can save: this key cannot write to any space."),
      ),
    );
    return;
  }
  state.ready = true;
  if (typeof found.maxChars === "number" && found.maxChars > 0) state.maxChars = found.maxChars;
  prefill(found.draft ?? {});
  fillSpaces(writable, found.draft?.containerTag);
  note.replaceChildren(
    ...(found.message
      ? [el("div", { class: "panel", role: "note", "data-testid": "draft-note" }, el("p", {}, found.message))]
      : []),
  );
  showForm();
}

/** The tool call failed: say why, and never drop text the model or the person wrote. */
function showProblem(title: string, detail: string): void {
  const kept = content.value.trim();
  render(
    errorPanel(title, detail),
    kept
      ? el(
          "div",
          { class: "kept" },
          el("label", { for: "kept-text" }, "The text you were going to save (copy it from here)"),
          el("textarea", { id: "kept-text", rows: "5", readonly: true }, content.value),
        )
      : null,
  );
}

// ---- saving ----------------------------------------------------------------------------------

form.addEventListener("submit", (event) => event.preventDefault());
submit.addEventListener("click", () => void save());
form.addEventListener("keydown", (event) => {
  // Ctrl/Cmd+Enter saves from anywhere in the form; plain Enter in the category field too.
  const inCategory = event.target === category;
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey || inCategory)) {
    event.preventDefault();
    void save();
  }
});

async function save(): Promise<void> {
  if (state.saving || !state.ready) return;
  const problem = contentIssue() ?? categoryIssue();
  if (problem) {
    formError.replaceChildren(errorPanel("Not saved yet.", problem));
    (contentIssue() ? content : category).focus();
    return;
  }
  const args: Json = { action: "save", content: content.value, containerTag: space.value };
  const tag = normalCategory(category.value);
  if (tag) args.category = tag;

  state.saving = true;
  formError.replaceChildren();
  fields.disabled = true;
  updateSubmit();
  try {
    const app = await appReady;
    const result = await call<SaveResult>(app, "add_memory", args);
    showOutcome(result);
    await tellModel(app, modelNote(result), {
      action: result.action,
      memoryId: result.memory?.id ?? null,
      space: result.space,
      version: result.memory?.version ?? null,
      ...(result.supersedes ? { supersedes: result.supersedes.id } : {}),
      ...(result.keptSeparateFrom ? { keptSeparateFrom: result.keptSeparateFrom.id } : {}),
      ...(result.mayReplace ? { mayReplace: result.mayReplace.id } : {}),
    });
  } catch (err) {
    formError.replaceChildren(
      errorPanel("Nothing was saved.", `${(err as Error).message || String(err)} Your text is still here; you can try again.`),
    );
  } finally {
    state.saving = false;
    fields.disabled = false;
    updateSubmit();
  }
}

start(async () => {
  const app = await connect("guided-save", {
    onInput,
    onResult,
    onCancelled: (reason) => {
      if (state.ready) return; // the form already works; a late cancel of the model's call changes nothing
      showProblem("The request was cancelled before the draft was ready.", reason ? `Reason: ${reason}` : "Nothing was saved.");
    },
  });
  resolveApp(app);
});
