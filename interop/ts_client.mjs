// The official TypeScript MCP client (@modelcontextprotocol/client 2.x) against a live
// memory-mcp serve: connects over streamable HTTP with an Authorization header, in the era the
// caller names, calls every tool, reads every resource, gets the prompt, and prints one JSON
// document on stdout for tests/test_interop_clients.py to check. It asserts nothing itself:
// the Python test owns the expectations, this script only reports what the client saw.
//
//   node ts_client.mjs <url> <key> legacy|2026-07-28 <marker>
//
// <marker> is a unique word the saved memory and the uploaded file carry, so the test can tell
// this run's results from any other's.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, key, era, marker] = process.argv.slice(2);
if (!url || !key || !era || !marker) {
  console.error('usage: node ts_client.mjs <url> <key> legacy|2026-07-28 <marker>');
  process.exit(2);
}

const versionNegotiation = era === 'legacy' ? { mode: 'legacy' } : { mode: { pin: era } };
const client = new Client({ name: 'memory-mcp-interop', version: '1.0.0' }, { versionNegotiation });
const logs = [];
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});

/** A tool result, reduced to what the test checks (text, structured content, error flag). */
async function call(name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  return { isError: Boolean(result.isError), text, structured: result.structuredContent ?? null };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  await client.connect(transport);
  const report = {
    era,
    protocolVersion: client.getNegotiatedProtocolVersion?.() ?? null,
    capabilities: client.getServerCapabilities() ?? null,
    serverInfo: client.getServerVersion?.() ?? null,
    calls: {},
    resources: {},
  };
  if (era === 'legacy') {
    // Handshake era only: 2026-07-28 removed logging/setLevel (levels travel in _meta).
    report.setLevel = await client.setLoggingLevel('info');
  }
  report.tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const calls = report.calls;

  calls.whoAmI = await call('whoAmI');
  calls.listSpaces = await call('listSpaces');
  const fact = `The ${marker} release train leaves every Tuesday at ten`;
  calls.add_memory = await call('add_memory', { content: fact, category: 'convention' });
  calls.search_memory = await call('search_memory', { query: `When does the ${marker} release train leave?` });
  calls.listMemories = await call('listMemories', { limit: 50 });

  // A real upload: the signed URL from upload-start, the bytes PUT there, then followed to done.
  const body = `Runbook ${marker}. The ${marker} pager rotation hands over on Mondays.\n`;
  const size = Buffer.byteLength(body);
  calls['upload-start'] = await call('upload-start', { filename: `${marker}.txt`, contentType: 'text/plain', size });
  const started = calls['upload-start'].structured ?? {};
  const put = await fetch(started.uploadUrl, { method: 'PUT', body, headers: started.headers ?? { 'Content-Type': 'text/plain' } });
  report.uploadPut = put.status;
  const documentId = started.documentId;
  for (let i = 0; i < 120; i += 1) {
    calls['upload-status'] = await call('upload-status', { documentId });
    const status = calls['upload-status'].structured?.document?.status;
    if (status === 'done' || status === 'failed') break;
    await sleep(500);
  }
  calls.listDocuments = await call('listDocuments');
  calls.getDocument = await call('getDocument', { documentId });

  calls['select-space'] = await call('select-space', { containerTag: 'demo' });
  calls['guided-save'] = await call('guided-save', { content: `A draft about ${marker}` });
  calls['upload-file'] = await call('upload-file', {});
  calls['memory-graph'] = await call('memory-graph', {});
  calls.deleteDocument = await call('deleteDocument', { documentId });
  const saved = calls.add_memory.structured?.memory?.id;
  calls.forget = await call('add_memory', { content: fact, action: 'forget', memoryId: saved });
  calls.unknownTool = await call('no-such-tool');

  for (const resource of (await client.listResources()).resources) {
    const read = await client.readResource({ uri: resource.uri });
    const contents = read.contents.map((c) => ({ uri: c.uri, mimeType: c.mimeType ?? null, text: c.text ?? null }));
    report.resources[resource.uri] = contents;
  }
  report.prompts = (await client.listPrompts()).prompts.map((p) => p.name);
  const prompt = await client.getPrompt({ name: 'context' });
  report.prompt = prompt.messages.map((m) => ({ role: m.role, text: m.content?.text ?? null }));
  report.logs = logs;
  await client.close();
  process.stdout.write(JSON.stringify(report));
}

main().catch(async (error) => {
  process.stdout.write(JSON.stringify({ era, error: String(error?.message ?? error) }));
  try { await client.close(); } catch { /* already closed */ }
  process.exit(1);
});
