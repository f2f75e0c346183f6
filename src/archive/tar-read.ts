// A strict, push-based tar reader. It decodes USTAR and GNU headers with PAX
// "x" records and GNU long names applied, hands each entry's data to the caller
// as views (valid only during the call), and enforces the tar framing: header
// checksums, exact data lengths, a two-zero-block trailer, and only zero bytes
// after it. It never guesses: anything it cannot represent exactly is an error.
import { ZotboxError } from '../errors.js';
import { BLOCK_SIZE, padToBlock } from './tar-header.js';

/** PAX and GNU long-name payloads are metadata: cap them well above any real name. */
const MAX_META_BYTES = 1024 * 1024;
/** Zero bytes tolerated after the trailer (GNU tar pads to a 10 KiB record). */
const MAX_ZERO_PADDING = 20 * BLOCK_SIZE;

export type TarEntryKind = 'file' | 'directory' | 'ignored';

export interface TarEntry {
  /** Effective name: PAX path, else GNU long name, else USTAR prefix + name. */
  readonly name: string;
  readonly kind: TarEntryKind;
  /** The raw typeflag character, for messages ("2" symlink, "3" char device, ...). */
  readonly typeflag: string;
  readonly mode: number;
  readonly size: number;
  /** Every header block of this entry (PAX/GNU prefixes included), for canonical checks. */
  readonly rawHeader: Buffer;
}

export interface TarReaderHandlers {
  /**
   * Called for each PAX or GNU metadata header with its data size, before the data
   * is read. Metadata counts against limits like entries do: otherwise a small
   * stream of repeated global headers could keep the reader busy for hours.
   */
  onMetadata(size: number): void;
  /** Called once per entry before its data. Throw to reject the archive. */
  onEntry(entry: TarEntry): void;
  /** Data of the current entry, in order. The view is only valid during the call. */
  onData(chunk: Buffer): void;
  onEntryEnd(): void;
}

type State = 'header' | 'data' | 'padding' | 'meta' | 'trailer' | 'after-trailer';

/** Compared against natively: the per-byte callback this replaces was the reader's largest self time in a large load's profile. */
const ZERO_BLOCK = Buffer.alloc(BLOCK_SIZE);

/** True when every byte is zero. */
function isAllZero(bytes: Buffer): boolean {
  for (let offset = 0; offset < bytes.length; offset += BLOCK_SIZE) {
    const part = bytes.subarray(offset, offset + BLOCK_SIZE);
    if (!part.equals(part.length === BLOCK_SIZE ? ZERO_BLOCK : ZERO_BLOCK.subarray(0, part.length))) return false;
  }
  return true;
}

const IGNORED_TYPEFLAGS = new Set(['1', '2', '3', '4', '6', '7', 'S']);
// ignoreBOM keeps a leading U+FEFF: the default would strip it, so "\ufeffx" would be read as "x".
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function corrupt(message: string, details: Record<string, unknown> = {}): ZotboxError {
  return new ZotboxError('ZB_ARCHIVE_CORRUPT', `${message}. The archive is damaged or was not written by a tar tool; re-create it with 'zotbox pack'.`, {
    details,
  });
}

function decodeName(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    // Not valid UTF-8: return a name the entry-name check rejects (it cannot be represented exactly).
    return '\ufffd';
  }
}

function cString(block: Buffer, offset: number, size: number): Buffer {
  const field = block.subarray(offset, offset + size);
  const end = field.indexOf(0);
  return end === -1 ? field : field.subarray(0, end);
}

/** A numeric header field: octal digits padded by spaces/NULs, or GNU base-256. */
function parseNumber(block: Buffer, offset: number, size: number, field: string): number {
  const bytes = block.subarray(offset, offset + size);
  if ((bytes[0]! & 0x80) !== 0) {
    if (bytes[0] !== 0x80) throw corrupt(`a tar header has a negative or oversized ${field}`, { field });
    let value = 0;
    for (let i = 1; i < bytes.length; i++) value = value * 256 + bytes[i]!;
    if (!Number.isSafeInteger(value)) throw corrupt(`a tar header's ${field} is too large`, { field });
    return value;
  }
  const text = bytes
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  if (text === '') return 0;
  if (!/^[0-7]+$/.test(text)) throw corrupt(`a tar header's ${field} is not an octal number`, { field });
  return Number.parseInt(text, 8);
}

function verifyChecksum(block: Buffer): void {
  const stored = parseNumber(block, 148, 8, 'checksum');
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK_SIZE; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : block[i]!;
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  if (stored !== unsigned && stored !== signed) throw corrupt('a tar header checksum does not match');
}

