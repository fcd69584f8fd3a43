// The form: drop or pick one file (checked at once), choose a writable space, press Upload. Also
// the plain message shown when there is nowhere to upload.
import { el, render } from "../../shared/app";
import { allowedTypes, check, formatBytes, normalExt } from "./check";
import { state } from "./state";
import type { Offer } from "./types";

/** Starts sending a checked file to a space (the session, in session.ts). */
export type Upload = (file: File, contentType: string, spaceKey: string) => Promise<void>;

export function showNowhere(message: string | null | undefined): void {
  render(
    el("div", { class: "panel", "data-testid": "nowhere-to-upload", role: "status" },
      el("strong", {}, "There is nowhere you can upload a file."),
      el("p", {}, message || "This key cannot write to any space."),
    ),
  );
}

export function showForm(o: Offer, upload: Upload, preferredSpace?: string): void {
  state.generation++;
  let chosen: File | null = null;

  const accept = [...new Set(o.types.map((t) => normalExt(t.extension)))].join(",");
  const input = el("input", {
    type: "file", id: "file-input", "data-testid": "file-input", accept, class: "sr-only",
  });
  const chosenLine = el("span", { class: "chosen muted" }, "No file chosen yet.");
  const zone = el("label", { class: "dropzone", for: "file-input" },
    el("span", { class: "dropzone-title" }, "Drop a file here, or click to choose one"),
    chosenLine,
  );
  const errorBox = el("div", { class: "panel error", role: "alert", "data-testid": "upload-error", hidden: true });

  const select = el("select", { id: "upload-space", "data-testid": "upload-space" });
  const wanted = preferredSpace ?? o.defaultSpace ?? o.writableSpaces[0]?.key;
  for (const space of o.writableSpaces) {
    const label = space.name && space.name !== space.key ? `${space.name} (${space.key})` : space.key;
    select.append(el("option", { value: space.key, selected: space.key === wanted }, label));
  }

  // A button, not a form submit: sandboxed frames without allow-forms never fire "submit".
  const submit = el("button", { type: "button", class: "primary", "data-testid": "upload-submit" }, "Upload");

  const showError = (message: string | null, title = "This file cannot be uploaded."): void => {
    errorBox.replaceChildren(...(message ? [el("strong", {}, title), el("p", {}, message)] : []));
    errorBox.hidden = !message;
  };

  const choose = (file: File | null): void => {
    chosen = file;
    if (!file) {
      chosenLine.textContent = "No file chosen yet.";
      showError(null);
      return;
    }
    chosenLine.textContent = `${file.name} · ${formatBytes(file.size)}`;
    const verdict = check(file, o);
    showError("error" in verdict ? verdict.error : null);
  };

  input.addEventListener("change", () => choose(input.files?.[0] ?? null));
  zone.addEventListener("dragover", (ev) => {
    ev.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (ev) => {
    ev.preventDefault();
    zone.classList.remove("over");
    const files = ev.dataTransfer?.files;
    if (!files || files.length === 0) return;
    if (files.length > 1) {
      chosen = null;
      chosenLine.textContent = "No file chosen yet.";
      showError("Drop one file at a time.", "More than one file.");
      return;
    }
    choose(files[0]);
  });

  const form = el("section", { class: "upload-form" },
    el("h1", {}, "Upload a file"),
    el("p", { class: "muted" },
      `Memory-MCP reads the file and saves what it says as memories. You can upload ${allowedTypes(o.types)}, up to ${formatBytes(o.maxBytes)}.`),
    o.message ? el("p", { class: "note" }, o.message) : null,
    input,
    zone,
    el("label", { for: "upload-space" }, "Space"),
    select,
    errorBox,
    el("div", { class: "row actions" }, el("span", { class: "spacer" }), submit),
  );
  submit.addEventListener("click", () => {
    if (!chosen) {
      showError("Choose a file first: drop it on the box above, or click the box to pick one.", "No file chosen.");
      return;
    }
    const verdict = check(chosen, o);
    if ("error" in verdict) {
      showError(verdict.error);
      return;
    }
    if (!select.value) {
      showError("Choose the space the file's memories should go to.", "No space chosen.");
      return;
    }
    void upload(chosen, verdict.contentType, select.value);
  });
  render(form);
}
