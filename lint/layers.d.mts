// Types of lint/layers.mjs for the TypeScript tests that read it.
export interface LayerRow {
  name: string;
  paths: string[];
  mayImport: string[] | '*';
  vscode: boolean;
  why: string;
}
export const LAYERS: LayerRow[];
export function layerOf(rel: string): LayerRow | undefined;
export function mayImport(from: LayerRow, to: LayerRow): boolean;
export function layer(name: string): LayerRow | undefined;
export const layersPlugin: { rules: Record<string, unknown> };
