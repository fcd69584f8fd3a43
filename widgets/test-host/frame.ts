// The sandbox: a CSP from _meta.ui.csp, injected as the first thing in <head>, and the iframe
// with an opaque origin the view runs in.
import {
  buildAllowAttribute,
  type McpUiResourceCsp,
  type McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";

/** Domain entries that could break out of a directive (`;`, quotes, spaces) are dropped. */
function domains(list: string[] | undefined): string[] {
  return (list ?? []).filter((d) => typeof d === "string" && !/[;\r\n'" ,]/.test(d));
}

/**
 * The policy a host enforces for a view: inline scripts and styles (everything is inlined),
 * images and fonts from data:/blob: and the declared resourceDomains, and network access only to
 * the declared connectDomains (none by default). No same-origin: the frame's origin is opaque.
 */
export function buildCsp(csp: McpUiResourceCsp | undefined): string {
  const resources = domains(csp?.resourceDomains).join(" ");
  const connect = domains(csp?.connectDomains).join(" ") || "'none'";
  const frames = domains(csp?.frameDomains).join(" ") || "'none'";
  const base = domains(csp?.baseUriDomains).join(" ") || "'none'";
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: blob: ${resources}`.trim(),
    `font-src data: ${resources}`.trim(),
    `media-src data: blob: ${resources}`.trim(),
    `connect-src ${connect}`,
    `frame-src ${frames}`,
    "object-src 'none'",
    `base-uri ${base}`,
  ].join("; ");
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** The view's HTML with the CSP meta tag before anything else can run. */
export function withCsp(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeAttr(policy)}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length);
  const root = /<html(\s[^>]*)?>/i.exec(html);
  if (root) {
    const at = root.index + root[0].length;
    return `${html.slice(0, at)}<head>${meta}</head>${html.slice(at)}`;
  }
  return `<head>${meta}</head>${html}`;
}

/** The view's frame, added to #stage but not loaded yet (srcdoc is set once the bridge listens). */
export function createFrame(title: string, permissions: McpUiResourcePermissions | undefined): HTMLIFrameElement {
  const iframe = document.createElement("iframe");
  iframe.id = "view";
  iframe.title = title;
  // Scripts and forms only: without allow-same-origin the frame's origin is opaque, as in
  // real hosts, so the view reaches nothing but what its CSP and the target's CORS allow.
  iframe.setAttribute("sandbox", "allow-scripts allow-forms");
  const allow = buildAllowAttribute(permissions);
  if (allow) iframe.setAttribute("allow", allow);
  document.getElementById("stage")!.append(iframe);
  return iframe;
}
