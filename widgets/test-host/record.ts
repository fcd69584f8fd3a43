// The test host's configuration and everything it records for the tests on window.__MM_*
// (tests/widgets_host.py reads them), plus the status line in the page's header.
import type { CallToolResult } from "@modelcontextprotocol/client";

export type Json = Record<string, unknown>;
export type Theme = "light" | "dark";

export interface HostConfig {
  /** The MCP endpoint; default: this page's origin + /mcp. */
  server?: string;
  /** The bearer key the host (not the view) uses. */
  key: string;
  /** The widget tool to open, e.g. "select-space". */
  tool: string;
  /** Its arguments, as a model would pass them. */
  args?: Json;
  theme?: Theme;
  /** Width of the view's frame in CSS pixels. */
  width?: number;
}

export interface ToolCallRecord {
  name: string;
  arguments: Json;
  by: "model" | "view";
  ok: boolean;
  isError: boolean;
  error?: string;
  ms: number;
}

export interface Timing {
  /** performance.now() when the iframe got its document. */
  iframeCreated?: number;
  /** ms from iframe creation to the view's ui/notifications/initialized. */
  initializedMs?: number;
  /** ms from iframe creation to the first size report with a height (first paint). */
  firstPaintMs?: number;
  /** ms from iframe creation until the model's tool result was sent to the view. */
  resultSentMs?: number;
  /** ms from iframe creation to the first size report after the result was sent. */
  contentPaintMs?: number;
  /** ms the model's tool call took on the server. */
  toolCallMs?: number;
}

export interface Recorded {
  __MM_CONFIG?: Partial<HostConfig>;
  __MM_READY: boolean;
  __MM_ERROR: string | null;
  __MM_MODEL_CONTEXT: Json[];
  __MM_MESSAGES: Json[];
  __MM_LINKS: string[];
  __MM_LOGS: Json[];
  __MM_TOOL_CALLS: ToolCallRecord[];
  __MM_TOOL_RESULT: CallToolResult | null;
  __MM_SIZES: { width?: number; height?: number; ms: number }[];
  __MM_TIMING: Timing;
  __MM_CSP: string | null;
  __MM_HOST: { setTheme(theme: Theme): void } | null;
}

export const w = window as unknown as Window & Recorded;
Object.assign(w, {
  __MM_READY: false,
  __MM_ERROR: null,
  __MM_MODEL_CONTEXT: [],
  __MM_MESSAGES: [],
  __MM_LINKS: [],
  __MM_LOGS: [],
  __MM_TOOL_CALLS: [],
  __MM_TOOL_RESULT: null,
  __MM_SIZES: [],
  __MM_TIMING: {},
  __MM_CSP: null,
  __MM_HOST: null,
} satisfies Omit<Recorded, "__MM_CONFIG">);

export const HOST_INFO = { name: "memory-mcp-test-host", version: "1.0.0" };

export function setStatus(state: string, text: string = state): void {
  const node = document.getElementById("status")!;
  node.dataset.state = state;
  node.textContent = text;
}

export function readConfig(): HostConfig {
  const q = new URLSearchParams(location.search);
  const given = w.__MM_CONFIG ?? {};
  const args = given.args ?? (q.get("args") ? (JSON.parse(q.get("args")!) as Json) : {});
  const theme = (given.theme ?? q.get("theme") ?? "light") as Theme;
  const config: HostConfig = {
    server: given.server ?? q.get("server") ?? new URL("/mcp", location.href).href,
    key: given.key ?? q.get("key") ?? "",
    tool: given.tool ?? q.get("tool") ?? "",
    args,
    theme: theme === "dark" ? "dark" : "light",
    width: given.width ?? (q.get("width") ? Number(q.get("width")) : 720),
  };
  if (!config.key) throw new Error("No bearer key: pass ?key=… or window.__MM_CONFIG.key.");
  if (!config.tool) throw new Error("No tool: pass ?tool=… or window.__MM_CONFIG.tool.");
  return config;
}
