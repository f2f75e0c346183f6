// A signal of one's own, linked to a caller's signal that any number of runs may
// share (issue 26): the caller's signal gets one listener however many runs link
// to it, so 1,000 runs on one AbortSignal add no more than one run does and print
// no MaxListenersExceededWarning. It never changes the caller's signal.

/**
 * The runs linked to each caller's signal. Keyed weakly by that signal: a signal
 * nobody holds any more takes its entry with it. Process-wide because every run
 * that shares a signal must find the one listener, whoever started it.
 */
const LINKS = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

export interface LinkedSignal {
  /** Aborted when the caller's signal aborts (with its reason), or by `abort`. */
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  /** Stops following the caller's signal (call it when the run ends). Idempotent. */
  unlink(): void;
}

export function linkSignal(parent: AbortSignal | undefined): LinkedSignal {
  const controller = new AbortController();
  const abort = (reason?: unknown) => controller.abort(reason);
  if (parent === undefined) return { signal: controller.signal, abort, unlink: () => undefined };
  if (parent.aborted) {
    abort(parent.reason);
    return { signal: controller.signal, abort, unlink: () => undefined };
  }
  let links = LINKS.get(parent);
  if (links === undefined) {
    const created = new Set<(reason: unknown) => void>();
    links = created;
    LINKS.set(parent, created);
    parent.addEventListener(
      'abort',
      () => {
        LINKS.delete(parent);
        for (const follow of [...created]) follow(parent.reason);
      },
      { once: true },
    );
  }
  const follow = (reason: unknown) => abort(reason);
  links.add(follow);
  const joined = links;
  return { signal: controller.signal, abort, unlink: () => joined.delete(follow) };
}
