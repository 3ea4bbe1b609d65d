import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './lint/layers.mjs';
import { functionsPlugin } from './lint/functionLength.mjs';
import { LONG_FUNCTIONS } from './lint/longFunctions.mjs';

// `import { z } from 'zod/mini'` pulls every zod locale into the bundle (≈260 KB); the namespace import doesn't.
const zodImport = {
  selector: "ImportDeclaration[source.value=/^zod(\\/|$)/] > ImportSpecifier[imported.name='z']",
  message: "Use `import * as z from 'zod/mini'` (the named `z` bundles every zod locale).",
};
// The classic API's methods bring zod's JSON-schema code (≈57 KB more in the bundle than zod/mini).
const zodClassic = {
  selector: 'ImportDeclaration[source.value=/^zod(\\/v[34](\\/classic)?)?$/]',
  message: "Use `import * as z from 'zod/mini'` in src (the classic zod API adds ≈57 KB to the bundle).",
};
// A class that owns disposables extends Disposable (src/common/lifecycle.ts) and `_register`s them.
const vscodeDisposableClass = [
  {
    selector: "ClassDeclaration > TSClassImplements > MemberExpression.expression[object.name='vscode'][property.name='Disposable']",
    message: 'Extend Disposable (src/common/lifecycle.ts) and `_register` what the class owns instead of implementing vscode.Disposable.',
  },
  {
    selector: "ClassDeclaration > MemberExpression.superClass[object.name='vscode'][property.name='Disposable']",
    message: 'Extend Disposable (src/common/lifecycle.ts), not vscode.Disposable.',
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test/interop/node_modules/**', '**/*.mjs', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      'no-restricted-syntax': ['error', zodImport],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', zodImport, zodClassic, ...vscodeDisposableClass] },
  },
  {
    // The layers of src/ (lint/layers.mjs, the table in docs/ARCHITECTURE.md): which folder may import which.
    files: ['src/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/imports': ['error', { root: import.meta.dirname }] },
  },
  {
    // Files of layers that may use VS Code but stay free of it, so they run in plain Node (unit tests).
    files: [
      'src/agents/supervisor*.ts',
      'src/agents/agentProcess.ts',
      'src/agents/*Endpoint.ts',
      'src/agents/sessionGate.ts',
      'src/agents/unansweredPrompts.ts',
      'src/agents/lazyClientServices.ts',
      'src/recording/{format,decoder,player,recorder,replaySink}.ts',
      'src/app/{agentPorts,permissionBroker,sessionActions,signIn,revertPlan,elicitations,elicitationBroker}.ts',
      'src/app/history/bundle.ts',
      'src/ui/**/*Words.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'vscode',
              message:
                'The agent supervisor, the recording format, decoder, player, recorder and replay sink, the session bundle reader, the revert plan, the services behind ports (PermissionBroker, SessionActions, SignIn), and the words of the views (src/ui/**/*Words.ts: they take an L10n) run in plain Node (unit tests): no vscode.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests and harness helpers print their results.
    files: ['test/**/*.ts', 'src/demo/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Functions ≤ 60 lines of code (lint/functionLength.mjs); the tables allowed over it, each with its
    // reason, are lint/longFunctions.mjs. Not test/**: a test reads top to bottom as one scenario,
    // and a describe block is a scope like a file (the 400-line file cap bounds both).
    files: ['src/**/*.ts', 'media/src/**/*.ts'],
    plugins: { functions: functionsPlugin },
    rules: { 'functions/max-lines': ['error', { root: import.meta.dirname, max: 60, skipBlankLines: true, skipComments: true, allow: LONG_FUNCTIONS }] },
  },
  {
    // The plan store has one entry (src/state/planStore/index.ts): outside its folder, code imports
    // `…/state/planStore`, never a file inside it. typescript-eslint's twin of `no-restricted-imports`,
    // so it does not replace that rule's options (the vscode-free files above).
    files: ['src/**/*.ts', 'test/**/*.ts'],
    ignores: ['src/state/planStore/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/planStore/*'], message: 'Import the plan store from its entry (…/state/planStore).' }] },
      ],
    },
  },
  {
    // Words at the edge: the layers below the views hand up reasons as data, so none of them takes
    // an `L10n`. The base `no-restricted-imports`: the planStore block above holds typescript-eslint's
    // twin for these files, and the vscode-free block (the base rule) covers none of them, so each
    // restriction stays in force. Listed under `ignores`: the files that still word sentences.
    files: ['src/protocol/**/*.ts', 'src/state/**/*.ts', 'src/common/**/*.ts', 'src/checkpoints/**/*.ts', 'src/worktrees/**/*.ts'],
    ignores: ['src/common/l10n.ts', 'src/common/linkTarget.ts', 'src/common/sessionBudget.ts', 'src/state/planFileUri.ts', 'src/state/elicitationValues.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)common/l10n$|^\\./l10n$',
              message:
                'Layers below the views return typed reasons (a code and its data); the views word them through vscode.l10n (docs/ARCHITECTURE.md, Words)',
            },
          ],
        },
      ],
    },
  },
);
