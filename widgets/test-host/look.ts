// The host's look: its theme and a few style variables, as real hosts send them in the host
// context.
import type { McpUiHostContext, McpUiStyles } from "@modelcontextprotocol/ext-apps/app-bridge";
import { HOST_INFO, type Theme } from "./record";

const PALETTE: Record<Theme, Partial<McpUiStyles>> = {
  light: {
    "--color-background-primary": "#ffffff",
    "--color-background-secondary": "#f4f4f5",
    "--color-background-tertiary": "#e4e4e7",
    "--color-text-primary": "#18181b",
    "--color-text-secondary": "#52525b",
    "--color-text-tertiary": "#71717a",
    "--color-text-danger": "#b91c1c",
    "--color-text-success": "#15803d",
    "--color-border-primary": "#d4d4d8",
    "--color-border-secondary": "#e4e4e7",
    "--color-ring-primary": "#2563eb",
  },
  dark: {
    "--color-background-primary": "#1f1f23",
    "--color-background-secondary": "#27272a",
    "--color-background-tertiary": "#3f3f46",
    "--color-text-primary": "#f4f4f5",
    "--color-text-secondary": "#d4d4d8",
    "--color-text-tertiary": "#a1a1aa",
    "--color-text-danger": "#f87171",
    "--color-text-success": "#4ade80",
    "--color-border-primary": "#52525b",
    "--color-border-secondary": "#3f3f46",
    "--color-ring-primary": "#60a5fa",
  },
};
const SHARED_STYLES: Partial<McpUiStyles> = {
  "--font-sans": "system-ui, -apple-system, 'Segoe UI', sans-serif",
  "--font-mono": "ui-monospace, 'DejaVu Sans Mono', monospace",
  "--font-text-md-size": "14px",
  "--border-radius-md": "8px",
};

export function hostContext(theme: Theme, width: number): McpUiHostContext {
  return {
    theme,
    styles: { variables: { ...SHARED_STYLES, ...PALETTE[theme] } as McpUiStyles },
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    containerDimensions: { width, maxHeight: 4000 },
    locale: "en-US",
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: HOST_INFO.name,
    platform: "web",
    deviceCapabilities: { touch: false, hover: true },
  };
}
