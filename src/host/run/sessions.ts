// Sessions: a run's conversation as a JSONL transcript, one file per session in
// the agent's sessions directory (<state>/sessions/agents/<name>/<id>.jsonl).
// Line 1 is a header naming the agent and (version 2, issue 13) the workspace the
// session was recorded in; every other line is one chat message.
// Lines are appended and fsynced as each model turn completes, so a crash loses
// at most the turn in flight. A torn last line (the crash happened mid-write) is
// dropped on reading; any other unreadable line makes the file invalid.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { MESSAGE_LIMITS, findLimitViolation } from '../../policy/message-limits.js';
import { ChatMessageSchema, type ChatMessage } from '../../policy/model-protocol.js';

/** Written now: the header records the workspace. Version 1 files (before issue 13) belong to no workspace. */
const SESSION_VERSION = 2;
const SESSION_ID = /^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}$/;

const HeaderFields = {
  type: z.literal('session'),
  id: z.string().min(1),
  agent: z.string().min(1),
  created_at: z.string(),
};
const SessionHeaderSchema = z.discriminatedUnion('version', [
  z.strictObject({ ...HeaderFields, version: z.literal(1) }),
  z.strictObject({ ...HeaderFields, version: z.literal(SESSION_VERSION), workspace: z.string().min(1) }),
]);
const SessionLineSchema = z.strictObject({ type: z.literal('message'), message: ChatMessageSchema });

export type SessionHeader = z.infer<typeof SessionHeaderSchema>;
/** What a new session's header records; the type and version are added on writing. */
export interface NewSessionHeader {
  readonly id: string;
  readonly agent: string;
  readonly created_at: string;
  /** The canonical workspace of the run that records it. */
  readonly workspace: string;
}

/** The workspace a session was recorded in; undefined for version 1 sessions, which belong to no workspace. */
export function sessionWorkspace(header: SessionHeader): string | undefined {
  return header.version === 1 ? undefined : header.workspace;
}

/** Whether a string has the form of a session id (so may become a file name). */
export function isSessionId(text: string): boolean {
  return SESSION_ID.test(text);
}

export interface LoadedSession {
  readonly header: SessionHeader;
  readonly messages: readonly ChatMessage[];
}

function invalid(file: string, detail: string): ZotboxError {
  return new ZotboxError('ZB_SESSION_INVALID', `the session file ${file} is not a zotbox session (${detail}). Start a new session (leave out --continue/--resume/--session) or name another file.`);
}

/** A new session id: sortable by time, unique enough for one person's sessions. */
export function newSessionId(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

/** Throws ZB_SESSION_NOT_FOUND unless `id` has the form of a session id: checked before any id becomes a path. */
export function requireSessionId(id: string): string {
  if (SESSION_ID.test(id)) return id;
  throw new ZotboxError('ZB_SESSION_NOT_FOUND', `${JSON.stringify(id)} is not a session id (they look like 20261130T171200Z-1a2b3c4d). 'zotbox sessions list' lists the sessions.`, {
    details: { id },
  });
}

export function sessionFileFor(sessionsDirectory: string, id: string): string {
  return path.join(sessionsDirectory, `${requireSessionId(id)}.jsonl`);
}

/** Bytes read to find the header line; a header is a few hundred bytes. */
const HEADER_READ_LIMIT = 64 * 1024;

/** Reads and checks a session file's first line only (listing many sessions must not read whole transcripts). */
export function readSessionHeader(file: string): SessionHeader {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') throw new ZotboxError('ZB_SESSION_NOT_FOUND', `there is no session file ${file}. Check the id or path.`);
    throw fileSystemError('read', file, cause);
  }
  const buffer = Buffer.alloc(HEADER_READ_LIMIT);
  let length: number;
  try {
    length = readSync(fd, buffer, 0, HEADER_READ_LIMIT, 0);
  } catch (cause) {
    throw fileSystemError('read', file, cause);
  } finally {
    closeSync(fd);
  }
  const end = buffer.subarray(0, length).indexOf(0x0a);
  if (end === -1) throw invalid(file, length === 0 ? 'it is empty' : 'its first line is not a session header');
  const header = SessionHeaderSchema.safeParse(parseJson(buffer.subarray(0, end).toString('utf8')));
  if (!header.success) throw invalid(file, 'its first line is not a session header');
  return header.data;
}

