// The `memory-graph` tool's structuredContent (widgets/README.md), and the layout's node shape.
import type { SimulationNodeDatum } from "d3-force";

export type NodeKind = "document" | "memory";
export type EdgeKind = "extracted" | "version";

export interface GraphNode {
  id: string;
  kind: NodeKind;
  label?: string | null;
  /** The full text (a memory's, cut to limits.textChars; a document's title). */
  text?: string | null;
  /** True when the server cut a memory's text to its limit. */
  textTruncated?: boolean;
  /** Why a document failed, when it did. */
  statusReason?: string | null;
  contentType?: string | null;
  /** current | superseded | forgotten for memories; the document's status for documents. */
  status?: string | null;
  category?: string | null;
  version?: number | null;
  createdAt?: string | null;
  createdBy?: string | null;
  updatedAt?: string | null;
  updatedBy?: string | null;
  sourceDocumentId?: string | null;
  parentMemoryId?: string | null;
  degree?: number | null;
  memoryCount?: number | null;
}

export interface GraphEdge { source: string; target: string; kind: EdgeKind }

export interface GraphCounts {
  documents: number;
  memories: number;
  current: number;
  superseded: number;
  forgotten: number;
  edges: number;
  totalDocuments: number;
  totalMemories: number;
  /** The whole space's current memories (what "all" means when inactive ones were left out). */
  totalCurrent?: number;
}

export interface GraphResult {
  space: { key: string; name?: string | null; access?: string } | null;
  nodes: GraphNode[];
  edges: GraphEdge[];
  counts?: Partial<GraphCounts> | null;
  truncated?: boolean;
  includeInactive?: boolean;
  limits?: { documents?: number; memories?: number; textChars?: number } | null;
}

/** A node as the layout and the SVG see it. */
export interface SimNode extends SimulationNodeDatum {
  node: GraphNode;
  /** Drawn radius (half the side of a document's square), in layout units. */
  r: number;
  inactive: boolean;
}

export interface SimLink {
  source: SimNode;
  target: SimNode;
  kind: EdgeKind;
}

export function isInactive(node: GraphNode): boolean {
  return node.kind === "memory" && (node.status === "superseded" || node.status === "forgotten");
}
