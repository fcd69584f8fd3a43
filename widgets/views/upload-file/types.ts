// The shapes upload-file works with: the `upload-file`, `upload-start` and `upload-status` tools'
// structuredContent (widgets/README.md), the step list, and one upload in progress.
export interface Space { key: string; containerTag?: string; name?: string | null }
export interface FileType { extension: string; contentType: string; label: string }
export interface Offer {
  writableSpaces: Space[];
  defaultSpace: string | null;
  canUpload: boolean;
  message?: string | null;
  maxBytes: number;
  types: FileType[];
}
export interface Started {
  documentId: string;
  space?: string;
  uploadUrl: string;
  method?: string;
  headers?: Record<string, string>;
  expiresAt?: string | number | null;
  status?: string;
}
export type Status = "queued" | "extracting" | "embedding" | "done" | "failed";
export interface DocumentView {
  id: string;
  title?: string | null;
  filename?: string | null;
  status: Status;
  statusReason?: string | null;
  memoryCount?: number | null;
  coverage?: { note?: string | null; complete?: boolean } | null;
}
export interface MemoryView { id: string; memory: string; category?: string | null }
export interface StatusResult { document: DocumentView; memories?: MemoryView[] | null }

/** What the step list shows: sending the bytes, then the document's own statuses. */
export type Step = "uploading" | Exclude<Status, "failed">;
export const STEPS: { status: Step; label: string; doing: string }[] = [
  { status: "uploading", label: "Uploading", doing: "Sending the file to storage." },
  { status: "queued", label: "Queued", doing: "Waiting for its turn on the server." },
  { status: "extracting", label: "Extracting", doing: "Reading the text out of the file." },
  { status: "embedding", label: "Embedding", doing: "Turning the text into searchable memories." },
  { status: "done", label: "Done", doing: "" },
];

/** One upload, from asking for a URL to the document's last status. */
export interface Session {
  gen: number;
  file: File;
  contentType: string;
  spaceKey: string;
  started: Started | null;
  lastStep: Step;
  /** Back to the form, with this session's space chosen. */
  restart: () => void;
  // the elements the session updates in place
  heading: HTMLElement;
  progress: HTMLElement;
  fill: HTMLElement;
  progressText: HTMLElement;
  steps: HTMLOListElement;
  stepHint: HTMLElement;
  outcome: HTMLElement;
  actions: HTMLElement;
}
