// The list of spaces and its search box, built once so the search box keeps its focus while the
// list re-renders; renderList draws the rows for the current query and highlight.
import { ago, el } from "../../shared/app";
import { state, visible, type Space } from "./state";

export const search = el("input", {
  type: "search",
  id: "space-search",
  "data-testid": "space-search",
  placeholder: "Search by name or key",
  autocomplete: "off",
  spellcheck: "false",
  role: "combobox",
  "aria-autocomplete": "list",
  "aria-expanded": "true",
  "aria-controls": "space-list",
});
export const list = el("ul", {
  id: "space-list",
  class: "spaces",
  role: "listbox",
  tabindex: "0",
  "aria-label": "Your spaces",
  "data-testid": "space-list",
});
export const listNote = el("p", { class: "muted list-note", role: "status" });

/** What a click on a row does (choose, in main.ts). */
let onChoose: (space: Space) => void = () => {};

export function setChooser(choose: (space: Space) => void): void {
  onChoose = choose;
}

// ---- wording ---------------------------------------------------------------------------------

function accessWords(space: Space): string {
  return space.access === "ReadWrite" ? "Can read and write" : "Can read";
}

function readerNote(space: Space): string | null {
  // Effective access is the grant limited by the account's role: a ReadWrite grant that is
  // effectively Read means the account itself is a Reader.
  return space.access === "Read" && space.grantedAccess === "ReadWrite"
    ? "Read only because your account is a Reader."
    : null;
}

function counted(n: number | undefined, one: string, many: string): string {
  const value = n ?? 0;
  return `${value.toLocaleString()} ${value === 1 ? one : many}`;
}

function lastActivity(iso: string | null | undefined): string {
  return iso ? `Last activity ${ago(iso)}` : "No activity yet";
}

// ---- list ------------------------------------------------------------------------------------

function optionId(key: string): string {
  // Keys are free text as far as the view knows: keep the id a safe token.
  return `space-opt-${Array.from(key, (c) => c.charCodeAt(0).toString(36)).join("-")}`;
}

export function renderList(): void {
  const shown = visible();
  if (state.highlighted >= shown.length) state.highlighted = shown.length - 1;
  if (state.highlighted < 0) state.highlighted = 0;
  list.setAttribute("aria-busy", state.busy ? "true" : "false");

  const items = shown.map((space, index) => {
    const isActive = space.key === state.activeKey;
    const isHighlighted = index === state.highlighted;
    const note = readerNote(space);
    const item = el(
      "li",
      {
        id: optionId(space.key),
        role: "option",
        class: `space${isActive ? " active" : ""}${isHighlighted ? " highlighted" : ""}`,
        "aria-selected": isHighlighted ? "true" : "false",
        "aria-current": isActive ? "true" : undefined,
        "data-testid": "space-option",
        "data-key": space.key,
        "data-highlighted": isHighlighted ? "true" : undefined,
      },
      el(
        "div",
        { class: "space-head" },
        el("span", { class: "space-name" }, space.name || space.key),
        el("code", { class: "space-key" }, space.key),
        el("span", { class: "spacer" }),
        isActive ? el("span", { class: "badge", "data-testid": "active-badge" }, "Active") : null,
      ),
      space.description ? el("p", { class: "space-desc muted" }, space.description) : null,
      el(
        "p",
        { class: "space-meta muted" },
        el("span", { class: `access access-${space.access === "ReadWrite" ? "rw" : "r"}` }, accessWords(space)),
        " · ",
        counted(space.memoryCount, "memory", "memories"),
        " · ",
        counted(space.documentCount, "document", "documents"),
        " · ",
        lastActivity(space.lastActivityAt),
      ),
      note ? el("p", { class: "space-note muted" }, note) : null,
    );
    item.addEventListener("mousedown", (event) => event.preventDefault()); // keep focus where it is
    item.addEventListener("click", () => {
      state.highlighted = index;
      onChoose(space);
    });
    return item;
  });
  list.replaceChildren(...items);

  const current = shown[state.highlighted];
  if (current) {
    const id = optionId(current.key);
    search.setAttribute("aria-activedescendant", id);
    list.setAttribute("aria-activedescendant", id);
    document.getElementById(id)?.scrollIntoView({ block: "nearest" });
  } else {
    search.removeAttribute("aria-activedescendant");
    list.removeAttribute("aria-activedescendant");
  }

  if (state.spaces.length === 0) {
    listNote.textContent = "";
  } else if (shown.length === 0) {
    listNote.textContent = `No space matches “${state.query.trim()}”.`;
  } else if (shown.length < state.spaces.length) {
    listNote.textContent = `Showing ${shown.length} of ${state.spaces.length} spaces.`;
  } else {
    listNote.textContent = "";
  }
  list.hidden = shown.length === 0;
}
