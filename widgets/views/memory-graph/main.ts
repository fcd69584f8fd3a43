// memory-graph: a space's documents and memories as an interactive force-directed graph —
// documents → extracted memories, older → newer versions; superseded and forgotten memories
// drawn apart (and hideable); click a node for its details; search to highlight.
import { connect, data, el, errorPanel, render, start, text, type Json, type ToolResult } from "../../shared/app";
import { detailPanel, type DetailContext } from "./detail";
import { layout } from "./layout";
import { isInactive, type GraphCounts, type GraphNode, type GraphResult, type SimLink, type SimNode } from "./types";
import { GRAPH_HEIGHT, createGraphView, shape, svg } from "./view";
import "./style.css";

let shown = false;

function num(n: number): string {
  return n.toLocaleString();
}

function plural(n: number, one: string, many: string): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/** The server's counts, filled in from the nodes where a field is missing. */
function countsOf(result: GraphResult): GraphCounts {
  const c = result.counts ?? {};
  const memories = result.nodes.filter((n) => n.kind === "memory");
  const byStatus = (s: string): number => memories.filter((n) => n.status === s).length;
  const documents = c.documents ?? result.nodes.length - memories.length;
  return {
    documents,
    memories: c.memories ?? memories.length,
    current: c.current ?? byStatus("current"),
    superseded: c.superseded ?? byStatus("superseded"),
    forgotten: c.forgotten ?? byStatus("forgotten"),
    edges: c.edges ?? result.edges.length,
    totalDocuments: c.totalDocuments ?? documents,
    totalMemories: c.totalMemories ?? c.memories ?? memories.length,
    totalCurrent: c.totalCurrent,
  };
}

function countsLine(c: GraphCounts): string {
  return `${plural(c.documents, "document", "documents")} · ${plural(c.memories, "memory", "memories")} ` +
    `(${num(c.current)} current, ${num(c.superseded)} superseded, ${num(c.forgotten)} forgotten)`;
}

function truncationNote(c: GraphCounts, includeInactive: boolean): string {
  const parts: string[] = [];
  const memories = includeInactive ? c.totalMemories : c.totalCurrent ?? c.totalMemories;
  if (c.totalDocuments > c.documents) parts.push(`the newest ${num(c.documents)} documents of ${num(c.totalDocuments)}`);
  if (memories > c.memories) {
    parts.push(`the newest ${num(c.memories)} ${includeInactive ? "" : "current "}memories of ${num(memories)}`);
  }
  return parts.length
    ? `Showing ${parts.join(" and ")}. Ask for a smaller space or search it to see the rest.`
    : "This space is larger than the graph can show; only the newest part of it is drawn.";
}

function legend(): HTMLElement {
  const item = (label: string, draw: SVGElement, cls = ""): HTMLElement =>
    el("li", {}, (() => {
      const icon = svg("svg", { class: `legend-icon ${cls}`, width: 26, height: 16, "aria-hidden": "true" }, draw);
      return icon;
    })(), label);
  const node = (kind: "document" | "memory", status: string, inactive: boolean): SVGElement =>
    svg("g", { class: `node ${kind} status-${status}${inactive ? " inactive" : ""}` }, shape(kind, kind === "document" ? 6 : 5, 13, 8));
  return el("ul", { class: "legend", "aria-label": "Legend" },
    item("Document", node("document", "done", false)),
    item("Memory", node("memory", "current", false)),
    item("Superseded", node("memory", "superseded", true)),
    item("Forgotten", node("memory", "forgotten", true)),
    item("Extracted from", svg("line", { class: "edge extracted", x1: 2, y1: 8, x2: 24, y2: 8 })),
    item("Newer version", svg("line", { class: "edge version", x1: 2, y1: 8, x2: 23, y2: 8 })),
  );
}

