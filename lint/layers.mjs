// The layers of src/ and which may import which, as data (the table in docs/ARCHITECTURE.md, kept
// equal by test/unit/lint/layers.test.ts), and the ESLint rule that enforces it: `layers/imports`
// resolves every relative import (static, dynamic, `require`, `import('…')` types, re-exports) to the
// layer it lands in and reports one the importing layer may not use, with the sentence that says
// why; a layer marked vscode-free may not import `vscode` either.
import path from 'node:path';

/**
 * Lower layers first. A file belongs to the layer of the longest path that contains it; `mayImport`
 * lists the other layers it may use ('*': all). Importing within one's own layer is always allowed.
 */
export const LAYERS = [
  {
    name: 'common',
    paths: ['src/common'],
    mayImport: [],
    vscode: false,
    why: 'shared building blocks (disposables, lazy loading, paths) depend on nothing of ours',
  },
  { name: 'protocol', paths: ['src/protocol'], mayImport: ['common'], vscode: false, why: 'ACP on the wire knows nothing of the client around it' },
  {
    name: 'intent',
    paths: ['src/intent'],
    mayImport: ['common', 'protocol'],
    vscode: false,
    why: 'intent tokens and call checks are pure logic over protocol types',
  },
  {
    name: 'state',
    paths: ['src/state'],
    mayImport: ['common', 'protocol', 'intent'],
    vscode: false,
    why: 'the stores apply events synchronously and know nothing of agents, services or views',
  },
  {
    name: 'consent',
    paths: ['src/consent'],
    mayImport: ['common', 'protocol'],
    vscode: false,
    why: 'what a permission rule covers is pure logic, applied by the broker and shown by views',
  },
  {
    name: 'demo',
    paths: ['src/demo'],
    mayImport: ['common', 'protocol', 'intent'],
    vscode: false,
    why: 'the Demo Agent is its own process and reaches the client over the wire only',
  },
  {
    name: 'api',
    paths: ['src/api'],
    mayImport: ['common', 'protocol', 'state'],
    vscode: false,
    why: 'the public API reads the stores; nothing reachable from it drives agents',
  },
  {
    name: 'checkpoints',
    paths: ['src/checkpoints'],
    mayImport: ['common'],
    vscode: false,
    why: 'checkpoints of workspace folders in a shadow git repository; git runs as a child process; knows nothing of sessions or views',
  },
  {
    name: 'worktrees',
    paths: ['src/worktrees'],
    mayImport: ['common'],
    vscode: false,
    why: 'git worktrees of the repository (add, list, compare, apply, remove); git runs as a child process; knows nothing of sessions or views',
  },
  {
    name: 'platform',
    paths: ['src/platform'],
    mayImport: ['common'],
    vscode: true,
    why: 'what VS Code says about the environment (settings, workspace folders, trust) is read here, for every layer above',
  },
  {
    name: 'agents',
    paths: ['src/agents'],
    mayImport: ['common', 'protocol', 'consent', 'platform'],
    vscode: true,
    why: 'agent endpoints, connections and client services report events; they know no stores, services or views',
  },
  {
    name: 'recording',
    paths: ['src/recording'],
    mayImport: ['common', 'protocol', 'state', 'agents', 'platform'],
    vscode: true,
    why: 'recording taps connections and replay feeds the stores; views show them, never the other way',
  },
  {
    name: 'registry',
    paths: ['src/registry'],
    mayImport: ['common', 'protocol', 'platform', 'agents'],
    vscode: true,
    why: 'the registry bundle acts only through its contract (src/registry/api.ts), never on services or views',
  },
  {
    name: 'history',
    paths: ['src/app/history'],
    mayImport: ['common', 'protocol', 'intent', 'state', 'consent', 'worktrees', 'platform', 'agents', 'recording'],
    vscode: true,
    why: 'the durable session history records what the stores saw and replays it; the services that feed it (checkpoints, team) call it, never the other way, so it imports no service (src/app, src/app/checkpoints included) nor src/checkpoints',
  },
  {
    name: 'team',
    paths: ['src/app/team'],
    mayImport: ['common', 'protocol', 'state', 'worktrees', 'history'],
    vscode: false,
    why: 'the Team service owns its workflows (worktrees, apply, remove, compare) and asks through its UI port; free of vscode, it runs in plain Node under unit tests',
  },
  {
    name: 'app',
    paths: ['src/app'],
    mayImport: ['common', 'protocol', 'intent', 'state', 'consent', 'checkpoints', 'worktrees', 'platform', 'agents', 'recording', 'history'],
    vscode: true,
    why: 'application services decide; views call them, never the other way',
  },
  {
    name: 'ui',
    paths: ['src/ui'],
    mayImport: ['common', 'protocol', 'intent', 'state', 'consent', 'platform', 'app', 'history', 'team', 'recording', 'registry'],
    vscode: true,
    why: 'views read the stores and act through the application services (SessionActions, the brokers, the Team service), never on agent internals nor on git: checkpoints and worktrees are reached through src/app, which owns their workflows and reasons',
  },
  {
    name: 'root',
    paths: ['src/root', 'src/extension.ts', 'src/testHooks.ts'],
    mayImport: '*',
    vscode: true,
    why: 'the composition root builds and wires every layer',
  },
];

