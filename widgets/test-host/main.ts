// A tiny MCP Apps host for the browser tests (tests/test_widgets_browser*.py). It does what a
// real client does, and records what it sees so a test can assert on it:
//   1. read its configuration (window.__MM_CONFIG, set by the test before load, or the query
//      string: ?tool=select-space&key=...&args={json}&theme=dark&server=...);
//   2. connect an MCP client (streamable HTTP, bearer key) to the live server;
//   3. find the tool's ui:// resource (_meta.ui.resourceUri) and read it (resources/read);
//   4. load the HTML into a sandboxed iframe with an opaque origin (srcdoc, allow-scripts
//      without allow-same-origin) under a Content-Security-Policy built from the resource's
//      _meta.ui.csp (connect-src 'none' unless connectDomains say otherwise);
//   5. bridge the view with the real AppBridge: tools/call (only tools visible to apps),
//      ui/update-model-context, ui/message, ui/open-link, logging; host context with a theme
//      and style variables;
//   6. call the tool itself with the given arguments, as a model would, and send the view the
//      tool input and the tool result.
// Everything observable lands on window.__MM_* (see `Recorded` in record.ts) and in #status.
//   record.ts: config and recording · mcp.ts: the client · frame.ts: CSP and iframe ·
//   look.ts: host context · bridge.ts: the AppBridge
import { getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { connectBridge } from "./bridge";
import { buildCsp, createFrame, withCsp } from "./frame";
import { connectClient, readUiResource } from "./mcp";
import { readConfig, setStatus, w, type ToolCallRecord } from "./record";
import "./style.css";

async function main(): Promise<void> {
  const config = readConfig();
  const theme = config.theme ?? "light";
  const width = config.width ?? 720;
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.setProperty("--view-width", `${width}px`);
  document.getElementById("title")!.textContent = `${config.tool} · ${theme}`;

  setStatus("connecting");
  const client = await connectClient(config);
  const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
  const tool = tools.get(config.tool);
  if (!tool) throw new Error(`The server lists no tool named ${config.tool}.`);
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${config.tool} has no _meta.ui.resourceUri.`);

  setStatus("loading", `reading ${uri}`);
  const resource = await readUiResource(client, uri);
  const policy = buildCsp(resource.csp);
  w.__MM_CSP = policy;

  const iframe = createFrame(config.tool, resource.permissions);
  const { bridge, initialized, since } = await connectBridge(client, tools, resource, iframe, theme, width);
  const timing = w.__MM_TIMING;

  // The model's call starts alongside the view's load, as in a real conversation.
  const args = config.args ?? {};
  const called = performance.now();
  const modelCall: ToolCallRecord = { name: config.tool, arguments: args, by: "model", ok: false, isError: false, ms: 0 };
  w.__MM_TOOL_CALLS.push(modelCall);
  const resultPromise = client.callTool({ name: config.tool, arguments: args }).then((r) => {
    modelCall.ms = timing.toolCallMs = Math.round(performance.now() - called);
    modelCall.ok = true;
    modelCall.isError = Boolean((r as CallToolResult).isError);
    return r as CallToolResult;
  });

  setStatus("loading", "starting the view");
  timing.iframeCreated = performance.now();
  iframe.srcdoc = withCsp(resource.html, policy);
  await initialized;

  await bridge.sendToolInput({ arguments: args });
  let result: CallToolResult;
  try {
    result = await resultPromise;
  } catch (err) {
    modelCall.error = (err as Error).message;
    await bridge.sendToolCancelled({ reason: modelCall.error });
    throw err;
  }
  w.__MM_TOOL_RESULT = result;
  await bridge.sendToolResult(result);
  timing.resultSentMs = since();
  w.__MM_READY = true;
  setStatus("ready");
}

main().catch((err: unknown) => {
  const message = (err as Error)?.message || String(err);
  w.__MM_ERROR = message;
  setStatus("error", message);
  const stage = document.getElementById("stage")!;
  const pre = document.createElement("pre");
  pre.className = "host-error";
  pre.textContent = message;
  stage.prepend(pre);
});
