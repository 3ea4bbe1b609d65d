// The `vscode` module, once per bundle. esbuild gives every module that imports an external
// CommonJS module a copy of its namespace (a getter per export: ~375 for `vscode`), so 36 modules
// importing `vscode` kept 36 copies alive — 2.5 MB of the extension host's heap at rest. The build
// (esbuild.mjs, `oneVscode`) resolves `vscode` to this file everywhere else; its one copy is shared.
export * from 'vscode';
