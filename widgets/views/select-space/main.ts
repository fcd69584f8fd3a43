// select-space: a searchable, keyboard-usable picker of the key's spaces. The model's call of the
// `select-space` tool arrives as the tool result: "pick" (nothing changed yet) or "switched" (the
// model named a space and it is already active). Choosing a row calls `select-space` again with
// that key, marks it active and tells the model.
//   list.ts: the rows and the search box · keyboard.ts: keys · status.ts: the status line
import type { App } from "@modelcontextprotocol/ext-apps";
import { call, connect, data, el, render, start, tellModel, text, type ToolResult } from "../../shared/app";
import { bindKeyboard } from "./keyboard";
import { list, listNote, renderList, search, setChooser } from "./list";
import { showConfirmation, showError, showWorking, statusBox } from "./status";
import { label, state, visible, type ActiveSpace, type SelectResult, type Space } from "./state";
import "./style.css";

let resolveApp: (app: App) => void = () => {};
const appReady = new Promise<App>((resolve) => (resolveApp = resolve));

setChooser((space) => void choose(space));
bindKeyboard((space) => void choose(space));

// ---- choosing --------------------------------------------------------------------------------

async function choose(space: Space): Promise<void> {
  if (state.busy) return;
  state.busy = true;
  showWorking(`Switching to ${label(space)}…`);
  renderList();
  try {
    const app = await appReady;
    const result = await call<SelectResult>(app, "select-space", { containerTag: space.key });
    const active: ActiveSpace = result.activeSpace ?? { key: space.key, name: space.name, access: space.access };
    adopt(result, active.key);
    showConfirmation(active, result.changed);
    await tellModel(
      app,
      `The active Memory-MCP space is now ${active.name} (${active.key}), with ` +
        `${active.access === "ReadWrite" ? "read and write" : "read-only"} access. ` +
        "Requests with this key use it from now on unless they pass another containerTag.",
      { activeSpace: { key: active.key, name: active.name, access: active.access } },
    );
  } catch (err) {
    showError(`Could not switch to ${label(space)}.`, (err as Error).message || String(err));
  } finally {
    state.busy = false;
    renderList();
  }
}

/** Take in a server answer: a fresh list when it has one, and the active space. */
function adopt(result: SelectResult, fallbackActive: string | null): void {
  if (Array.isArray(result.spaces)) state.spaces = result.spaces;
  state.activeKey =
    result.activeSpace?.key ?? state.spaces.find((s) => s.active)?.key ?? fallbackActive ?? null;
  for (const s of state.spaces) s.active = s.key === state.activeKey;
  const shown = visible();
  const index = shown.findIndex((s) => s.key === state.activeKey);
  if (index >= 0) state.highlighted = index;
}

// ---- page ------------------------------------------------------------------------------------

function renderPicker(): void {
  if (state.spaces.length === 0) {
    render(
      el("h1", {}, "Choose the active space"),
      statusBox,
      el(
        "div",
        { class: "panel", "data-testid": "no-spaces" },
        el("p", {}, "This key has no spaces yet — ask an admin to grant one."),
      ),
    );
    return;
  }
  render(
    el("h1", {}, "Choose the active space"),
    el(
      "p",
      { class: "muted intro" },
      "Requests made with this key use the active space unless they name another one.",
    ),
    statusBox,
    el("label", { for: "space-search", class: "sr-only" }, "Search spaces"),
    search,
    listNote,
    list,
    el("p", { class: "muted hint" }, "Use ↑ and ↓ to move, Enter to choose, or click a space."),
  );
  renderList();
}

/** The model's tool call failed or carried no list: say so and offer to load the list. */
function renderWithoutList(title: string, detail: string | null, active: ActiveSpace | null, changed?: boolean): void {
  if (active) showConfirmation(active, changed);
  else if (detail !== null) showError(title, detail);
  const button = el("button", { type: "button", "data-testid": "load-spaces" }, "Show my spaces");
  button.addEventListener("click", () => void loadList(button));
  render(el("h1", {}, "Choose the active space"), statusBox, el("div", { class: "row actions" }, button));
}

async function loadList(button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  button.textContent = "Loading your spaces…";
  try {
    const app = await appReady;
    const result = await call<SelectResult>(app, "select-space", {});
    if (!Array.isArray(result.spaces)) throw new Error("The server sent no list of spaces.");
    if (!statusBox.querySelector(".ok")) statusBox.replaceChildren(); // drop an earlier error
    adopt(result, state.activeKey);
    renderPicker();
  } catch (err) {
    showError("Could not load your spaces.", (err as Error).message || String(err));
    button.disabled = false;
    button.textContent = "Try again";
  }
}

function onResult(result: ToolResult): void {
  if (result.isError) {
    renderWithoutList("The space could not be selected.", text(result) || "The server gave no reason.", null);
    return;
  }
  const found = data<SelectResult>(result);
  if (!found) {
    renderWithoutList("Nothing to show.", text(result) || "The server sent no data for this view.", null);
    return;
  }
  if (!Array.isArray(found.spaces)) {
    state.activeKey = found.activeSpace?.key ?? null;
    renderWithoutList("Nothing to show.", text(result) || "The server sent no list of spaces.",
      found.activeSpace ?? null, found.changed);
    return;
  }
  adopt(found, null);
  statusBox.replaceChildren();
  if (found.mode === "switched" && found.activeSpace) showConfirmation(found.activeSpace, found.changed);
  renderPicker();
}

start(async () => {
  const app = await connect("select-space", {
    onResult,
    onCancelled: (reason) =>
      render(
        el("div", { class: "panel", role: "status" },
          el("strong", {}, "The request was cancelled."),
          el("p", { class: "muted" }, reason ? `Reason: ${reason}` : "Nothing was changed.")),
      ),
  });
  resolveApp(app);
});
