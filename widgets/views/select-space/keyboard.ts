// Keyboard use of the picker: typing filters (the highlight stays on the same space when it can),
// ↑/↓ move, Home/End jump (in the list), Enter (or Space in the list) chooses, Escape clears.
import { list, renderList, search } from "./list";
import { state, visible, type Space } from "./state";

function indexOfActive(): number {
  const index = visible().findIndex((s) => s.key === state.activeKey);
  return index < 0 ? 0 : index;
}

/** Wire the search box and the list; `choose` switches to a space. */
export function bindKeyboard(choose: (space: Space) => void): void {
  const onKey = (event: KeyboardEvent): void => {
    const shown = visible();
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (shown.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      state.highlighted = Math.min(shown.length - 1, Math.max(0, state.highlighted + step));
      renderList();
    } else if (event.key === "Home" && event.currentTarget === list) {
      event.preventDefault();
      state.highlighted = 0;
      renderList();
    } else if (event.key === "End" && event.currentTarget === list) {
      event.preventDefault();
      state.highlighted = shown.length - 1;
      renderList();
    } else if (event.key === "Enter" || (event.key === " " && event.currentTarget === list)) {
      const space = shown[state.highlighted];
      if (!space) return;
      event.preventDefault();
      choose(space);
    } else if (event.key === "Escape" && event.currentTarget === search && state.query) {
      event.preventDefault();
      search.value = "";
      state.query = "";
      state.highlighted = indexOfActive();
      renderList();
    }
  };

  search.addEventListener("input", () => {
    const before = visible()[state.highlighted]?.key;
    state.query = search.value;
    // Keep the highlight on the same space when it is still shown, else start from the top.
    const index = visible().findIndex((s) => s.key === before);
    state.highlighted = index < 0 ? 0 : index;
    renderList();
  });
  search.addEventListener("keydown", onKey);
  list.addEventListener("keydown", onKey);
}
