// Shards: which slice of an eval's cases this process runs (`--shard I/N`,
// ZOTBOX_SHARD, or a Kubernetes Indexed Job). Assignment is a stable hash of the
// case key, so every machine and Node version puts a case in the same shard.
// Pure: reads only the env object it is given, never process.env.
import { createHash } from 'node:crypto';
import { ZotboxError } from '../../../errors.js';

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly total: number;
}

/** The most shards an eval can be split into. */
export const MAX_SHARDS = 10_000;

/** Names a case across suites: `<suite name>/<case id>` (neither may hold a "/"; the suite format forbids it). */
export function caseKey(suite: string, id: string): string {
  return `${suite}/${id}`;
}

/** Parses "I/N": whole numbers without signs, spaces or leading zeros, 1 <= I <= N <= 10000. `origin` names where the text came from. */
export function parseShard(text: string, origin: string): Shard {
  const match = /^([1-9][0-9]{0,5})\/([1-9][0-9]{0,5})$/.exec(text);
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (match === null || total > MAX_SHARDS || index > total) {
    const why = match === null ? 'is not I/N with I and N whole numbers' : total > MAX_SHARDS ? `splits into more than ${MAX_SHARDS} shards` : `names shard ${index} of only ${total}`;
    throw new ZotboxError('ZB_EVAL_SHARD_INVALID', `${origin} ${JSON.stringify(text)} ${why}. Fix: give I/N with 1 <= I <= N <= ${MAX_SHARDS}, for example 2/3 for the second of three shards.`, {
      details: { origin, value: text },
    });
  }
  return { index, total };
}

type Environment = Readonly<Record<string, string | undefined>>;

function setting(env: Environment, name: string): string | undefined {
  const value = env[name];
  // An empty variable is unset: CI templates often expand a missing value to "".
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The shard the environment names, or null for none.
 * - ZOTBOX_SHARD=I/N names it directly (JOB_COMPLETION_INDEX is then ignored).
 * - ZOTBOX_SHARD_TOTAL=N with JOB_COMPLETION_INDEX=K (0-based, set by a Kubernetes
 *   Indexed Job) is shard K+1 of N. One without the other is refused, as is
 *   ZOTBOX_SHARD together with ZOTBOX_SHARD_TOTAL.
 */
export function shardFromEnvironment(env: Environment): Shard | null {
  const direct = setting(env, 'ZOTBOX_SHARD');
  const total = setting(env, 'ZOTBOX_SHARD_TOTAL');
  const completionIndex = setting(env, 'JOB_COMPLETION_INDEX');
  if (direct !== undefined && total !== undefined) {
    throw shardError('ZOTBOX_SHARD and ZOTBOX_SHARD_TOTAL are both set; they are two ways to name the shard. Fix: unset one of them.', { ZOTBOX_SHARD: direct, ZOTBOX_SHARD_TOTAL: total });
  }
  if (direct !== undefined) return parseShard(direct, 'ZOTBOX_SHARD');
  if (total === undefined && completionIndex === undefined) return null;
  if (total === undefined) {
    throw shardError(
      `JOB_COMPLETION_INDEX=${JSON.stringify(completionIndex)} is set (a Kubernetes Indexed Job) but ZOTBOX_SHARD_TOTAL is not, so every pod would run every case. Fix: set ZOTBOX_SHARD_TOTAL to the Job's completions, or ZOTBOX_SHARD=1/1 to run the whole eval in each pod.`,
      { JOB_COMPLETION_INDEX: completionIndex },
    );
  }
  if (completionIndex === undefined) {
    throw shardError(
      `ZOTBOX_SHARD_TOTAL=${JSON.stringify(total)} is set but JOB_COMPLETION_INDEX is not; it takes the shard from a Kubernetes Indexed Job. Fix: run in an Indexed Job (completionMode: Indexed), or set ZOTBOX_SHARD=I/N instead.`,
      { ZOTBOX_SHARD_TOTAL: total },
    );
  }
  const shardTotal = Number(total);
  if (!/^[1-9][0-9]{0,5}$/.test(total) || shardTotal > MAX_SHARDS) {
    throw shardError(`ZOTBOX_SHARD_TOTAL=${JSON.stringify(total)} is not a whole number from 1 to ${MAX_SHARDS}. Fix: set it to the Job's completions.`, { ZOTBOX_SHARD_TOTAL: total });
  }
  if (!/^(0|[1-9][0-9]{0,5})$/.test(completionIndex) || Number(completionIndex) >= shardTotal) {
    throw shardError(
      `JOB_COMPLETION_INDEX=${JSON.stringify(completionIndex)} is not a whole number from 0 to ${shardTotal - 1} (ZOTBOX_SHARD_TOTAL=${shardTotal}). Fix: set ZOTBOX_SHARD_TOTAL to the Job's completions.`,
      { JOB_COMPLETION_INDEX: completionIndex, ZOTBOX_SHARD_TOTAL: total },
    );
  }
  return { index: Number(completionIndex) + 1, total: shardTotal };
}

function shardError(message: string, details: Record<string, string | undefined>): ZotboxError {
  return new ZotboxError('ZB_EVAL_SHARD_INVALID', message, { details });
}

/** The 1-based shard of `total` a case key falls in: sha256 of its UTF-8 bytes, the first 8 bytes as a big-endian integer, mod total, plus 1. */
export function shardOfCase(key: string, total: number): number {
  const digest = createHash('sha256').update(key, 'utf8').digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(total)) + 1;
}

export function caseInShard(key: string, shard: Shard): boolean {
  return shardOfCase(key, shard.total) === shard.index;
}
