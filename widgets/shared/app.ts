// What every Memory-MCP view shares: connecting to the host, following its theme and style
// variables, reading a tool result's structuredContent, and showing an error instead of a blank
// frame. Each view imports this and stays a small, self-contained page.
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
} from "@modelcontextprotocol/ext-apps";
import type { CallToolResult } from "@modelcontextprotocol/client";
import "./base.css";

export type Json = Record<string, unknown>;
export type ToolResult = CallToolResult;

/** The part of a host context this package reads (kept loose: hosts send subsets). */
interface HostLook {
  theme?: "light" | "dark";
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
}

function applyLook(ctx: HostLook | undefined): void {
  if (!ctx) return;
  if (ctx.theme) applyDocumentTheme(ctx.theme);
  if (ctx.styles?.variables) applyHostStyleVariables(ctx.styles.variables as never);
  if (ctx.styles?.css?.fonts) applyHostFonts(ctx.styles.css.fonts);
}

/**
 * Create the view's App, register the caller's handlers *before* connecting (the host sends the
 * tool input/result once, right after the handshake), connect over postMessage and apply the
 * host's look. Returns the connected App.
 */
export async function connect(
  name: string,
  handlers: {
    onInput?: (args: Json) => void;
    onResult?: (result: ToolResult) => void;
    onCancelled?: (reason: string | undefined) => void;
  },
): Promise<App> {
  const app = new App({ name: `memory-mcp-${name}`, version: "1.0.0" }, {}, { autoResize: true });
  app.onhostcontextchanged = (ctx) => applyLook(ctx as HostLook);
  if (handlers.onInput) {
    const onInput = handlers.onInput;
    app.ontoolinput = (params) => onInput((params.arguments ?? {}) as Json);
  }
  if (handlers.onResult) {
    const onResult = handlers.onResult;
    app.ontoolresult = (params) => onResult(params as ToolResult);
  }
  if (handlers.onCancelled) {
    const onCancelled = handlers.onCancelled;
    app.ontoolcancelled = (params) => onCancelled(params.reason);
  }
  await app.connect();
  applyLook(app.getHostContext() as HostLook | undefined);
  return app;
}

/** The structured data of a result, or null; the server always sends it. */
export function data<T = Json>(result: ToolResult): T | null {
  const sc = (result as { structuredContent?: unknown }).structuredContent;
  return sc && typeof sc === "object" ? (sc as T) : null;
}

/** The first text block of a result (tool errors carry their message there). */
export function text(result: ToolResult): string {
  for (const block of result.content ?? []) {
    if (block.type === "text") return block.text;
  }
  return "";
}

/**
 * Call a server tool and return its structured data; a tool error (isError) or a transport
 * failure becomes an Error whose message is the server's readable text.
 */
export async function call<T = Json>(app: App, name: string, args: Json): Promise<T> {
  let result: ToolResult;
  try {
    result = (await app.callServerTool({ name, arguments: args })) as ToolResult;
  } catch (err) {
    throw new Error(`Could not reach Memory-MCP: ${(err as Error).message || "unknown error"}`);
  }
  if (result.isError) throw new Error(text(result) || `${name} failed.`);
  const found = data<T>(result);
  if (found === null) throw new Error(`${name} returned no data.`);
  return found;
}

/** Tell the model something happened in the view (best effort: not every host supports it). */
export async function tellModel(app: App, message: string, structured?: Json): Promise<void> {
  try {
    await app.updateModelContext({
      content: [{ type: "text", text: message }],
      ...(structured ? { structuredContent: structured } : {}),
    });
  } catch {
    /* the host may not implement ui/update-model-context; the view already shows the outcome */
  }
}

/** `document.createElement` with attributes, text and children; text is never parsed as HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, v);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** Replace the content of the view's root. */
export function render(...children: (Node | string | null | undefined | false)[]): void {
  const root = document.getElementById("app")!;
  root.replaceChildren(...children.filter((c): c is Node | string => Boolean(c)));
}

/** A visible, readable error panel (role=alert), never a blank frame. */
export function errorPanel(title: string, detail: string): HTMLElement {
  return el("div", { class: "panel error", role: "alert" }, el("strong", {}, title), el("p", {}, detail));
}

/** "3 minutes ago"-style wording for ISO timestamps, in the person's locale. */
export function ago(iso: string | null | undefined): string {
  if (!iso) return "never";
  const seconds = (Date.now() - new Date(iso).getTime()) / 1000;
  const fmt = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const steps: [number, Intl.RelativeTimeFormatUnit][] = [
    [60, "second"], [60, "minute"], [24, "hour"], [30, "day"], [12, "month"], [Infinity, "year"],
  ];
  let value = -seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return fmt.format(Math.round(value), unit);
    value /= size;
  }
  return new Date(iso).toLocaleDateString();
}

/** Run the view's start-up, turning any failure into the error panel. */
export function start(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    render(errorPanel("This view could not start.", (err as Error)?.message || String(err)));
  });
}
