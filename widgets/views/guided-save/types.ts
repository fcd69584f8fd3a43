// The `guided-save` tool's structuredContent and `add_memory`'s answer (widgets/README.md).
export interface Space {
  key: string;
  name: string;
  access?: "Read" | "ReadWrite";
}

export interface Draft {
  content?: string | null;
  category?: string | null;
  containerTag?: string | null;
}

export interface GuidedSave {
  draft?: Draft;
  writableSpaces?: Space[];
  canSave?: boolean;
  message?: string | null;
  maxChars?: number;
}

export interface MemoryView {
  id: string;
  memory: string;
  version?: number;
  category?: string | null;
}

export interface SaveResult {
  action: "saved" | "versioned" | "unchanged";
  space: string;
  memory: MemoryView;
  supersedes?: { id: string; memory: string; version?: number };
  keptSeparateFrom?: { id: string; memory: string; reason?: string };
  /** a saved memory close to a current one that differs only in a value: maybe a correction */
  mayReplace?: { id: string; memory: string; differs?: string[] };
  /** unchanged text, re-tagged: the category it had before */
  categoryWas?: string | null;
  /** unchanged text that came from a document: now kept as a saved memory too */
  keptFromDocument?: string;
}
