// The project's tsconfig resolves modules the `node10` way, which ignores package.json
// `exports`; vscode-jsonrpc 10 publishes its Node entry point only there. esbuild follows
// `exports` and bundles `vscode-jsonrpc/node` (the entry that installs the Node runtime layer);
// for the type checker this declaration points the same name at the deep path it can resolve.
declare module 'vscode-jsonrpc/node' {
  export * from 'vscode-jsonrpc/lib/node/main';
}
