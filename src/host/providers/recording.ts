// --record FILE: wraps a provider and keeps every assistant turn, then writes a
// replay transcript (docs/replay.md) atomically, so a live run can be replayed.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileSystemError } from '../../errors.js';
import { MESSAGE_LIMITS, checkMessageLimits } from '../../policy/message-limits.js';
import type { AssistantTurn } from '../../policy/model-protocol.js';
import type { ModelProvider, ModelTurnRequest, TurnObserver } from './provider.js';
import type { ReplayTranscript } from './replay.js';

export class RecordingProvider implements ModelProvider {
  readonly turns: AssistantTurn[] = [];
  readonly model: string;
  constructor(private readonly inner: ModelProvider) {
    this.model = inner.model;
  }

  async complete(request: ModelTurnRequest, onText: (delta: string) => void, signal: AbortSignal, observer?: TurnObserver): Promise<AssistantTurn> {
    const turn = await this.inner.complete(request, onText, signal, observer);
    // A turn the model port refuses ends the run there; it is not recorded (it could not be written as JSON).
    const refused = checkMessageLimits(turn, MESSAGE_LIMITS.modelTurn, "the model's turn");
    if (refused !== undefined) throw refused;
    this.turns.push(turn);
    return turn;
  }

  /** Writes the transcript (temp file, fsync, rename). Nothing is written when no turn was recorded. */
  write(file: string): void {
    if (this.turns.length === 0) return;
    const transcript: ReplayTranscript = { zotbox_replay: 1, model: this.model, turns: this.turns };
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const fd = openSync(temp, 'wx', 0o644);
      try {
        writeSync(fd, `${JSON.stringify(transcript, null, 2)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, file);
    } catch (cause) {
      try {
        unlinkSync(temp);
      } catch {
        // nothing was created
      }
      throw fileSystemError('write the transcript', file, cause);
    }
  }
}
