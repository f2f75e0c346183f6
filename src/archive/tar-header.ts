// Tar header bytes: the canonical encoder (byte-identical to zot's Go
// archive/tar output, spec B §3.3–3.4) and a strict decoder for reading.
// The encoder only writes what canonical packing needs: regular files and
// directories, uid/gid/mtime 0, empty owner names. The decoder never guesses:
// a bad checksum, a non-octal number or an unknown magic is an error.

export const BLOCK_SIZE = 512;
const NAME_SIZE = 100;
const PREFIX_SIZE = 155;

export type CanonicalType = 'file' | 'directory';

/** Rounds a byte count up to whole 512-byte blocks. */
export function padToBlock(size: number): number {
  return Math.ceil(size / BLOCK_SIZE) * BLOCK_SIZE;
}

function isAscii(text: string): boolean {
  return /^[\u0000-\u007f]*$/.test(text);
}

/** Go's toASCII: drops every non-ASCII character and NUL. */
function toAscii(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80 && code !== 0) out += ch;
  }
  return out;
}

/** Go's splitUSTARPath (spec B §3.4 split rule); undefined when no split fits. */
export function splitUstarPath(name: string): { prefix: string; suffix: string } | undefined {
  let length = name.length;
  if (length <= NAME_SIZE || !isAscii(name)) return undefined;
  if (length > PREFIX_SIZE + 1) length = PREFIX_SIZE + 1;
  else if (name[length - 1] === '/') length--;
  const index = name.slice(0, length).lastIndexOf('/');
  const suffixLength = name.length - index - 1;
  if (index <= 0 || suffixLength > NAME_SIZE || suffixLength === 0 || index > PREFIX_SIZE) return undefined;
  return { prefix: name.slice(0, index), suffix: name.slice(index + 1) };
}

/** Go's formatter.formatString, including its trailing-slash NUL replacement on truncation. */
function writeString(block: Buffer, offset: number, size: number, text: string): void {
  const bytes = Buffer.from(text, 'latin1'); // callers pass ASCII only
  bytes.copy(block, offset, 0, Math.min(size, bytes.length));
  if (bytes.length > size && block[offset + size - 1] === 0x2f) {
    let n = size;
    while (n > 0 && bytes[n - 1] === 0x2f) n--;
    block[offset + n] = 0;
  }
}

/** Go's formatOctal: zero-padded octal digits followed by NUL, filling the field. */
function writeOctal(block: Buffer, offset: number, size: number, value: number): void {
  const digits = value.toString(8).padStart(size - 1, '0');
  block.write(digits, offset, size - 1, 'latin1');
}

function finishBlock(block: Buffer): Buffer {
  block.write('ustar\u000000', 257, 8, 'latin1');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (let i = 0; i < BLOCK_SIZE; i++) sum += block[i]!;
  // Six octal digits, NUL, space (spec B §3.4).
  writeOctal(block, 148, 7, sum);
  block[154] = 0;
  block[155] = 0x20;
  return block;
}

function mainHeader(name: string, typeflag: number, mode: number, size: number, prefix: string): Buffer {
  const block = Buffer.alloc(BLOCK_SIZE);
  writeString(block, 0, NAME_SIZE, name);
  writeOctal(block, 100, 8, mode);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, 0);
  block[156] = typeflag;
  writeOctal(block, 329, 8, 0);
  writeOctal(block, 337, 8, 0);
  if (prefix !== '') writeString(block, 345, PREFIX_SIZE, prefix);
  return finishBlock(block);
}

/** One PAX record, "<len> <key>=<value>\n", where len counts the whole record. */
export function formatPaxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyBytes = Buffer.byteLength(body, 'utf8');
  let size = bodyBytes + String(bodyBytes).length;
  if (String(size).length + bodyBytes !== size) size = String(size).length + bodyBytes;
  return `${size}${body}`;
}

/**
 * The header block(s) zot writes for one entry. `path` is the relative path with
 * "/" separators and, for a directory, a trailing "/". Returns 512 bytes (USTAR)
 * or a PAX "x" header with its padded records followed by the main header.
 */
export function encodeCanonicalHeader(path: string, type: CanonicalType, mode: number, size: number): Buffer {
  const typeflag = type === 'directory' ? 0x35 : 0x30;
  const dataSize = type === 'directory' ? 0 : size;
  if (isAscii(path) && !path.includes('\u0000')) {
    if (path.length <= NAME_SIZE) return mainHeader(path, typeflag, mode, dataSize, '');
    const split = splitUstarPath(path);
    if (split !== undefined) return mainHeader(split.suffix, typeflag, mode, dataSize, split.prefix);
  }
  const records = Buffer.from(formatPaxRecord('path', path), 'utf8');
  // Go: path.Join(path.Split(realName)...): a directory "x/y/" splits into "x/y/" and "".
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const base = path.slice(slash + 1);
  const paxName = toAscii(base === '' ? `${dir}PaxHeaders.0` : `${dir}PaxHeaders.0/${base}`)
    .slice(0, NAME_SIZE)
    .replace(/\/+$/, '');
  const paxBlock = Buffer.alloc(BLOCK_SIZE);
  writeString(paxBlock, 0, NAME_SIZE, paxName);
  writeOctal(paxBlock, 100, 8, 0);
  writeOctal(paxBlock, 108, 8, 0);
  writeOctal(paxBlock, 116, 8, 0);
  writeOctal(paxBlock, 124, 12, records.length);
  writeOctal(paxBlock, 136, 12, 0);
  paxBlock[156] = 0x78; // 'x'
  finishBlock(paxBlock);
  const paddedRecords = Buffer.alloc(padToBlock(records.length));
  records.copy(paddedRecords);
  return Buffer.concat([paxBlock, paddedRecords, mainHeader(toAscii(path), typeflag, mode, dataSize, '')]);
}

/** The two zero blocks that end a canonical tar. */
export const TRAILER = Buffer.alloc(2 * BLOCK_SIZE);
