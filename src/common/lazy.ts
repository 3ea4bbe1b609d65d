// A module loaded the first time it is needed. In the extension bundle such modules are files of
// their own beside dist/extension.js, so activation does not parse them; elsewhere (tests, the Demo
// Agent) esbuild bundles them in place. The call is the module's only declaration: esbuild.mjs
// finds every call of the shape
//   const x = lazyModule('<out>.js', () => require('<relative spec>') as typeof X);
// in src/, bundles the spec (resolved from the loader's folder) as dist/<out>.js and maps the
// loader's `require` to it; a call of another shape, or two naming one bundle, fail the build.
// No `vscode`.

/**
 * Returns a getter that runs `load` once, on first call. `file` names the bundle for the error a
 * user reads when it cannot be loaded (a damaged install).
 */
export function lazyModule<T>(file: string, load: () => T): () => T {
  let mod: T | undefined;
  return () => {
    if (mod === undefined) {
      try {
        mod = load();
      } catch (err) {
        throw new Error(`ACP Plans cannot load ${file}: ${err instanceof Error ? err.message : String(err)}. Reinstall the extension.`);
      }
    }
    return mod;
  };
}
