// SHA-256 digests in zotbox's printed form, "sha256:<64 lowercase hex>".
import { createHash, type Hash } from 'node:crypto';

export type Digest = `sha256:${string}`;

const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

export function formatDigest(hash: Hash): Digest {
  return `sha256:${hash.digest('hex')}`;
}

export function sha256(bytes: Uint8Array): Digest {
  return formatDigest(createHash('sha256').update(bytes));
}

/** True for "sha256:" followed by 64 lowercase hex digits. */
export function isDigest(text: string): text is Digest {
  return DIGEST_PATTERN.test(text);
}
