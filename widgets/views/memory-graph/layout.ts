// Lays the graph out with d3-force before anything is painted: a fixed number of ticks, run in
// slices so the frame stays responsive, then the SVG is drawn once (no per-tick re-render).
import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY } from "d3-force";
import type { SimLink, SimNode } from "./types";

/** Yield to the event loop without timer throttling (hidden iframes clamp setTimeout). */
function yieldNow(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Memories start next to their document, so the simulation has little left to untangle. */
function seed(nodes: SimNode[], links: SimLink[]): void {
  const docs = nodes.filter((n) => n.node.kind === "document");
  const golden = Math.PI * (3 - Math.sqrt(5));
  docs.forEach((d, i) => {
    const radius = 40 * Math.sqrt(i + 0.5);
    d.x = radius * Math.cos(i * golden);
    d.y = radius * Math.sin(i * golden);
  });
  const home = new Map<SimNode, SimNode>();
  for (const link of links) {
    if (link.kind === "extracted" && link.source.node.kind === "document") home.set(link.target, link.source);
  }
  let loose = 0;
  for (const n of nodes) {
    if (n.node.kind === "document") continue;
    const doc = home.get(n);
    if (doc && doc.x !== undefined && doc.y !== undefined) {
      const angle = Math.random() * 2 * Math.PI;
      const dist = 10 + Math.random() * 25;
      n.x = doc.x + dist * Math.cos(angle);
      n.y = doc.y + dist * Math.sin(angle);
    } else {
      const radius = 12 * Math.sqrt(loose + 0.5) + 20;
      n.x = radius * Math.cos(loose * golden + 1);
      n.y = radius * Math.sin(loose * golden + 1);
      loose++;
    }
  }
}

export async function layout(
  nodes: SimNode[],
  links: SimLink[],
  onProgress?: (fraction: number) => void,
): Promise<void> {
  if (nodes.length === 0) return;
  seed(nodes, links);
  // Big graphs get fewer ticks (they start from a good seed) and collision only at the end:
  // many-body and collision dominate the cost of a tick.
  const n = nodes.length;
  const ticks = n <= 500 ? 300 : n <= 1200 ? 200 : 120;
  const collideFrom = n <= 500 ? 0 : Math.round(ticks * 0.6);
  const simulation = forceSimulation<SimNode>(nodes)
    .stop()
    .alphaDecay(1 - Math.pow(0.001, 1 / ticks))
    .force("link", forceLink<SimNode, SimLink>(links).distance((l) => (l.kind === "version" ? 16 : 26)))
    .force("charge", forceManyBody<SimNode>()
      .strength((d) => (d.node.kind === "document" ? -80 : -18))
      .theta(n <= 500 ? 0.9 : 1.2)
      .distanceMax(350))
    .force("x", forceX<SimNode>(0).strength(0.05))
    .force("y", forceY<SimNode>(0).strength(0.05));
  const collide = forceCollide<SimNode>((d) => d.r + 1.5).iterations(1);
  let done = 0;
  while (done < ticks) {
    const sliceStart = performance.now();
    while (done < ticks && performance.now() - sliceStart < 30) {
      if (done === collideFrom) simulation.force("collide", collide);
      simulation.tick();
      done++;
    }
    onProgress?.(done / ticks);
    if (done < ticks) await yieldNow();
  }
}
