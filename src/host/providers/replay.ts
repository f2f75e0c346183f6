// The replay provider: plays a recorded transcript, one recorded assistant turn
// per model request, offline (docs/replay.md). The transcript is a trust
// boundary (a file the user names), so it is validated before anything runs.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ZotboxError } from '../../errors.js';
import { AssistantTurnSchema, type AssistantTurn } from '../../policy/model-protocol.js';
import type { ModelProvider, ModelTurnRequest } from './provider.js';

export const ReplayTranscriptSchema = z.strictObject({
  zotbox_replay: z.literal(1),
  /** The model the transcript was recorded with (informational). */
  model: z.string(),
  turns: z.array(AssistantTurnSchema).min(1),
});
export type ReplayTranscript = z.infer<typeof ReplayTranscriptSchema>;

export function readReplayTranscript(file: string): ReplayTranscript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ZotboxError('ZB_REPLAY_INVALID', `cannot read the replay transcript ${file}: ${(cause as NodeJS.ErrnoException).code ?? String(cause)}.`, { cause, details: { path: file } });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ZotboxError('ZB_REPLAY_INVALID', `the replay transcript ${file} is not JSON: ${(cause as Error).message}.`, { cause, details: { path: file } });
  }
  const parsed = ReplayTranscriptSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ZotboxError(
      'ZB_REPLAY_INVALID',
      `the replay transcript ${file} does not match the format (docs/replay.md): ${issue?.message ?? 'invalid'} at ${issue?.path.join('.') || 'the top level'}.`,
      {
        details: { path: file },
      },
    );
  }
  return parsed.data;
}

export class ReplayProvider implements ModelProvider {
  private next = 0;
  readonly model: string;

  constructor(private readonly transcript: ReplayTranscript) {
    this.model = `replay (recorded with ${transcript.model})`;
  }

  async complete(_request: ModelTurnRequest, onText: (delta: string) => void): Promise<AssistantTurn> {
    const turn = this.transcript.turns[this.next];
    if (turn === undefined) {
      throw new ZotboxError('ZB_REPLAY_EXHAUSTED', `the agent asked for model turn ${this.next + 1}, but the transcript holds ${this.transcript.turns.length}.`, {
        details: { turns: this.transcript.turns.length },
      });
    }
    this.next++;
    for (const block of turn.content) if (block.type === 'text') onText(block.text);
    return turn;
  }
}
