// The agent's own package at /zotbox (issue 25): each skill's folder at
// /zotbox/skills/<name>/ and the assets at /zotbox/assets/, read-only. The read
// tool serves them from the image, the digested bytes the user consented to; the
// sandbox mounts a private extraction of the same bytes, below the state directory,
// made while a run of the plan needs it and removed when the last one ends.
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { AgentImage } from '../../archive/index.js';
import { ZotboxError } from '../../errors.js';
import { IMAGE_ROOT, IMAGE_TREES, imageEntryOf, type ImageIndex } from '../../policy/image-paths.js';

const underTrees = (name: string) => IMAGE_TREES.some((tree) => name === tree || name.startsWith(`${tree}/`));

/** The index the gate decides /zotbox paths with; `notInCommands` says why commands cannot see it (unconfined, a scope of "/"). */
export function imageIndexOf(image: AgentImage, notInCommands: string | undefined): ImageIndex {
  const kinds = new Map<string, 'file' | 'directory'>([['', 'directory']]);
  for (const entry of image.entries) if (underTrees(entry.name)) kinds.set(entry.name, entry.type === 'file' ? 'file' : 'directory');
  return notInCommands === undefined ? { kindOf: (entry) => kinds.get(entry), inCommands: true } : { kindOf: (entry) => kinds.get(entry), inCommands: false, notInCommands };
}

/** A file of the package by its /zotbox path. Throws for a directory or anything not in the image (the gate decided it is). */
export function readImageFile(image: AgentImage, virtual: string): Buffer {
  const entry = imageEntryOf(virtual)?.entry;
  const bytes = entry === undefined || !underTrees(entry) ? undefined : image.readFile(entry);
  if (bytes === undefined) {
    throw new ZotboxError('ZB_IO_FAILED', `cannot read ${virtual}: it is a directory of the agent's package, not a file. Read one of its files (the skill tool lists them).`, {
      details: { path: virtual },
    });
  }
  return bytes;
}

/** The files of one skill, relative to its folder, in the image's order. */
export function skillFiles(image: AgentImage, name: string): string[] {
  const prefix = `skills/${name}/`;
  return image.entries.filter((entry) => entry.type === 'file' && entry.name.startsWith(prefix)).map((entry) => entry.name.slice(prefix.length));
}

/**
 * Where a process keeps its extractions: below the state directory, which no scope reaches and every sandbox masks
 * (wherever it is mounted), so no agent's command, this run's or another's, can read or change one. Each is named
 * "<pid>-<random>": one left by a process that died without cleaning up (SIGKILL, SIGHUP) is removed by the next.
 */
function sweepStale(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = Number(/^(\d+)-/u.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || processAlive(pid)) continue;
    rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Each entry created exclusively, parents first (the image's order), so nothing found at a name is followed or written into. */
function writeEntries(image: AgentImage, root: string): void {
  for (const entry of image.entries) {
    if (!underTrees(entry.name)) continue;
    const target = path.join(root, entry.name);
    if (entry.type === 'directory') {
      mkdirSync(target, { mode: 0o755 });
      continue;
    }
    const fd = openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, entry.mode);
    try {
      writeSync(fd, image.readFile(entry.name)!);
    } finally {
      closeSync(fd);
    }
  }
}

/** A new extraction under `parent`; on failure nothing of it is left, and the error says which entry and why. */
function extract(image: AgentImage, parent: string): string {
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  sweepStale(parent);
  const root = mkdtempSync(path.join(parent, `${process.pid}-`));
  try {
    writeEntries(image, root);
    return root;
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENAMETOOLONG' ? 'a path in it is too long for this system (keep each path in the package well under 4096 bytes with the state directory before it)' : (error as Error).message;
    throw new ZotboxError('ZB_IO_FAILED', `cannot make the agent's package available to commands at /zotbox: ${why}. The read tool still reads it; commands in this run cannot.`, {
      details: { path: parent, ...(code === undefined ? {} : { errno: code }) },
    });
  }
}

/** The extraction the sandbox mounts at /zotbox: made on first use while a run holds it, removed when the last run lets go. */
export class ImageExtraction {
  private holders = 0;
  private root: string | undefined;
  /** An extraction that failed fails every later call the same way, instead of leaving a partial copy per command. */
  private failure: ZotboxError | undefined;
  /** `parent`: a directory below the state directory (run-plan.ts), private to the user. */
  constructor(
    private readonly image: AgentImage,
    private readonly parent: string,
  ) {}

  /** A run's hold on the extraction; the returned function lets go (once). */
  acquire(): () => void {
    this.holders++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holders === 0 && this.root !== undefined) {
        rmSync(this.root, { recursive: true, force: true });
        this.root = undefined;
      }
    };
  }

  /** Where /zotbox/<tree> comes from for each tree the image has, while a run holds the extraction; none otherwise. */
  mounts(): { readonly source: string; readonly target: string }[] {
    if (this.holders === 0) return [];
    if (this.failure !== undefined) throw this.failure;
    try {
      this.root ??= extract(this.image, this.parent);
    } catch (error) {
      this.failure = error as ZotboxError;
      throw error;
    }
    const root = this.root;
    return IMAGE_TREES.filter((tree) => this.image.entries.some((entry) => entry.name === tree)).map((tree) => ({ source: path.join(root, tree), target: `${IMAGE_ROOT}/${tree}` }));
  }
}

/** What counts as a script: executable, in a scripts/ or bin/ folder, or with an interpreter's file extension. */
const SCRIPT_EXTENSION = /\.(?:py|sh|bash|js|mjs|cjs|ts|rb|pl|php|lua)$/u;

export interface SkillSummary {
  readonly name: string;
  /** How many files the skill's folder holds, SKILL.md included. */
  readonly files: number;
  /** Its scripts, relative to its folder: they run only as commands, confined, with their interpreter allowlisted. */
  readonly scripts: readonly string[];
}

/** Each skill (skills/<name>/SKILL.md) with its file count and scripts, in name order. */
export function skillSummaries(image: AgentImage): SkillSummary[] {
  const names = image.entries.flatMap((entry) => (entry.type === 'file' ? (/^skills\/([^/]+)\/SKILL\.md$/u.exec(entry.name)?.[1] ?? []) : []));
  return names.map((name) => {
    const prefix = `skills/${name}/`;
    const files = image.entries.filter((entry) => entry.type === 'file' && entry.name.startsWith(prefix));
    const scripts = files
      .filter((entry) => entry.mode === 0o755 || /(?:^|\/)(?:scripts|bin)\//u.test(entry.name.slice(prefix.length)) || SCRIPT_EXTENSION.test(entry.name))
      .map((entry) => entry.name.slice(prefix.length));
    return { name, files: files.length, scripts };
  });
}
