// The panel under the graph that shows one node in full: a memory's text, status, category,
// version, author, dates and source document; a document's title, status and memories.
import { ago, el } from "../../shared/app";
import type { GraphNode } from "./types";

export interface DetailContext {
  byId: Map<string, GraphNode>;
  /** The graph leaves part of the space out, so a document may have more memories than shown. */
  truncated: boolean;
  /** How many characters of a memory's text the server sends (for the "cut" note). */
  textLimit: number | null;
  /** The memories the graph shows as extracted from a document. */
  memoriesOf(documentId: string): GraphNode[];
  /** The newer version of a memory, when the graph has it. */
  newerOf(memoryId: string): GraphNode | undefined;
  select(id: string): void;
  close(): void;
}

const MEMORY_STATUS: Record<string, string> = {
  current: "Current",
  superseded: "Superseded by a newer version",
  forgotten: "Forgotten",
};
const DOCUMENT_STATUS: Record<string, string> = {
  queued: "Queued",
  extracting: "Extracting its text",
  embedding: "Making memories",
  done: "Processed",
  failed: "Failed",
};

function when(iso: string | null | undefined): string {
  if (!iso) return "Unknown";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toLocaleString()} (${ago(iso)})`;
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

function linkTo(node: GraphNode, label: string, ctx: DetailContext): HTMLButtonElement {
  const b = el("button", { type: "button", class: "link", "data-select": node.id }, label);
  b.addEventListener("click", () => ctx.select(node.id));
  return b;
}

function row(term: string, value: Node | string | null | undefined): HTMLElement[] {
  if (value === null || value === undefined || value === "") return [];
  return [el("dt", {}, term), el("dd", {}, value)];
}

function titleOf(node: GraphNode): string {
  return node.text || node.label || "Untitled document";
}

export function detailPanel(node: GraphNode, ctx: DetailContext): HTMLElement {
  const status = node.status ?? "";
  const close = el("button", { type: "button", class: "close", "aria-label": "Close the details" }, "Close");
  close.addEventListener("click", () => ctx.close());
  const badge = el("span", { class: `badge status-${status.replace(/[^a-z-]/gi, "")}` },
    (node.kind === "memory" ? MEMORY_STATUS : DOCUMENT_STATUS)[status] ?? status ?? "");
  const head = el("div", { class: "row detail-head" },
    el("strong", {}, node.kind === "memory" ? "Memory" : "Document"), badge, el("span", { class: "spacer" }), close);
  const panel = el("section", {
    class: "panel detail", "data-testid": "node-detail", "data-id": node.id, "data-kind": node.kind,
    "aria-label": node.kind === "memory" ? "The selected memory" : "The selected document",
  }, head);

  if (node.kind === "memory") {
    panel.append(el("p", { class: "detail-text" }, node.text || node.label || ""));
    if (node.textTruncated) {
      panel.append(el("p", { class: "muted" }, ctx.textLimit
        ? `Only the first ${ctx.textLimit.toLocaleString()} characters are shown here; search for this memory to read all of it.`
        : "Only the beginning is shown here; search for this memory to read all of it."));
    }
    let source: Node | string | null = null;
    if (node.sourceDocumentId) {
      const doc = ctx.byId.get(node.sourceDocumentId);
      source = doc ? linkTo(doc, titleOf(doc), ctx) : "A document not shown in this view";
    } else {
      source = "None: it was saved directly";
    }
    const parent = node.parentMemoryId ? ctx.byId.get(node.parentMemoryId) : undefined;
    const newer = ctx.newerOf(node.id);
    panel.append(el("dl", {},
      ...row("Category", node.category || "None"),
      ...row("Version", node.version ? String(node.version) : null),
      ...row("Added by", node.createdBy || "Unknown"),
      ...row("Created", when(node.createdAt)),
      ...row("Updated", node.updatedAt && node.updatedAt !== node.createdAt ? when(node.updatedAt) : null),
      ...row("Source document", source),
      ...row("Older version", parent ? linkTo(parent, `Version ${parent.version ?? "?"}`, ctx)
        : node.parentMemoryId ? "Not shown in this view" : null),
      ...row("Newer version", newer ? linkTo(newer, `Version ${newer.version ?? "?"}`, ctx) : null),
    ));
    return panel;
  }

  const memories = ctx.memoriesOf(node.id);
  const count = node.memoryCount ?? memories.length;
  panel.append(el("p", { class: "detail-text detail-title" }, node.text || node.label || "Untitled document"));
  if (status === "failed" && node.statusReason) {
    panel.append(el("p", { class: "detail-reason", role: "note" }, node.statusReason));
  }
  let memoryLine = plural(count, "memory", "memories");
  if (count > memories.length) memoryLine += ` (${memories.length.toLocaleString()} shown here)`;
  else if (ctx.truncated) memoryLine += " in this view";
  panel.append(el("dl", {},
    ...row("Status", DOCUMENT_STATUS[status] ?? status),
    ...row("Type", node.contentType),
    ...row("Memories", memoryLine),
    ...row("Uploaded by", node.createdBy || "Unknown"),
    ...row("Uploaded", when(node.createdAt)),
  ));
  if (memories.length > 0) {
    const shown = memories.slice(0, 10);
    const list = el("ul", { class: "detail-memories" },
      ...shown.map((m) => el("li", {}, linkTo(m, shorten(m.text || m.label || "Memory", 120), ctx))));
    if (memories.length > shown.length) {
      list.append(el("li", { class: "muted" }, `…and ${plural(memories.length - shown.length, "more", "more")} in the graph.`));
    }
    panel.append(list);
  }
  return panel;
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
