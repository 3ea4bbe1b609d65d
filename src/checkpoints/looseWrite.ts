// The two writes of a checkpoint that need no git process: its commit object (a few hundred bytes)
// and its ref, written into the shadow repository the way git writes them (a loose object: zlib of
// "commit <size>\0<body>", named by its SHA-1, through a temporary file renamed into place; a loose
// ref: "<id>\n" through "<ref>.lock", created exclusively, renamed into place). The shadow is ours
// alone; only SHA-1 repositories are written this way (the caller asks git for anything else).
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { deflate as deflateCb } from 'node:zlib';
import { CheckpointError } from './errors';

const deflate = promisify(deflateCb);

/** Whose checkpoints they are: the same author and committer every git run of ours gets. */
export const IDENTITY = { name: 'ACP Plans', email: 'checkpoints@acp-plans.invalid' } as const;

/** A SHA-1 object id (the only kind written here). */
export function isSha1(id: string): boolean {
  return /^[0-9a-f]{40}$/.test(id);
}

/** git's "<seconds> <+hhmm>" for a time, in the local time zone (as commit-tree writes it). */
export function gitDate(ms: number): string {
  const offset = -new Date(ms).getTimezoneOffset();
  const abs = Math.abs(offset);
  const zone = `${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${Math.floor(ms / 1000)} ${zone}`;
}

/** The bytes of a commit object with no parent, as `git commit-tree <tree> -m <message>` writes it. */
export function commitBody(tree: string, message: string, ms: number): Buffer {
  const who = `${IDENTITY.name} <${IDENTITY.email}> ${gitDate(ms)}`;
  return Buffer.from(`tree ${tree}\nauthor ${who}\ncommitter ${who}\n\n${message}\n`, 'utf8');
}

/** Writes a commit object (no parent) into `gitDir`'s objects; resolves to its id. */
export async function writeCommit(gitDir: string, tree: string, message: string, ms: number): Promise<string> {
  if (!isSha1(tree)) throw new CheckpointError({ code: 'not-a-tree-id', data: { id: tree.slice(0, 80) } });
  const body = commitBody(tree, message, ms);
  const object = Buffer.concat([Buffer.from(`commit ${body.length}\0`, 'utf8'), body]);
  const id = createHash('sha1').update(object).digest('hex');
  const dir = path.join(gitDir, 'objects', id.slice(0, 2));
  const file = path.join(dir, id.slice(2));
  if (await present(file)) return id;
  const data = await deflate(object);
  await fsp.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
  try {
    await fsp.writeFile(tmp, data, { flag: 'wx', mode: 0o444 });
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw new CheckpointError({ code: 'write-failed', data: { what: 'commit', detail: reason(e) } });
  }
  return id;
}

/** Creates the loose ref `ref` (refs/…) pointing to `id`; refuses when it exists already. */
export async function createRef(gitDir: string, ref: string, id: string): Promise<void> {
  const file = path.join(gitDir, ...ref.split('/'));
  const lock = `${file}.lock`;
  await fsp.mkdir(path.dirname(file), { recursive: true });
  let locked = false;
  try {
    await fsp.writeFile(lock, `${id}\n`, { flag: 'wx' });
    locked = true;
    if (await present(file)) throw new Error(`${ref} exists already`);
    await fsp.rename(lock, file);
    locked = false;
  } catch (e) {
    if (locked) await fsp.rm(lock, { force: true });
    throw new CheckpointError({ code: 'write-failed', data: { what: 'ref', detail: reason(e) } });
  }
}

async function present(file: string): Promise<boolean> {
  try {
    await fsp.lstat(file);
    return true;
  } catch {
    return false;
  }
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
