// Types of lint/functionLength.mjs for the TypeScript tests that read it.
export function functionName(node: unknown): string | undefined;
export const functionsPlugin: { rules: Record<string, unknown> };
