// Archive and compression formats the installer recognises by their first bytes but does not
// unpack: an archive in one of them is refused with its format named, never kept as a raw binary
// that then fails to start. No `vscode`.

/** The archive is in a format that is not unpacked. */
export class UnsupportedArchiveError extends Error {
  constructor(
    readonly format: string,
    message = `The archive is in the ${format} format, which is not unpacked (zip, tar, tar.gz and tar.bz2 are); it is refused.`,
  ) {
    super(message);
  }
}

/** Each format's name (as the sentence says it) and its first bytes. */
const FORMATS: readonly (readonly [format: string, magic: readonly number[]])[] = [
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['Zstandard', [0x28, 0xb5, 0x2f, 0xfd]],
  ['7-Zip', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['RAR', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
  ['lzip', [0x4c, 0x5a, 0x49, 0x50]],
  ['LZ4', [0x04, 0x22, 0x4d, 0x18]],
  ['compress (.Z)', [0x1f, 0x9d]],
];

/** The format of a file beginning with `head` when it is one that is not unpacked, else undefined. */
export function notUnpacked(head: Uint8Array): string | undefined {
  return FORMATS.find(([, magic]) => magic.every((x, i) => head[i] === x))?.[0];
}