/** Parses "<len> <key>=<value>\n" records strictly; values are UTF-8. */
export function parsePaxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) throw corrupt('a PAX header record has no length');
    const lengthText = data.toString('latin1', offset, space);
    if (!/^[1-9][0-9]{0,7}$/.test(lengthText)) throw corrupt('a PAX header record length is invalid');
    const end = offset + Number(lengthText);
    if (end > data.length || data[end - 1] !== 0x0a) throw corrupt('a PAX header record is cut short');
    const body = data.subarray(space + 1, end - 1);
    const equals = body.indexOf(0x3d);
    if (equals <= 0) throw corrupt('a PAX header record has no key');
    const key = body.toString('latin1', 0, equals);
    if (records.has(key)) throw corrupt(`a PAX header repeats the key "${key}"`);
    records.set(key, decodeName(body.subarray(equals + 1)));
    offset = end;
  }
  return records;
}

export class TarReader {
  private state: State = 'header';
  private readonly block = Buffer.alloc(BLOCK_SIZE);
  private blockFill = 0;
  private remaining = 0;
  /** Data size of the entry being read, for its padding. */
  private currentSize = 0;
  private meta: Buffer[] = [];
  private metaType = '';
  private metaSize = 0;
  private pendingHeaders: Buffer[] = [];
  private paxPath: string | undefined;
  private paxSize: number | undefined;
  private longName: string | undefined;
  private zeroBytesAfterTrailer = 0;

