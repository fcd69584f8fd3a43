// The host's MCP side: connect a client with the bearer key, find a tool's ui:// resource and
// read it, and tell which tools apps may call.
import {
  RESOURCE_MIME_TYPE,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, StreamableHTTPClientTransport, type Tool } from "@modelcontextprotocol/client";
import { HOST_INFO, type HostConfig, type Json } from "./record";

export interface UiResource {
  html: string;
  csp?: McpUiResourceCsp;
  permissions?: McpUiResourcePermissions;
}

/** An MCP client that renders apps (it says so in its capabilities), connected with the key. */
export async function connectClient(config: HostConfig): Promise<Client> {
  const client = new Client(HOST_INFO, {
    capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(config.server!), {
    requestInit: { headers: { Authorization: `Bearer ${config.key}` } },
  }));
  return client;
}

export async function readUiResource(client: Client, uri: string): Promise<UiResource> {
  const found = await client.readResource({ uri });
  if (found.contents.length !== 1) throw new Error(`${uri}: expected one content, got ${found.contents.length}`);
  const content = found.contents[0] as Json & { mimeType?: string; text?: string; blob?: string };
  if (content.mimeType !== RESOURCE_MIME_TYPE) {
    throw new Error(`${uri}: mimeType ${String(content.mimeType)}, expected ${RESOURCE_MIME_TYPE}`);
  }
  const html = typeof content.text === "string" ? content.text : atob(String(content.blob ?? ""));
  const meta = (content._meta ?? {}) as { ui?: { csp?: McpUiResourceCsp; permissions?: McpUiResourcePermissions } };
  return { html, csp: meta.ui?.csp, permissions: meta.ui?.permissions };
}

/** Apps may call a tool unless its _meta.ui.visibility leaves "app" out (spec default: both). */
export function visibleToApps(tool: Tool | undefined): boolean {
  const visibility = (tool?._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility;
  return !Array.isArray(visibility) || visibility.includes("app");
}
