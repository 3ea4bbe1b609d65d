// The function length rule, `functions/max-lines`: a function of src/ or media/src/ has at most
// `max` lines of code (lines holding code; blank lines and lines of comments only are free, so a
// blank between steps or a comment saying why never costs a split). A function longer than that is
// usually two steps and a table: split it along its seams into named helpers. Tables (a command
// table, an exhaustive switch, a schema literal) may be listed by file and name, with the reason,
// in lint/longFunctions.mjs; an entry whose function is gone or back under the limit is reported
// too (and one whose file is gone, by test/unit/lint/functionLength.test.ts), so the list only shrinks. Unlike ESLint's max-lines-per-function, it names a function the way
// the list does and takes that list. Nested functions count in their own and in the enclosing one;
// an IIFE counts only in the enclosing one (as in ESLint's rule).
import path from 'node:path';

/**
 * How the list names a function: `name` for a function declaration or a function assigned to a
 * variable or an object's property, `Class.member` for a class member (`Class.constructor`), or
 * undefined for an anonymous function (a callback), which cannot be listed.
 */
export function functionName(node) {
  const parent = node.parent;
  if (node.id?.name) return node.id.name;
  if (parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') {
    const member = keyName(parent);
    const owner = parent.parent.parent;
    return member && `${owner.id?.name ?? '<class>'}.${member}`;
  }
  if (parent.type === 'Property' && parent.value === node) return keyName(parent);
  if (parent.type === 'AssignmentExpression' && parent.left.type === 'MemberExpression' && !parent.left.computed) return parent.left.property.name;
  return undefined;
}

function keyName(member) {
  const key = member.key;
  if (!member.computed && key.type === 'Identifier') return key.name;
  if (key.type === 'Literal') return String(key.value);
  if (key.type === 'PrivateIdentifier') return `#${key.name}`;
  return undefined;
}

const isIIFE = (node) => node.parent.type === 'CallExpression' && node.parent.callee === node;

/** A method's lines start at its name (as ESLint counts them), other functions' at their head. */
const counted = (node) =>
  node.parent.type === 'MethodDefinition' ||
  (node.parent.type === 'Property' && node.parent.value === node && (node.parent.method || node.parent.kind !== 'init'))
    ? node.parent
    : node;

const maxLinesRule = {
  meta: {
    type: 'suggestion',
    docs: { description: 'A function has at most `max` lines of code; tables may be listed by name with the reason (lint/longFunctions.mjs).' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          max: { type: 'integer', minimum: 1 },
          skipBlankLines: { type: 'boolean' },
          skipComments: { type: 'boolean' },
          allow: {
            type: 'array',
            items: {
              type: 'object',
              properties: { file: { type: 'string' }, name: { type: 'string' }, reason: { type: 'string', minLength: 1 } },
              required: ['file', 'name', 'reason'],
              additionalProperties: false,
            },
          },
        },
        required: ['root', 'max'],
        additionalProperties: false,
      },
    ],
    messages: {
      tooLong:
        '{{name}} has {{lines}} lines{{what}}; a function has at most {{max}}. Split it along its seams into named helpers (a command table becomes one-line entries calling named functions); only a table (command table, exhaustive switch, schema literal) may instead be listed by name, with the reason, in lint/longFunctions.mjs.',
      anonymous:
        'This anonymous function has {{lines}} lines{{what}}; a function has at most {{max}}. Split it along its seams into named helpers (an anonymous function cannot be listed in lint/longFunctions.mjs).',
      stale: 'lint/longFunctions.mjs lists {{name}} in this file, but no function of that name here is over {{max}} lines: remove the entry ({{reason}}).',
    },
  },
  create(context) {
    const { root, max, skipBlankLines = true, skipComments = true, allow = [] } = context.options[0];
    const file = path.relative(root, context.filename).replace(/\\/g, '/');
    const listed = new Map(allow.filter((a) => a.file === file).map((a) => [a.name, a]));
    const used = new Set();
    const source = context.sourceCode;
    const what = skipBlankLines && skipComments ? ' of code' : skipComments ? ' (comments not counted)' : skipBlankLines ? ' (blank lines not counted)' : '';
    let codeLines;
    const lineCount = (node) => {
      codeLines ??= linesWithCode(source);
      let n = 0;
      for (let line = node.loc.start.line; line <= node.loc.end.line; line++) {
        if (codeLines.has(line)) n++;
        else if (/^\s*$/.test(source.lines[line - 1])) n += skipBlankLines ? 0 : 1;
        else n += skipComments ? 0 : 1;
      }
      return n;
    };
    const check = (node) => {
      if (isIIFE(node)) return;
      const lines = lineCount(counted(node));
      if (lines <= max) return;
      const name = functionName(node);
      if (name && listed.has(name)) {
        used.add(name);
        return;
      }
      const data = { name: name ?? '', lines: String(lines), max: String(max), what };
      context.report({ node: counted(node), messageId: name ? 'tooLong' : 'anonymous', data });
    };
    return {
      FunctionDeclaration: check,
      FunctionExpression: check,
      ArrowFunctionExpression: check,
      'Program:exit': (program) => {
        for (const [name, entry] of listed) {
          if (!used.has(name))
            context.report({ node: program, loc: { line: 1, column: 0 }, messageId: 'stale', data: { name, max: String(max), reason: entry.reason } });
        }
      },
    };
  },
};

/** The line numbers holding a token that is not a comment (a multi-line string's every line). */
function linesWithCode(source) {
  const lines = new Set();
  for (const token of source.ast.tokens) {
    for (let line = token.loc.start.line; line <= token.loc.end.line; line++) lines.add(line);
  }
  return lines;
}

/** The ESLint plugin: `functions/max-lines`. */
export const functionsPlugin = { rules: { 'max-lines': maxLinesRule } };
