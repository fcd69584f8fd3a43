// Wording (sizes, counts, the allowed types) and the check of a chosen file against the server's
// types and size limit, before anything is sent.
import type { FileType, Offer } from "./types";

const MB = 1024 * 1024;

export function formatBytes(n: number): string {
  if (n < 1024) return `${n.toLocaleString()} ${n === 1 ? "byte" : "bytes"}`;
  if (n < MB) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / MB).toFixed(1).replace(/\.0$/, "")} MB`;
}

export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

export function normalExt(ext: string): string {
  const e = ext.trim().toLowerCase();
  return e.startsWith(".") ? e : `.${e}`;
}

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot > 0 ? filename.slice(dot).toLowerCase() : "";
}

/** "Markdown (.md, .markdown), PDF (.pdf)". */
export function allowedTypes(types: FileType[]): string {
  const byLabel = new Map<string, string[]>();
  for (const t of types) {
    const exts = byLabel.get(t.label) ?? [];
    const ext = normalExt(t.extension);
    if (!exts.includes(ext)) exts.push(ext);
    byLabel.set(t.label, exts);
  }
  return [...byLabel].map(([label, exts]) => `${label} (${exts.join(", ")})`).join(", ");
}

/** The content type to declare for this file, or a readable reason it cannot be sent. */
export function check(file: File, o: Offer): { contentType: string } | { error: string } {
  const ext = extensionOf(file.name);
  const byExt = ext ? o.types.find((t) => normalExt(t.extension) === ext) : undefined;
  const declared = file.type.split(";")[0].trim().toLowerCase();
  const byType = declared ? o.types.find((t) => t.contentType.toLowerCase() === declared) : undefined;
  const type = byExt ?? byType;
  if (!type) {
    return {
      error: `“${file.name}” is not a file type Memory-MCP can read. You can upload: ${allowedTypes(o.types)}.`,
    };
  }
  if (file.size === 0) return { error: `“${file.name}” is empty. Choose a file with something in it.` };
  if (file.size > o.maxBytes) {
    return {
      error: `“${file.name}” is ${formatBytes(file.size)}; files can be at most ${formatBytes(o.maxBytes)}.`,
    };
  }
  return { contentType: byExt ? type.contentType : declared };
}