async function show(result: GraphResult): Promise<void> {
  const counts = countsOf(result);
  const spaceName = result.space?.name || result.space?.key || "this space";
  const header = el("header", { class: "graph-header" },
    el("h1", {}, `Memory graph of ${spaceName}`),
    el("p", { class: "muted", "data-testid": "graph-counts" }, countsLine(counts)),
    result.truncated ? el("p", { class: "truncated", role: "note", "data-testid": "graph-truncated" }, truncationNote(counts, result.includeInactive !== false)) : null,
  );

  if (result.nodes.length === 0) {
    render(header, el("div", { class: "panel", "data-testid": "graph-empty" },
      el("strong", {}, "Nothing to draw yet."),
      el("p", {}, `${spaceName} has no documents or memories. Save a memory or upload a file, and it will show up here.`),
    ));
    return;
  }

  // Build the layout's nodes and links; edges whose ends are not in the view are left out.
  const byId = new Map<string, GraphNode>();
  const simById = new Map<string, SimNode>();
  const nodes: SimNode[] = [];
  for (const node of result.nodes) {
    if (simById.has(node.id)) continue;
    const sim: SimNode = { node, r: node.kind === "document" ? 7 : 4.5, inactive: isInactive(node) };
    byId.set(node.id, node);
    simById.set(node.id, sim);
    nodes.push(sim);
  }
  const links: SimLink[] = [];
  const memoriesOf = new Map<string, GraphNode[]>();
  const newer = new Map<string, GraphNode>();
  for (const edge of result.edges) {
    const source = simById.get(edge.source), target = simById.get(edge.target);
    if (!source || !target || source === target) continue;
    links.push({ source, target, kind: edge.kind });
    if (edge.kind === "extracted") {
      const list = memoriesOf.get(edge.source) ?? [];
      list.push(target.node);
      memoriesOf.set(edge.source, list);
    } else if (edge.kind === "version") {
      newer.set(edge.source, target.node);
    }
  }

  const progress = el("p", { class: "muted" }, `Arranging ${plural(nodes.length, "node", "nodes")}…`);
  render(header, el("div", { class: "graph-placeholder", style: `height:${GRAPH_HEIGHT}px` }, progress));
  await layout(nodes, links, (f) => { progress.textContent = `Arranging ${plural(nodes.length, "node", "nodes")}… ${Math.round(f * 100)}%`; });

  // The controls, the graph and the detail panel.
  const detail = el("div", { class: "detail-slot" },
    el("p", { class: "muted hint" }, "Click a node to read it, or search and press Enter to step through the matches. Scroll to zoom; drag the background to move around."));
  const hint = detail.firstElementChild!;
  const ctx: DetailContext = {
    byId,
    truncated: Boolean(result.truncated),
    textLimit: result.limits?.textChars ?? null,
    memoriesOf: (id) => memoriesOf.get(id) ?? [],
    newerOf: (id) => newer.get(id),
    select: (id) => {
      const node = byId.get(id);
      if (!node) return;
      if (!toggle.checked && isInactive(node)) {
        toggle.checked = true;
        graph.showInactive(true);
        updateMatches();
      }
      graph.select(id, true);
      openDetail(id);
    },
    close: () => {
      graph.select(null);
      detail.replaceChildren(hint);
    },
  };
  const openDetail = (id: string | null): void => {
    const node = id ? byId.get(id) : undefined;
    detail.replaceChildren(node ? detailPanel(node, ctx) : hint);
  };
  const graph = createGraphView(nodes, links, openDetail);

  const searchBox = el("input", {
    type: "search", "data-testid": "graph-search", placeholder: "Search memories and documents",
    "aria-label": "Search memories and documents", autocomplete: "off",
  });
  const matchCount = el("span", { class: "muted match-count", "data-testid": "graph-match-count", "aria-live": "polite" });
  let matchIds: string[] = [];
  let cursor = -1;
  const updateMatches = (): void => {
    matchIds = graph.search(searchBox.value);
    cursor = -1;
    matchCount.textContent = searchBox.value.trim() === ""
      ? ""
      : matchIds.length === 0 ? "No matches" : plural(matchIds.length, "match", "matches");
  };
  searchBox.addEventListener("input", updateMatches);
  searchBox.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && matchIds.length > 0) { // step through the matches
      ev.preventDefault();
      cursor = (cursor + (ev.shiftKey ? matchIds.length - 1 : 1)) % matchIds.length;
      graph.select(matchIds[cursor], true);
      openDetail(matchIds[cursor]);
    } else if (ev.key === "Escape" && searchBox.value) {
      searchBox.value = "";
      updateMatches();
    }
  });

  const toggle = el("input", { type: "checkbox", "data-testid": "graph-toggle-inactive", checked: true });
  toggle.addEventListener("change", () => {
    graph.showInactive(toggle.checked);
    updateMatches();
  });
  const inactiveCount = counts.superseded + counts.forgotten;
  const controls = el("div", { class: "row controls" },
    el("div", { class: "search" }, searchBox),
    matchCount,
    el("span", { class: "spacer" }),
    el("label", { class: "toggle" }, toggle,
      ` Show superseded and forgotten${inactiveCount ? ` (${num(inactiveCount)})` : ""}`),
  );

  render(header, controls, legend(), graph.element, detail);
  graph.fit();
}

function onResult(result: ToolResult): void {
  shown = true;
  if (result.isError) {
    render(errorPanel("The memory graph could not be shown.", text(result) || "The server gave no reason."));
    return;
  }
  const graph = data<GraphResult>(result);
  if (!graph || !Array.isArray(graph.nodes) || !Array.isArray(graph.edges)) {
    render(errorPanel("The memory graph could not be shown.", text(result) || "The server sent no graph."));
    return;
  }
  show(graph).catch((err: unknown) => {
    render(errorPanel("The memory graph could not be drawn.", (err as Error)?.message || String(err)));
  });
}

start(async () => {
  render(el("p", { class: "muted" }, "Loading…"));
  const waiting = setTimeout(() => {
    if (!shown) render(el("p", { class: "muted" }, "Loading… still waiting for Memory-MCP's answer."));
  }, 15_000);
  await connect("memory-graph", {
    onInput: (args: Json) => {
      const tag = typeof args.containerTag === "string" ? args.containerTag : "";
      if (!shown) render(el("p", { class: "muted" }, tag ? `Loading the graph of ${tag}…` : "Loading the graph of your active space…"));
    },
    onResult: (result) => {
      clearTimeout(waiting);
      onResult(result);
    },
    onCancelled: (reason) => {
      clearTimeout(waiting);
      if (!shown) {
        shown = true;
        render(errorPanel("The memory graph was cancelled.", reason || "The assistant stopped before the graph was ready."));
      }
    },
  });
});