/** Reads and checks a session file. */
export function readSession(file: string): LoadedSession {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ZotboxError('ZB_SESSION_NOT_FOUND', `there is no session file ${file}. Check the id or path; without --continue/--resume a run starts a new session.`);
    }
    throw fileSystemError('read', file, cause);
  }
  const lines = text.split('\n');
  // A file written by us always ends with a newline; the piece after it is either
  // empty or a line torn by a crash mid-append, which is dropped.
  lines.pop();
  const first = lines.shift();
  if (first === undefined) throw invalid(file, 'it is empty');
  const header = SessionHeaderSchema.safeParse(parseJson(first));
  if (!header.success) throw invalid(file, 'its first line is not a session header');
  const messages: ChatMessage[] = [];
  lines.forEach((line, index) => {
    const json = parseJson(line);
    // A line the model port would refuse (too deep or too large) could not be sent to the worker again.
    const violation = findLimitViolation(json, MESSAGE_LIMITS.sessionLine);
    if (violation !== undefined) throw invalid(file, `line ${index + 2} is ${violation.limit === 'depth' ? 'nested too deeply' : 'too large'} for a message`);
    const parsed = SessionLineSchema.safeParse(json);
    if (!parsed.success) throw invalid(file, `line ${index + 2} is not a session message`);
    messages.push(parsed.data.message);
  });
  return { header: header.data, messages };
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/**
 * The history a continued run starts from: the session up to its last complete
 * exchange. A session that stopped mid-turn (a crash, Ctrl-C, the turn limit)
 * can end with tool calls whose results the model never saw; the model APIs
 * reject a tool call without its result, and a user message after a user
 * message, so the unanswered tail is dropped (that is the turn in flight).
 */
export function historyForContinuation(messages: readonly ChatMessage[]): ChatMessage[] {
  const history = [...messages];
  for (;;) {
    const last = history.at(-1);
    if (last === undefined) return history;
    if (last.role === 'user') {
      history.pop();
      continue;
    }
    const text = last.content.filter((block) => block.type === 'text');
    if (text.length === last.content.length) return history;
    history.pop();
    if (text.length > 0) history.push({ role: 'assistant', content: text });
  }
}

/** Replaces a session file's messages (temp file, fsync, rename: never half-written). */
export function rewriteSession(file: string, session: LoadedSession): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  const lines = [session.header, ...session.messages.map((message) => ({ type: 'message', message }))];
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'wx', 0o600);
    writeSync(fd, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, file);
  } catch (cause) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw fileSystemError('rewrite', file, cause);
  }
}

/** Appends messages to a session file, each write fsynced before it returns. */
export class SessionWriter {
  private readonly fd: number;
  private written: number;
  private closed = false;

  private position: number;

  private constructor(
    readonly file: string,
    fd: number,
    alreadyWritten: number,
    position: number,
  ) {
    this.fd = fd;
    this.written = alreadyWritten;
    this.position = position;
  }

  /** Starts a new session file (fails if it exists: ids are never reused). */
  static create(file: string, header: NewSessionHeader): SessionWriter {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (cause) {
      throw fileSystemError('create', file, cause);
    }
    const writer = new SessionWriter(file, fd, 0, 0);
    writer.writeLines([{ type: 'session', version: SESSION_VERSION, id: header.id, agent: header.agent, created_at: header.created_at, workspace: header.workspace }]);
    return writer;
  }

  /** Opens an existing session to append to; `messagesInFile` is how many messages it already holds. */
  static append(file: string, messagesInFile: number): SessionWriter {
    let fd: number;
    try {
      fd = openSync(file, 'r+');
    } catch (cause) {
      throw fileSystemError('open', file, cause);
    }
    // Cut a torn last line, so the next append starts on a line of its own.
    const text = readFileSync(fd, 'utf8');
    const end = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1), 'utf8');
    try {
      if (end !== Buffer.byteLength(text, 'utf8')) ftruncateSync(fd, end);
    } catch (cause) {
      closeSync(fd);
      throw fileSystemError('repair', file, cause);
    }
    return new SessionWriter(file, fd, messagesInFile, end);
  }

  /** How many messages of the conversation the file holds. */
  get messageCount(): number {
    return this.written;
  }

  /** Appends the conversation's messages that the file does not hold yet. */
  sync(conversation: readonly ChatMessage[]): void {
    if (this.closed || conversation.length <= this.written) return;
    this.writeLines(conversation.slice(this.written).map((message) => ({ type: 'message', message })));
    this.written = conversation.length;
  }

  private writeLines(records: readonly unknown[]): void {
    const bytes = Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''), 'utf8');
    try {
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset, this.position + offset);
      this.position += bytes.length;
      fsyncSync(this.fd);
    } catch (cause) {
      throw fileSystemError('write', this.file, cause);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
