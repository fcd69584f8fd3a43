// The form, built once: prefilled from the tool input, completed by the tool result, with live
// hints (character count, category rule, chosen space) while the person edits.
import { el, render, type Json } from "../../shared/app";
import type { Draft, Space } from "./types";
import { DEFAULT_MAX_CHARS, categoryProblem, charCount, contentProblem } from "./validation";

export const state = {
  spaces: [] as Space[],
  ready: false, // the tool result (with the writable spaces) has arrived
  saving: false,
  maxChars: DEFAULT_MAX_CHARS,
  edited: { content: false, category: false, space: false },
};

export const content = el("textarea", {
  id: "draft-content",
  name: "content",
  rows: "6",
  required: true,
  "data-testid": "draft-content",
  "aria-describedby": "draft-count",
  placeholder: "The fact to remember, written so it makes sense on its own.",
});
const count = el("p", { id: "draft-count", class: "hint muted" });
export const category = el("input", {
  id: "draft-category",
  name: "category",
  type: "text",
  autocomplete: "off",
  spellcheck: "false",
  "data-testid": "draft-category",
  "aria-describedby": "draft-category-hint",
  placeholder: "e.g. preference, decision, convention",
});
const categoryHint = el("p", { id: "draft-category-hint", class: "hint muted" });
export const space = el("select", { id: "draft-space", name: "containerTag", "data-testid": "draft-space" });
const spaceHint = el("p", { class: "hint muted" });
// type=button and a click handler, not a form submit: hosts sandbox views without allow-forms,
// where a submit event never fires.
export const submit = el("button", { type: "button", class: "primary", "data-testid": "draft-submit" }, "Save memory");
export const formError = el("div", { class: "form-error", "data-testid": "save-error" });
export const note = el("div", { class: "note" });
export const fields = el(
  "fieldset",
  { class: "fields" },
  el("legend", { class: "sr-only" }, "The memory to save"),
  el("label", { for: "draft-content" }, "Memory"),
  content,
  count,
  el("label", { for: "draft-category" }, "Category ", el("span", { class: "muted optional" }, "(optional)")),
  category,
  categoryHint,
  el("label", { for: "draft-space" }, "Space"),
  space,
  spaceHint,
);
export const form = el(
  "form",
  { class: "draft", novalidate: true, "aria-label": "Save a memory" },
  el("h1", {}, "Review and save a memory"),
  el("p", { class: "muted intro" }, "Nothing is saved until you press “Save memory”. Edit the text and category first if you like."),
  note,
  fields,
  formError,
  el("div", { class: "row actions" }, submit, el("span", { class: "spacer" })),
);

/** What is wrong with the memory's text as it stands, or null. */
export function contentIssue(): string | null {
  return contentProblem(content.value, state.maxChars);
}

/** What is wrong with the category as it stands, or null. */
export function categoryIssue(): string | null {
  return categoryProblem(category.value);
}

function updateCount(): void {
  const { maxChars } = state;
  const n = charCount(content.value);
  const over = n > maxChars;
  count.textContent = over
    ? `${n.toLocaleString()} / ${maxChars.toLocaleString()} characters — ${(n - maxChars).toLocaleString()} too many.`
    : `${n.toLocaleString()} / ${maxChars.toLocaleString()} characters`;
  count.classList.toggle("bad", over);
  content.setAttribute("aria-invalid", over ? "true" : "false");
}

function updateCategoryHint(): void {
  const problem = categoryIssue();
  categoryHint.textContent =
    problem ?? "Letters, digits, spaces and _ . / : - , up to 64 characters; stored in lower case.";
  categoryHint.classList.toggle("bad", problem !== null);
  category.setAttribute("aria-invalid", problem ? "true" : "false");
}

function updateSpaceHint(): void {
  const chosen = state.spaces.find((s) => s.key === space.value);
  spaceHint.textContent = chosen
    ? `The memory will be saved in ${chosen.name || chosen.key}.`
    : state.ready
      ? ""
      : "Checking which spaces you can write to…";
}

export function updateSubmit(): void {
  submit.disabled = state.saving || !state.ready;
  submit.textContent = state.saving ? "Saving…" : "Save memory";
}

content.addEventListener("input", () => {
  state.edited.content = true;
  updateCount();
  if (formError.firstChild && contentIssue() === null && categoryIssue() === null) formError.replaceChildren();
});
category.addEventListener("input", () => {
  state.edited.category = true;
  updateCategoryHint();
  if (formError.firstChild && categoryIssue() === null && contentIssue() === null) formError.replaceChildren();
});
space.addEventListener("change", () => {
  state.edited.space = true;
  updateSpaceHint();
});

// ---- filling the form ------------------------------------------------------------------------

export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function prefill(draft: Draft | Json): void {
  if (!state.edited.content && str(draft.content)) content.value = str(draft.content);
  if (!state.edited.category && str(draft.category)) category.value = str(draft.category);
  updateCount();
  updateCategoryHint();
}

export function fillSpaces(list: Space[], preferred: string | null | undefined): void {
  const keep = state.edited.space ? space.value : "";
  state.spaces = list;
  space.replaceChildren(
    ...list.map((s) =>
      el("option", { value: s.key }, s.name && s.name !== s.key ? `${s.name} (${s.key})` : s.key),
    ),
  );
  const pick = [keep, preferred ?? "", list[0]?.key ?? ""].find((k) => k && list.some((s) => s.key === k));
  if (pick) space.value = pick;
  space.disabled = false;
  updateSpaceHint();
}

export function showForm(): void {
  if (!form.isConnected) render(form);
  updateCount();
  updateCategoryHint();
  updateSpaceHint();
  updateSubmit();
}

/** Back to an empty form after a save (the chosen space stays, if the person picked it). */
export function resetForm(): void {
  content.value = "";
  category.value = "";
  state.edited = { content: false, category: false, space: state.edited.space };
  formError.replaceChildren();
  note.replaceChildren();
  render(form);
  showForm();
  content.focus();
}
