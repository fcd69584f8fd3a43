// What the upload-file modules share: the connected App, the server's offer, and a generation
// counter that tells a running upload whether the person has left it.
import type { App } from "@modelcontextprotocol/ext-apps";
import type { Offer, Session } from "./types";

export const state: {
  app: App;
  offer: Offer | null;
  /** Bumped whenever the person leaves an upload: stale polling loops and XHRs stop. */
  generation: number;
} = { app: undefined as unknown as App, offer: null, generation: 0 };

export function live(s: Session): boolean {
  return s.gen === state.generation;
}

export function spaceName(key: string | null | undefined): string {
  if (!key) return "your space";
  const found = state.offer?.writableSpaces.find((s) => s.key === key || s.containerTag === key);
  return found?.name || key;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