  constructor(private readonly handlers: TarReaderHandlers) {}

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, chunk.length - offset);
        this.handlers.onData(chunk.subarray(offset, offset + take));
        offset += take;
        this.remaining -= take;
        if (this.remaining === 0) this.finishData();
        continue;
      }
      if (this.state === 'padding') {
        const take = Math.min(this.remaining, chunk.length - offset);
        // Every writer zero-fills padding. Other bytes would be hashed into the content digest
        // while changing no entry, so two archives of the same content could digest differently.
        if (!isAllZero(chunk.subarray(offset, offset + take))) throw corrupt("the padding after an entry's data is not zero");
        offset += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'header';
        continue;
      }
      if (this.state === 'meta') {
        const take = Math.min(this.remaining, chunk.length - offset);
        this.meta.push(Buffer.from(chunk.subarray(offset, offset + take)));
        offset += take;
        this.remaining -= take;
        if (this.remaining === 0) this.finishMeta();
        continue;
      }
      if (this.state === 'after-trailer') {
        const rest = chunk.subarray(offset);
        if (!isAllZero(rest)) throw corrupt('there is data after the end of the tar archive');
        this.zeroBytesAfterTrailer += rest.length;
        if (this.zeroBytesAfterTrailer > MAX_ZERO_PADDING) throw corrupt('the tar archive ends with an excessive run of padding');
        return;
      }
      // 'header' or 'trailer': collect a whole block.
      const take = Math.min(BLOCK_SIZE - this.blockFill, chunk.length - offset);
      chunk.copy(this.block, this.blockFill, offset, offset + take);
      this.blockFill += take;
      offset += take;
      if (this.blockFill === BLOCK_SIZE) {
        this.blockFill = 0;
        this.consumeBlock();
      }
    }
  }

  /** True once the trailer (two zero blocks) has been read. */
  get sawTrailer(): boolean {
    return this.state === 'after-trailer';
  }

  /** Bytes of zero padding read after the two-block trailer. */
  get paddingAfterTrailer(): number {
    return this.zeroBytesAfterTrailer;
  }

  /** Call after the last byte: anything short of a complete trailer is truncation. */
  end(): void {
    if (this.state !== 'after-trailer') {
      throw corrupt('the tar archive is truncated (it ends before its two-block trailer)', { state: this.state });
    }
  }

  private consumeBlock(): void {
    const isZero = isAllZero(this.block);
    if (this.state === 'trailer') {
      if (!isZero) throw corrupt('a tar header follows a zero block; only the end of the archive may contain zero blocks');
      this.state = 'after-trailer';
      return;
    }
    if (isZero) {
      if (this.pendingHeaders.length > 0) throw corrupt('a PAX or GNU long-name header is followed by the end of the archive');
      this.state = 'trailer';
      return;
    }
    verifyChecksum(this.block);
    const magic = this.block.toString('latin1', 257, 265);
    const isUstar = magic === 'ustar\u000000';
    const isGnu = magic === 'ustar  \u0000';
    if (!isUstar && !isGnu) throw corrupt('a tar header has an unknown format (neither POSIX ustar nor GNU)');
    const header = Buffer.from(this.block);
    const typeflag = header[156] === 0 ? '0' : String.fromCharCode(header[156]!);
    const size = parseNumber(header, 124, 12, 'size');

    if (typeflag === 'x' || typeflag === 'g' || typeflag === 'L' || typeflag === 'K') {
      if (size > MAX_META_BYTES) throw corrupt(`a tar metadata header is ${size} bytes, over the ${MAX_META_BYTES}-byte cap`);
      this.handlers.onMetadata(size);
      this.pendingHeaders.push(header);
      this.metaType = typeflag;
      this.metaSize = size;
      this.meta = [];
      this.remaining = padToBlock(size);
      this.state = this.remaining === 0 ? 'header' : 'meta';
      if (this.remaining === 0) this.applyMeta(Buffer.alloc(0));
      return;
    }

    if (this.paxPath !== undefined && this.longName !== undefined) {
      throw corrupt('a tar entry has both a PAX path and a GNU long name; which one applies is ambiguous');
    }
    let name: string;
    if (this.paxPath !== undefined) name = this.paxPath;
    else if (this.longName !== undefined) name = this.longName;
    else {
      const base = decodeName(cString(header, 0, 100));
      const prefix = isUstar ? cString(header, 345, 155) : Buffer.alloc(0);
      name = prefix.length > 0 ? `${decodeName(prefix)}/${base}` : base;
    }
    const entrySize = this.paxSize ?? size;
    const rawHeader = Buffer.concat([...this.pendingHeaders, header]);
    this.pendingHeaders = [];
    this.paxPath = undefined;
    this.paxSize = undefined;
    this.longName = undefined;

    let kind: TarEntryKind;
    if (typeflag === '5' || (typeflag === '0' && name.endsWith('/'))) kind = 'directory';
    else if (typeflag === '0') kind = 'file';
    else if (IGNORED_TYPEFLAGS.has(typeflag)) kind = 'ignored';
    else throw corrupt(`a tar entry has the unsupported type "${typeflag}"`, { typeflag });

    if (kind === 'directory' && entrySize > 0) throw corrupt('a directory entry in the tar archive carries data');
    const mode = parseNumber(header, 100, 8, 'mode');
    this.handlers.onEntry({ name, kind, typeflag, mode, size: entrySize, rawHeader });
    this.currentSize = entrySize;
    this.remaining = entrySize;
    if (entrySize === 0) this.finishData();
    else this.state = 'data';
  }

  private finishData(): void {
    this.handlers.onEntryEnd();
    const padding = padToBlock(this.currentSize) - this.currentSize;
    this.remaining = padding;
    this.state = padding > 0 ? 'padding' : 'header';
  }

  private finishMeta(): void {
    const padded = Buffer.concat(this.meta);
    // The metadata's data blocks belong to the entry's raw header, for the canonical comparison.
    this.pendingHeaders.push(padded);
    const data = padded.subarray(0, this.metaSize);
    this.meta = [];
    this.state = 'header';
    this.applyMeta(data);
  }

  private applyMeta(data: Buffer): void {
    switch (this.metaType) {
      case 'x': {
        if (this.paxPath !== undefined || this.paxSize !== undefined) throw corrupt('two PAX headers precede one tar entry');
        const records = parsePaxRecords(data);
        for (const key of records.keys()) {
          if (key.startsWith('GNU.sparse')) throw corrupt('the tar archive uses GNU sparse files, which zotfiles do not support');
        }
        const path = records.get('path');
        if (path !== undefined) this.paxPath = path;
        const sizeText = records.get('size');
        if (sizeText !== undefined) {
          if (!/^(0|[1-9][0-9]{0,15})$/.test(sizeText)) throw corrupt('a PAX size record is not a decimal number');
          this.paxSize = Number(sizeText);
        }
        break;
      }
      case 'g': {
        // Global records (GitHub writes a commit comment) are validated and ignored;
        // a global path would rename every entry, which is never meaningful here.
        const records = parsePaxRecords(data);
        if (records.has('path') || records.has('size')) throw corrupt('a PAX global header sets path or size');
        break;
      }
      case 'L': {
        if (this.longName !== undefined) throw corrupt('two GNU long-name headers precede one tar entry');
        const end = data.indexOf(0);
        this.longName = decodeName(end === -1 ? data : data.subarray(0, end));
        break;
      }
      case 'K':
        // GNU long link name: links are never created, so the target is irrelevant.
        break;
    }
  }
}
