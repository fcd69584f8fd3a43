// The bridge to the view: the real AppBridge over postMessage, with a host context (theme,
// style variables), recording size changes, model-context updates, messages, links and logs, and
// a tools/call handler that records each call and refuses tools hidden from apps.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult, Client, Tool } from "@modelcontextprotocol/client";
import { hostContext } from "./look";
import { visibleToApps, type UiResource } from "./mcp";
import { HOST_INFO, w, type Json, type Theme, type ToolCallRecord } from "./record";

export interface Bridged {
  bridge: AppBridge;
  /** Resolves on the view's ui/notifications/initialized. */
  initialized: Promise<void>;
  /** ms since the iframe got its document (one decimal). */
  since: () => number;
}

export async function connectBridge(
  client: Client,
  tools: Map<string, Tool>,
  resource: UiResource,
  iframe: HTMLIFrameElement,
  theme: Theme,
  width: number,
): Promise<Bridged> {
  const capabilities = client.getServerCapabilities();
  const bridge = new AppBridge(client, HOST_INFO, {
    openLinks: {},
    serverTools: capabilities?.tools ? {} : undefined,
    serverResources: capabilities?.resources ? {} : undefined,
    logging: {},
    updateModelContext: { text: {}, structuredContent: {} },
    message: { text: {} },
    sandbox: { csp: resource.csp, permissions: resource.permissions },
  }, { hostContext: hostContext(theme, width) });

  const timing = w.__MM_TIMING;
  const since = (): number => Math.round((performance.now() - (timing.iframeCreated ?? 0)) * 10) / 10;

  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => {
      timing.initializedMs = since();
      resolve();
    };
  });
  bridge.onsizechange = ({ width: wide, height }) => {
    w.__MM_SIZES.push({ width: wide, height, ms: since() });
    if (height !== undefined && height > 0) {
      timing.firstPaintMs ??= since();
      if (timing.resultSentMs !== undefined) timing.contentPaintMs ??= since();
      iframe.style.height = `${Math.ceil(height)}px`;
    }
  };
  bridge.onupdatemodelcontext = async (params) => {
    w.__MM_MODEL_CONTEXT.push(params as Json);
    return {};
  };
  bridge.onmessage = async (params) => {
    w.__MM_MESSAGES.push(params as Json);
    return {};
  };
  bridge.onopenlink = async ({ url }) => {
    w.__MM_LINKS.push(url);
    return {};
  };
  bridge.onloggingmessage = (params) => {
    w.__MM_LOGS.push(params as Json);
  };

  const transport = new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!);
  await bridge.connect(transport);
  // connect() installs a plain tools/call forwarder; replace it with one that records each
  // call and, like a real host, refuses tools hidden from apps (visibility ["model"]).
  bridge.oncalltool = async (params) => {
    const started = performance.now();
    const record: ToolCallRecord = {
      name: params.name, arguments: (params.arguments ?? {}) as Json, by: "view",
      ok: false, isError: false, ms: 0,
    };
    w.__MM_TOOL_CALLS.push(record);
    try {
      if (!visibleToApps(tools.get(params.name))) {
        throw new Error(`${params.name} is not available to apps (visibility).`);
      }
      const result = (await client.callTool({ name: params.name, arguments: params.arguments })) as CallToolResult;
      record.ok = true;
      record.isError = Boolean(result.isError);
      return result;
    } catch (err) {
      record.error = (err as Error).message;
      throw err;
    } finally {
      record.ms = Math.round(performance.now() - started);
    }
  };

  w.__MM_HOST = {
    setTheme(next: Theme) {
      document.documentElement.dataset.theme = next;
      bridge.setHostContext(hostContext(next, width));
    },
  };
  return { bridge, initialized, since };
}
