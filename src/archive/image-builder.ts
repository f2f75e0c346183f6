// Builds an AgentImage from tar entries as they stream in. It applies every
// Part A extraction rule on the effective name, counts limits on bytes as they
// arrive (a header's size is only ever used to reject early, never trusted to
// be small), ignores links and special entries, and tracks whether the stream
// is already the canonical tar so the content digest needs no second pass.
import { createHash } from 'node:crypto';
import { ZotboxError } from '../errors.js';
import { AgentImage, type ImageFormat } from './agent-image.js';
import { formatDigest, type Digest } from './digest.js';
import { checkEntryName, compareUtf8, findGitMetadataComponent } from './entry-name.js';
import { DEFAULT_LIMITS, type ArchiveLimits } from './limits.js';
import type { TarEntry, TarReaderHandlers } from './tar-read.js';
import { encodeCanonicalHeader } from './tar-header.js';

interface CurrentEntry {
  readonly name: string | undefined; // undefined: data is counted (unless `skipped`) and dropped
  /** Outside the selected directory: its data is neither kept nor counted. */
  readonly skipped?: boolean;
  /** Preallocated target, when incoming chunks are views of reused buffers and must be copied. */
  readonly buffer: Buffer | undefined;
  /** Views of owned chunks, joined at the end of the entry (usually just one). */
  readonly parts: Buffer[] | undefined;
  filled: number;
}

/** Sees each file (with its bytes) or directory once its own checks passed; see LoadOptions.onEntryStreamed. */
export type EntryStreamedHandler = (entry: { readonly name: string; readonly type: 'file' | 'directory'; readonly mode: 0o644 | 0o755 }, bytes: Buffer | undefined) => void;

/**
 * Keep only one directory of an archive whose entries all sit under a single
 * top-level directory (a repository archive): entries below
 * "<top>/<subdirectory>/" are kept with that prefix removed; the others are
 * skipped without counting against the limits. Links inside the kept directory
 * are an error: they would be silently dropped otherwise.
 */
export interface ArchiveSelection {
  readonly subdirectory: string;
}

export interface ImageBuilderOptions {
  /** The tar bytes arrive in chunks the builder may keep (transferred from a worker): no copy is made. */
  readonly ownedChunks?: boolean;
  readonly onEntryStreamed?: EntryStreamedHandler;
  readonly select?: ArchiveSelection;
}

const EMPTY = Buffer.alloc(0);

export class ImageBuilder implements TarReaderHandlers {
  private readonly files = new Map<string, Buffer>();
  private readonly directories = new Map<string, true>();
  private readonly modes = new Map<string, 0o644 | 0o755>();
  /** Names of links and special entries, which are never created but may not be reused. */
  private readonly ignored = new Set<string>();
  private readonly streamHash = createHash('sha256');
  private current: CurrentEntry | undefined;
  private entryCount = 0;
  private expandedBytes = 0;
  /** Over the whole stream, entries outside a selection included: bounded by the archive-wide limits. */
  private archiveEntries = 0;
  private decompressedBytes = 0;
  private canonical = true;
  private previousName: string | undefined;
  /** With a selection: the archive's one top-level directory, and whether anything was selected. */
  private top: string | undefined;
  private selectedAny = false;

  constructor(
    private readonly limits: ArchiveLimits,
    private readonly options: ImageBuilderOptions = {},
  ) {}

