// Archives built by the tests: tar (tar-stream's packer, which writes any name it is given, `..` and
// absolute ones included), gzip, and a minimal stored (uncompressed) zip writer whose entries can
// carry any name and Unix mode (symlinks included) — the hostile shapes an extractor must refuse —
// and, for bombs, deflated entries that may lie about their size, and a tar.gz of zeros built streamed.
import * as zlib from 'zlib';
import * as tarStream from 'tar-stream';

export interface TarItem {
  name: string;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'fifo';
  body?: string | Buffer;
  mode?: number;
  linkname?: string;
}

export async function tar(items: TarItem[]): Promise<Buffer> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (c: unknown) => {
      chunks.push(c as Buffer);
    });
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const it of items) {
    const type = it.type ?? 'file';
    const body = type === 'file' ? Buffer.from(it.body ?? '') : undefined;
    await new Promise<void>((resolve, reject) => {
      const header = {
        name: it.name,
        type,
        mode: it.mode ?? (type === 'directory' ? 0o755 : 0o644),
        ...(it.linkname !== undefined ? { linkname: it.linkname } : {}),
        ...(body ? { size: body.length } : {}),
      };
      const cb = (err?: Error | null): void => (err ? reject(err) : resolve());
      if (body) pack.entry(header, body, cb);
      else pack.entry(header, cb);
    });
  }
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

export const tarGz = async (items: TarItem[]): Promise<Buffer> => zlib.gzipSync(await tar(items));

export interface ZipItem {
  name: string;
  body?: string | Buffer;
  mode?: number;
  symlink?: string;
  /** Deflate the body (else stored). */
  deflate?: boolean;
  /** The uncompressed size the zip announces (else the body's). */
  claimSize?: number;
}

/** A stored zip; `mode` (with file type bits) goes in the external attributes, made by "Unix". */
export function zip(items: ZipItem[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const it of items) {
    const name = Buffer.from(it.name, 'utf8');
    const data = Buffer.from(it.symlink ?? it.body ?? '');
    const mode = it.symlink !== undefined ? 0o120777 : (it.mode ?? (it.name.endsWith('/') ? 0o040755 : 0o100644));
    const crc = zlib.crc32(data);
    const stored = it.deflate ? zlib.deflateRawSync(data) : data;
    const method = it.deflate ? 8 : 0;
    const size = it.claimSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(items.length, 8);
  end.writeUInt16LE(items.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A tar.gz holding one file of `size` zeros, built streamed (no `size`-byte buffer): a gzip bomb. */
export async function tarGzZeros(name: string, size: number): Promise<Buffer> {
  const pack = tarStream.pack();
  const gz = pack.pipe(zlib.createGzip({ level: 6 }));
  const out = (async (): Promise<Buffer> => {
    const parts: Buffer[] = [];
    for await (const c of gz) parts.push(c as Buffer);
    return Buffer.concat(parts);
  })();
  const entry = pack.entry({ name, size, mode: 0o755 });
  const zeros = Buffer.alloc(1024 * 1024);
  let left = size;
  for (; left > zeros.length; left -= zeros.length) {
    if (!entry.write(zeros)) await new Promise<void>((resolve) => entry.once('drain', () => resolve()));
  }
  entry.end(zeros.subarray(0, left));
  pack.finalize();
  return out;
}