const byName = new Map(LAYERS.map((l) => [l.name, l]));

/** The layer of a path relative to the project root (forward slashes, with or without `.ts`), or undefined. */
export function layerOf(rel) {
  const p = rel.replace(/\\/g, '/');
  let best;
  let bestLength = -1;
  for (const layer of LAYERS) {
    for (const owned of layer.paths) {
      const bare = owned.replace(/\.ts$/, '');
      const hit = owned.endsWith('.ts') ? p === owned || p === bare : p === owned || p.startsWith(`${owned}/`);
      if (hit && owned.length > bestLength) {
        best = layer;
        bestLength = owned.length;
      }
    }
  }
  return best;
}

/** May `from` import `to`? */
export function mayImport(from, to) {
  return from === to || from.mayImport === '*' || from.mayImport.includes(to.name);
}

function describe(layer) {
  return layer.paths.length === 1 ? layer.paths[0] : `${layer.name} (${layer.paths.join(', ')})`;
}

const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer of src/ imports only the layers docs/ARCHITECTURE.md allows it.' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, required: ['root'], additionalProperties: false }],
    messages: {
      layer: '{{from}} may not import {{to}}: {{why}} (allowed: {{allowed}}; docs/ARCHITECTURE.md, Layers).',
      vscode: '{{from}} may not import vscode: {{why}} (docs/ARCHITECTURE.md, Layers).',
    },
  },
  create(context) {
    const root = context.options[0].root;
    const file = path.relative(root, context.filename).replace(/\\/g, '/');
    const own = layerOf(file);
    if (!own) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      if (spec === 'vscode') {
        if (!own.vscode) context.report({ node, messageId: 'vscode', data: { from: describe(own), why: own.why } });
        return;
      }
      if (!spec.startsWith('.')) return;
      const target = path.relative(root, path.resolve(path.dirname(context.filename), spec)).replace(/\\/g, '/');
      const to = layerOf(target);
      if (!to || mayImport(own, to)) return;
      const allowed = own.mayImport.length ? own.mayImport.join(', ') : 'no other layer';
      context.report({ node, messageId: 'layer', data: { from: describe(own), to: describe(to), why: own.why, allowed } });
    };
    const literal = (n) =>
      n && n.type === 'Literal' ? n.value : n && n.type === 'TemplateLiteral' && n.expressions.length === 0 ? n.quasis[0].value.cooked : undefined;
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => check(node.source, literal(node.source)),
      TSImportType: (node) => check(node, literal(node.argument?.literal ?? node.argument)),
      TSExternalModuleReference: (node) => check(node.expression, literal(node.expression)),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1)
          check(node.arguments[0], literal(node.arguments[0]));
      },
    };
  },
};

/** The ESLint plugin: `layers/imports`. */
export const layersPlugin = { rules: { imports: importsRule } };

/** Looks a layer up by name (tests). */
export function layer(name) {
  return byName.get(name);
}