  /** Every decompressed byte goes through here before the tar reader sees it: counted, whatever it turns out to be. */
  observeTarBytes(chunk: Buffer): void {
    this.decompressedBytes += chunk.length;
    const max = this.limits.maxDecompressedBytes ?? DEFAULT_LIMITS.maxDecompressedBytes!;
    if (this.decompressedBytes > max) {
      throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `the ${this.what()} decompresses to more than ${max} bytes, the limit for one archive.${this.advice()}`, {
        details: { limit: 'decompressed', max },
      });
    }
    if (this.canonical) this.streamHash.update(chunk);
  }

  onMetadata(size: number): void {
    this.countArchiveEntry();
    this.countEntry();
    this.countExpanded(size);
  }

  onEntry(entry: TarEntry): void {
    this.countArchiveEntry();
    if (this.options.select !== undefined) {
      const selected = this.selectEntry(entry);
      if (selected === undefined) {
        this.canonical = false;
        this.current = { name: undefined, buffer: undefined, parts: undefined, filled: 0, skipped: true };
        return;
      }
      entry = selected;
    }
    this.countEntry();
    if (entry.size > this.limits.maxEntryBytes) {
      throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `archive entry "${entry.name}" declares ${entry.size} bytes, over the ${this.limits.maxEntryBytes}-byte limit for one entry.`, {
        details: { limit: 'entry', max: this.limits.maxEntryBytes, entry: entry.name },
      });
    }
    const check = checkEntryName(entry.name);
    if (!check.ok) throw this.unsafe(entry.name, check.reason);
    // Every entry, links and directories included: a zotfile never carries git metadata (issue 9).
    const gitComponent = check.skip ? undefined : findGitMetadataComponent(check.name);
    if (gitComponent !== undefined) throw this.gitMetadata(entry.name, gitComponent);
    if (entry.kind === 'ignored') {
      // Links, devices and FIFOs are never created (Part A); their data is counted and dropped.
      // Their names still count: another entry with the same name, or below it, is the
      // link-then-write pattern, which other extractors would follow.
      if (check.skip) throw this.unsafe(entry.name, 'a link or special entry cannot be named "."');
      this.claimName(check.name);
      this.ignored.add(check.name);
      this.canonical = false;
      this.current = { name: undefined, buffer: undefined, parts: undefined, filled: 0 };
      return;
    }
    if (check.skip) {
      if (entry.kind !== 'directory') throw this.unsafe(entry.name, 'a file cannot be named "."');
      this.canonical = false;
      this.current = { name: undefined, buffer: undefined, parts: undefined, filled: 0 };
      return;
    }
    const name = check.name;
    const isDirectory = entry.kind === 'directory';
    if (check.isDirectory && !isDirectory) throw this.unsafe(entry.name, 'a file\'s name ends in "/"');
    this.claimName(name);
    if (this.canonical) this.checkCanonical(entry, name, isDirectory);
    if (isDirectory) {
      this.directories.set(name, true);
      this.options.onEntryStreamed?.({ name, type: 'directory', mode: 0o755 }, undefined);
      this.current = { name: undefined, buffer: undefined, parts: undefined, filled: 0 };
      return;
    }
    this.modes.set(name, (entry.mode & 0o100) !== 0 ? 0o755 : 0o644);
    if (this.options.ownedChunks === true) {
      this.files.set(name, EMPTY);
      this.current = { name, buffer: undefined, parts: [], filled: 0 };
      return;
    }
    // Allocation is bounded by the per-entry limit checked above. Unsafe (not zero-filled) is
    // sound: the reader delivers exactly entry.size bytes or the whole load fails.
    const buffer = Buffer.allocUnsafe(entry.size);
    this.files.set(name, buffer);
    this.current = { name, buffer, parts: undefined, filled: 0 };
  }

  private claimName(name: string): void {
    if (this.files.has(name) || this.directories.has(name) || this.ignored.has(name)) {
      throw new ZotboxError('ZB_ARCHIVE_ENTRY_DUPLICATE', `the archive contains "${name}" twice. Re-create it with 'zotbox pack'.`, {
        details: { entry: name },
      });
    }
  }

  private unsafe(raw: string, reason: string): ZotboxError {
    return new ZotboxError('ZB_ARCHIVE_ENTRY_UNSAFE', `unsafe archive entry ${JSON.stringify(raw)}: ${reason}. The archive is rejected; nothing was extracted.`, {
      details: { entry: raw },
    });
  }

  private gitMetadata(raw: string, component: string): ZotboxError {
    return new ZotboxError(
      'ZB_ARCHIVE_ENTRY_UNSAFE',
      `unsafe archive entry ${JSON.stringify(raw)}: ${JSON.stringify(component)} is git metadata (".git" or a name git treats as one), which a zotfile never carries: git run where the agent is unpacked would obey the hooks, fsmonitor and filters it names. The archive is rejected; nothing was extracted. Fix: remove it from the agent's source and pack again ('zotbox pack' refuses git metadata).`,
      { details: { entry: raw, component } },
    );
  }

  private what(): string {
    return this.options.select === undefined ? 'archive' : 'repository archive';
  }

  private advice(): string {
    return this.options.select === undefined ? '' : " Every entry of the repository is read, also outside the agent's folder: put the agent in a smaller repository, or load a packed .zot.";
  }

  /** Every entry of the stream, kept or skipped, pax and long-name headers included. */
  private countArchiveEntry(): void {
    this.archiveEntries++;
    const max = this.limits.maxArchiveEntries ?? DEFAULT_LIMITS.maxArchiveEntries!;
    if (this.archiveEntries > max) {
      throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `the ${this.what()} has more than ${max} entries, the limit for one archive.${this.advice()}`, {
        details: { limit: 'archive-entries', max },
      });
    }
  }

  private countEntry(): void {
    this.entryCount++;
    if (this.entryCount > this.limits.maxEntries) {
      throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `the archive has more than ${this.limits.maxEntries} entries, the zotfile limit.`, {
        details: { limit: 'entries', max: this.limits.maxEntries },
      });
    }
  }

  private countExpanded(bytes: number): void {
    this.expandedBytes += bytes;
    if (this.expandedBytes > this.limits.maxExpandedBytes) {
      throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `the archive expands to more than ${this.limits.maxExpandedBytes} bytes, the zotfile limit.`, {
        details: { limit: 'expanded', max: this.limits.maxExpandedBytes },
      });
    }
  }

  onData(chunk: Buffer): void {
    const current = this.current!;
    if (current.skipped === true) return;
    this.countExpanded(chunk.length);
    if (current.buffer !== undefined) chunk.copy(current.buffer, current.filled);
    else current.parts?.push(chunk);
    current.filled += chunk.length;
  }

  onEntryEnd(): void {
    const current = this.current!;
    this.current = undefined;
    if (current.name === undefined) return;
    if (current.parts !== undefined) this.files.set(current.name, current.parts.length === 1 ? current.parts[0]! : Buffer.concat(current.parts));
    this.options.onEntryStreamed?.({ name: current.name, type: 'file', mode: this.modes.get(current.name)! }, this.files.get(current.name));
  }

  /**
   * The finished image. `paddingAfterTrailer` is how many zero bytes followed the
   * two trailer blocks: the canonical tar has none.
   */
  build(format: ImageFormat, artifact: { digest: Digest; size: number }, paddingAfterTrailer: number): AgentImage {
    if (this.options.select !== undefined && !this.selectedAny) {
      const where = this.options.select.subdirectory === '' ? 'anything under its top-level directory' : `the directory ${JSON.stringify(this.options.select.subdirectory)}`;
      throw new ZotboxError('ZB_ARCHIVE_LAYOUT', `the archive does not contain ${where}.`, { details: { subdirectory: this.options.select.subdirectory } });
    }
    this.addImpliedDirectories();
    const contentDigest = this.canonical && paddingAfterTrailer === 0 ? formatDigest(this.streamHash) : undefined;
    return new AgentImage({
      format,
      artifactDigest: artifact.digest,
      artifactSize: artifact.size,
      contentDigest,
      files: this.files,
      directories: this.directories,
      modes: this.modes,
    });
  }

  /** Rebases an entry into the selected directory, or returns undefined to skip it. */
  private selectEntry(entry: TarEntry): TarEntry | undefined {
    const check = checkEntryName(entry.name);
    if (!check.ok) throw this.unsafe(entry.name, check.reason);
    if (check.skip) return undefined;
    const slash = check.name.indexOf('/');
    const top = slash === -1 ? check.name : check.name.slice(0, slash);
    if (this.top === undefined) this.top = top;
    else if (this.top !== top) {
      throw new ZotboxError('ZB_ARCHIVE_LAYOUT', `the archive has more than one top-level directory (${this.top}, ${top}); a repository archive has exactly one.`, {
        details: { entries: [this.top, top] },
      });
    }
    const rest = slash === -1 ? '' : check.name.slice(slash + 1);
    const subdirectory = this.options.select!.subdirectory;
    const inside = subdirectory === '' ? rest : rest.startsWith(`${subdirectory}/`) ? rest.slice(subdirectory.length + 1) : '';
    if (inside === '') return undefined; // the top directory, the selected directory itself, or outside it
    if (entry.kind === 'ignored') {
      throw new ZotboxError('ZB_ARCHIVE_LAYOUT', `the selected directory contains a link or special file (${inside}); zotfiles may contain only regular files and directories.`, {
        details: { entry: inside },
      });
    }
    this.selectedAny = true;
    return { ...entry, name: check.isDirectory ? `${inside}/` : inside };
  }

  /** The canonical tar lists every directory, parents before children, in UTF-8 order, with exact headers. */
  private checkCanonical(entry: TarEntry, name: string, isDirectory: boolean): void {
    const slash = name.lastIndexOf('/');
    const parentListed = slash === -1 || this.directories.has(name.slice(0, slash));
    const ordered = this.previousName === undefined || compareUtf8(this.previousName, name) < 0;
    this.previousName = name;
    const mode = isDirectory ? 0o755 : (entry.mode & 0o100) !== 0 ? 0o755 : 0o644;
    const expected = encodeCanonicalHeader(isDirectory ? `${name}/` : name, isDirectory ? 'directory' : 'file', mode, entry.size);
    if (!parentListed || !ordered || !expected.equals(entry.rawHeader)) this.canonical = false;
  }

  /** Archives may omit directory entries (GitHub's do); the image lists every parent. Files and directories must not collide. */
  private addImpliedDirectories(): void {
    // Implied directories count as entries: deep paths must not multiply into millions of them.
    const implied = new Set<string>();
    const budget = this.limits.maxEntries - this.files.size - this.directories.size;
    for (const name of [...this.files.keys(), ...this.directories.keys()]) {
      let slash = name.lastIndexOf('/');
      while (slash > 0) {
        const parent = name.slice(0, slash);
        if (this.files.has(parent) || this.ignored.has(parent)) {
          const what = this.files.has(parent) ? 'a file' : 'a link or special entry';
          throw new ZotboxError('ZB_ARCHIVE_ENTRY_DUPLICATE', `the archive has "${parent}" as ${what} and as the directory of "${name}".`, {
            details: { entry: parent },
          });
        }
        if (this.directories.has(parent) || implied.has(parent)) break; // its own parents are known already
        implied.add(parent);
        if (implied.size > budget) {
          throw new ZotboxError('ZB_ARCHIVE_LIMIT_EXCEEDED', `the archive's files and the directories they imply number more than ${this.limits.maxEntries}, the zotfile limit.`, {
            details: { limit: 'entries', max: this.limits.maxEntries },
          });
        }
        slash = name.lastIndexOf('/', slash - 1);
      }
    }
    if (implied.size > 0) this.canonical = false;
    for (const parent of implied) this.directories.set(parent, true);
  }
}
