// The `select-space` tool's structuredContent (widgets/README.md), and the picker's shared state.
export type Access = "Read" | "ReadWrite";

export interface Space {
  key: string;
  containerTag?: string;
  name: string;
  description?: string | null;
  access: Access;
  grantedAccess?: Access;
  documentCount?: number;
  memoryCount?: number;
  lastActivityAt?: string | null;
  active?: boolean;
}

export interface ActiveSpace {
  key: string;
  name: string;
  access: Access;
}

export interface SelectResult {
  mode?: "pick" | "switched";
  spaces?: Space[];
  activeSpace?: ActiveSpace | null;
  changed?: boolean;
}

export const state = {
  spaces: [] as Space[],
  activeKey: null as string | null,
  query: "",
  highlighted: 0, // index into visible()
  busy: false,
};

/** The spaces the search leaves shown. */
export function visible(): Space[] {
  const q = state.query.trim().toLowerCase();
  if (!q) return state.spaces;
  return state.spaces.filter((s) => s.name.toLowerCase().includes(q) || s.key.toLowerCase().includes(q));
}

export function label(space: { name: string; key: string }): string {
  return space.name && space.name !== space.key ? `${space.name} (${space.key})` : space.key;
}
