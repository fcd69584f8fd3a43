// The graph as SVG, painted once after the layout: zoom and pan with a transform on one <g>
// (wheel, drag on the background, the + / − / Fit buttons), drag a node to move it, click one to
// select it; search and "show inactive" only flip classes, nothing is re-rendered.
import { el } from "../../shared/app";
import type { SimLink, SimNode } from "./types";

export const GRAPH_HEIGHT = 460;
const SVG_NS = "http://www.w3.org/2000/svg";
const MIN_K = 0.08;
const MAX_K = 8;
/** Document titles are drawn when there are few documents, or once zoomed in this far. */
const LABEL_ZOOM = 1.4;
const FEW_DOCUMENTS = 40;

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | undefined> = {},
  ...children: (Node | null | undefined | false)[]
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) node.setAttribute(k, String(v));
  for (const child of children) if (child) node.append(child);
  return node;
}

/** The shape of a node: a square for a document, a circle for a memory. */
export function shape(kind: "document" | "memory", r: number, x = 0, y = 0): SVGElement {
  return kind === "document"
    ? svg("rect", { class: "shape", x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 2 })
    : svg("circle", { class: "shape", cx: x, cy: y, r });
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface GraphView {
  element: HTMLElement;
  /** Highlight the nodes whose text or label contains the query; returns how many visible match. */
  search(query: string): string[];
  showInactive(show: boolean): void;
  select(id: string | null, center?: boolean): void;
  fit(): void;
}

export function createGraphView(
  nodes: SimNode[],
  links: SimLink[],
  onSelect: (id: string | null) => void,
): GraphView {
  const transform = { k: 1, x: 0, y: 0 };
  let touched = false; // the person zoomed or panned: stop refitting on resize
  let selected: string | null = null;
  let showingInactive = true;
  let matches = new Set<string>();
  const documentCount = nodes.filter((n) => n.node.kind === "document").length;

  const viewport = svg("g", { class: "viewport" });
  const edgeLayer = svg("g", { class: "edges" });
  const nodeLayer = svg("g", { class: "nodes" });
  viewport.append(edgeLayer, nodeLayer);
  const root = svg("svg", {
    class: "graph", "data-testid": "graph-svg", width: "100%", height: GRAPH_HEIGHT,
    role: "group", "aria-label": "Graph of the space's documents and memories",
  },
  svg("defs", {},
    svg("marker", {
      id: "mm-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7,
      orient: "auto", markerUnits: "userSpaceOnUse",
    }, svg("path", { class: "arrow", d: "M0,0L10,5L0,10z" })),
  ),
  svg("rect", { class: "background", width: "100%", height: "100%" }),
  viewport,
  );
  if (documentCount <= FEW_DOCUMENTS) root.classList.add("few-documents");

  // --- paint once
  const nodeEls = new Map<string, SVGGElement>();
  const edgesOf = new Map<SimNode, { line: SVGLineElement; link: SimLink }[]>();
  const linePlace = (line: SVGLineElement, link: SimLink): void => {
    const sx = link.source.x ?? 0, sy = link.source.y ?? 0;
    let tx = link.target.x ?? 0, ty = link.target.y ?? 0;
    if (link.kind === "version") { // stop the arrow at the target's edge
      const dx = tx - sx, dy = ty - sy;
      const len = Math.hypot(dx, dy) || 1;
      const back = Math.min(link.target.r + 1.5, len / 2);
      tx -= (dx / len) * back;
      ty -= (dy / len) * back;
    }
    line.setAttribute("x1", sx.toFixed(1));
    line.setAttribute("y1", sy.toFixed(1));
    line.setAttribute("x2", tx.toFixed(1));
    line.setAttribute("y2", ty.toFixed(1));
  };
  const edgeFragment = document.createDocumentFragment();
  for (const link of links) {
    const inactive = link.source.inactive || link.target.inactive;
    const line = svg("line", { class: `edge ${link.kind}${inactive ? " inactive" : ""}` });
    linePlace(line, link);
    edgeFragment.append(line);
    for (const end of [link.source, link.target]) {
      const list = edgesOf.get(end) ?? [];
      list.push({ line, link });
      edgesOf.set(end, list);
    }
  }
  edgeLayer.append(edgeFragment);

  const nodeFragment = document.createDocumentFragment();
  const byElement = new WeakMap<Element, SimNode>();
  for (const n of nodes) {
    const { node } = n;
    const status = node.status ?? "";
    const label = node.label || node.text || (node.kind === "document" ? "Untitled document" : "Memory");
    const g = svg("g", {
      class: `node ${node.kind} status-${status.replace(/[^a-z-]/gi, "") || "unknown"}${n.inactive ? " inactive" : ""}`,
      "data-testid": "graph-node", "data-id": node.id, "data-kind": node.kind, "data-status": status,
      transform: `translate(${(n.x ?? 0).toFixed(1)},${(n.y ?? 0).toFixed(1)})`,
    },
    shape(node.kind, n.r),
    svg("title"),
    node.kind === "document" ? svg("text", { class: "label", x: n.r + 3, y: 3.5 }) : null,
    );
    g.querySelector("title")!.textContent = shorten(label, 200);
    const text = g.querySelector("text");
    if (text) text.textContent = shorten(label, 32);
    nodeEls.set(node.id, g);
    byElement.set(g, n);
    nodeFragment.append(g);
  }
  nodeLayer.append(nodeFragment);

  // --- zoom and pan
  const apply = (): void => {
    viewport.setAttribute("transform", `translate(${transform.x.toFixed(2)},${transform.y.toFixed(2)}) scale(${transform.k.toFixed(4)})`);
    root.classList.toggle("zoomed-in", transform.k >= LABEL_ZOOM);
    // Titles keep a readable size on screen whatever the zoom (11px at 1:1 and closer).
    root.style.setProperty("--mm-label-size", `${(11 / Math.max(transform.k, 0.7)).toFixed(2)}px`);
  };
  const size = (): { w: number; h: number } => ({ w: root.clientWidth || 600, h: root.clientHeight || GRAPH_HEIGHT });
  const zoomAt = (factor: number, px: number, py: number): void => {
    const k = Math.min(MAX_K, Math.max(MIN_K, transform.k * factor));
    transform.x = px - ((px - transform.x) * k) / transform.k;
    transform.y = py - ((py - transform.y) * k) / transform.k;
    transform.k = k;
    touched = true;
    apply();
  };
  const fit = (): void => {
    const visible = nodes.filter((n) => showingInactive || !n.inactive);
    if (visible.length === 0) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const n of visible) {
      x0 = Math.min(x0, (n.x ?? 0) - n.r);
      y0 = Math.min(y0, (n.y ?? 0) - n.r);
      x1 = Math.max(x1, (n.x ?? 0) + n.r);
      y1 = Math.max(y1, (n.y ?? 0) + n.r);
    }
    const { w, h } = size();
    const pad = 24;
    const k = Math.min(2, Math.max(MIN_K, Math.min((w - 2 * pad) / Math.max(1, x1 - x0), (h - 2 * pad) / Math.max(1, y1 - y0))));
    transform.k = k;
    transform.x = w / 2 - ((x0 + x1) / 2) * k;
    transform.y = h / 2 - ((y0 + y1) / 2) * k;
    apply();
  };
  const local = (ev: { clientX: number; clientY: number }): { x: number; y: number } => {
    const box = root.getBoundingClientRect();
    return { x: ev.clientX - box.left, y: ev.clientY - box.top };
  };

  root.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const p = local(ev);
    const scale = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? 400 : 1;
    zoomAt(Math.exp(-ev.deltaY * scale * (ev.ctrlKey ? 0.01 : 0.002)), p.x, p.y);
  }, { passive: false });

  // One pointer gesture at a time: a pan (background) or a node press (click or drag).
  let gesture: { id: number; kind: "pan" | "node"; sx: number; sy: number; ox: number; oy: number; moved: boolean; node?: SimNode } | null = null;
  root.addEventListener("pointerdown", (ev) => {
    if (gesture || ev.button !== 0) return;
    const hit = (ev.target as Element).closest?.(".node");
    const node = hit ? byElement.get(hit) : undefined;
    gesture = {
      id: ev.pointerId, kind: node ? "node" : "pan", sx: ev.clientX, sy: ev.clientY,
      ox: node ? node.x ?? 0 : transform.x, oy: node ? node.y ?? 0 : transform.y, moved: false, node,
    };
    root.setPointerCapture?.(ev.pointerId);
  });
  root.addEventListener("pointermove", (ev) => {
    if (!gesture || ev.pointerId !== gesture.id) return;
    const dx = ev.clientX - gesture.sx, dy = ev.clientY - gesture.sy;
    if (!gesture.moved && Math.hypot(dx, dy) < 4) return;
    gesture.moved = true;
    root.classList.add("dragging");
    if (gesture.kind === "pan") {
      transform.x = gesture.ox + dx;
      transform.y = gesture.oy + dy;
      touched = true;
      apply();
    } else if (gesture.node) {
      const n = gesture.node;
      n.x = gesture.ox + dx / transform.k;
      n.y = gesture.oy + dy / transform.k;
      nodeEls.get(n.node.id)!.setAttribute("transform", `translate(${n.x.toFixed(1)},${n.y.toFixed(1)})`);
      for (const { line, link } of edgesOf.get(n) ?? []) linePlace(line, link);
    }
  });
  const end = (ev: PointerEvent): void => {
    if (!gesture || ev.pointerId !== gesture.id) return;
    const g = gesture;
    gesture = null;
    root.classList.remove("dragging");
    if (ev.type === "pointerup" && !g.moved) {
      const id = g.node ? g.node.node.id : null;
      select(id);
      onSelect(id);
    }
  };
  root.addEventListener("pointerup", end);
  root.addEventListener("pointercancel", end);

  // --- classes for selection, search and the inactive toggle
  const select = (id: string | null, center = false): void => {
    if (selected) nodeEls.get(selected)?.classList.remove("selected");
    selected = id && nodeEls.has(id) ? id : null;
    if (!selected) return;
    const g = nodeEls.get(selected)!;
    g.classList.add("selected");
    nodeLayer.append(g); // draw it on top
    if (center) {
      const n = byElement.get(g)!;
      const { w, h } = size();
      if (transform.k < 1) transform.k = 1;
      transform.x = w / 2 - (n.x ?? 0) * transform.k;
      transform.y = h / 2 - (n.y ?? 0) * transform.k;
      touched = true;
      apply();
    }
  };

  const search = (query: string): string[] => {
    const q = query.trim().toLowerCase();
    matches = new Set();
    for (const n of nodes) {
      const hay = `${n.node.label ?? ""}\n${n.node.text ?? ""}`.toLowerCase();
      const hit = q !== "" && hay.includes(q);
      nodeEls.get(n.node.id)!.classList.toggle("match", hit);
      if (hit && (showingInactive || !n.inactive)) matches.add(n.node.id);
    }
    root.classList.toggle("searching", q !== "");
    return nodes.filter((n) => matches.has(n.node.id)).map((n) => n.node.id);
  };

  const showInactive = (show: boolean): void => {
    showingInactive = show;
    root.classList.toggle("hide-inactive", !show);
  };

  const zoomButton = (label: string, title: string, onClick: () => void): HTMLButtonElement => {
    const b = el("button", { type: "button", title, "aria-label": title }, label);
    b.addEventListener("click", onClick);
    return b;
  };
  const centre = (): [number, number] => {
    const { w, h } = size();
    return [w / 2, h / 2];
  };
  const element = el("div", { class: "graph-wrap" },
    root,
    el("div", { class: "zoom-buttons" },
      zoomButton("+", "Zoom in", () => zoomAt(1.4, ...centre())),
      zoomButton("−", "Zoom out", () => zoomAt(1 / 1.4, ...centre())),
      zoomButton("Fit", "Fit the whole graph", () => { touched = false; fit(); }),
    ),
  );

  let lastWidth = 0;
  new ResizeObserver(() => {
    const w = root.clientWidth;
    if (w && w !== lastWidth) {
      lastWidth = w;
      if (!touched) fit();
    }
  }).observe(root);

  apply();
  return { element, search, showInactive, select, fit };
}
