// What an ELF file asks the kernel and the dynamic loader to load: its interpreter
// (PT_INTERP, the loader itself), the libraries it needs (DT_NEEDED) and where it
// asks for them first (DT_RUNPATH, DT_RPATH). Read from the program headers and the
// dynamic section only, by positioned reads, for the gate's unconfined checks.
import { closeSync, openSync, readSync } from 'node:fs';

export interface ElfLoads {
  readonly interpreter?: string;
  readonly needed: readonly string[];
  /** DT_RUNPATH and DT_RPATH entries as written ($ORIGIN not expanded; an empty entry is the working directory). */
  readonly searchPaths: readonly string[];
}

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PT_INTERP = 3;
const DT_NEEDED = 1;
const DT_STRTAB = 5;
const DT_RPATH = 15;
const DT_RUNPATH = 29;
/** Bounds on what is read: no real program comes near them; past them the file is not understood. */
const MAX_HEADERS = 512;
const MAX_DYNAMIC = 8192;
const MAX_STRING = 4096;

class Reader {
  constructor(
    private readonly fd: number,
    private readonly wide: boolean,
    private readonly little: boolean,
  ) {}

  bytes(position: number, length: number): Buffer {
    const buffer = Buffer.alloc(length);
    const read = readSync(this.fd, buffer, 0, length, position);
    if (read !== length) throw new Error(`the file ends at ${position + read}, inside a header it declares`);
    return buffer;
  }

  /** An address-sized or 4-byte unsigned field of `buffer` at `offset`. */
  field(buffer: Buffer, offset: number, size: 2 | 4 | 8): number {
    if (size === 2) return this.little ? buffer.readUInt16LE(offset) : buffer.readUInt16BE(offset);
    if (size === 4) return this.little ? buffer.readUInt32LE(offset) : buffer.readUInt32BE(offset);
    const value = this.little ? buffer.readBigUInt64LE(offset) : buffer.readBigUInt64BE(offset);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('a 64-bit field is past what a file can hold');
    return Number(value);
  }

  get word(): 4 | 8 {
    return this.wide ? 8 : 4;
  }

  string(position: number): string {
    const buffer = Buffer.alloc(MAX_STRING);
    const read = readSync(this.fd, buffer, 0, MAX_STRING, position);
    const end = buffer.subarray(0, read).indexOf(0);
    if (end < 0) throw new Error(`a string at ${position} is not terminated within ${MAX_STRING} bytes`);
    return buffer.subarray(0, end).toString('latin1');
  }
}

interface Segment {
  readonly type: number;
  readonly offset: number;
  readonly address: number;
  readonly size: number;
}

function segmentsOf(reader: Reader, header: Buffer): Segment[] {
  const w = reader.word;
  const tableAt = reader.field(header, w === 8 ? 0x20 : 0x1c, w);
  const entrySize = reader.field(header, w === 8 ? 0x36 : 0x2a, 2);
  const count = reader.field(header, w === 8 ? 0x38 : 0x2c, 2);
  if (count > MAX_HEADERS || entrySize < (w === 8 ? 56 : 32)) throw new Error(`${count} program headers of ${entrySize} bytes`);
  const segments: Segment[] = [];
  for (let index = 0; index < count; index += 1) {
    const entry = reader.bytes(tableAt + index * entrySize, entrySize);
    const type = reader.field(entry, 0, 4);
    segments.push(
      w === 8
        ? { type, offset: reader.field(entry, 8, 8), address: reader.field(entry, 16, 8), size: reader.field(entry, 32, 8) }
        : { type, offset: reader.field(entry, 4, 4), address: reader.field(entry, 8, 4), size: reader.field(entry, 16, 4) },
    );
  }
  return segments;
}

/** The file offset of a virtual address, through the loadable segment holding it. */
function offsetOf(segments: readonly Segment[], address: number): number {
  const load = segments.find((segment) => segment.type === PT_LOAD && address >= segment.address && address < segment.address + segment.size);
  if (load === undefined) throw new Error(`the string table's address ${address} is in no loadable segment`);
  return address - load.address + load.offset;
}

function dynamicOf(reader: Reader, segments: readonly Segment[]): Pick<ElfLoads, 'needed' | 'searchPaths'> {
  const dynamic = segments.find((segment) => segment.type === PT_DYNAMIC);
  if (dynamic === undefined) return { needed: [], searchPaths: [] };
  const entrySize = reader.word * 2;
  const count = Math.floor(dynamic.size / entrySize);
  // Past the bound the entries are not read, so the file is not understood (never "nothing more there").
  if (count > MAX_DYNAMIC) throw new Error(`a dynamic section of ${count} entries`);
  const table = reader.bytes(dynamic.offset, count * entrySize);
  const entries: { tag: number; value: number }[] = [];
  for (let index = 0; index < count; index += 1) {
    const tag = reader.field(table, index * entrySize, reader.word);
    if (tag === 0) break;
    entries.push({ tag, value: reader.field(table, index * entrySize + reader.word, reader.word) });
  }
  const strings = entries.find((entry) => entry.tag === DT_STRTAB);
  const named = entries.filter((entry) => entry.tag === DT_NEEDED || entry.tag === DT_RPATH || entry.tag === DT_RUNPATH);
  if (named.length === 0) return { needed: [], searchPaths: [] };
  if (strings === undefined) throw new Error('the dynamic section names libraries but has no string table');
  const base = offsetOf(segments, strings.value);
  const text = (entry: { value: number }) => reader.string(base + entry.value);
  return {
    needed: named.filter((entry) => entry.tag === DT_NEEDED).map(text),
    searchPaths: named.filter((entry) => entry.tag !== DT_NEEDED).flatMap((entry) => text(entry).split(':')),
  };
}

/** What `file` loads, or undefined when it is not an ELF file. Throws when it is one that cannot be read whole. */
export function readElfLoads(file: string): ElfLoads | undefined {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(64);
    const length = readSync(fd, header, 0, 64, 0);
    if (length < 52 || header.toString('latin1', 0, 4) !== '\x7fELF') return undefined;
    const wideByte = header[4];
    const orderByte = header[5];
    if ((wideByte !== 1 && wideByte !== 2) || (orderByte !== 1 && orderByte !== 2)) throw new Error(`unknown ELF class ${String(wideByte)} or byte order ${String(orderByte)}`);
    const reader = new Reader(fd, wideByte === 2, orderByte === 1);
    const segments = segmentsOf(reader, header);
    const interp = segments.find((segment) => segment.type === PT_INTERP);
    return { ...(interp === undefined ? {} : { interpreter: reader.string(interp.offset) }), ...dynamicOf(reader, segments) };
  } finally {
    closeSync(fd);
  }
}
