// Model requests are taken one per turn of the event loop, across every run of the
// process (first in, first out). One pass of the loop delivers every port's
// messages, those that arrive while it runs included, so 1,000 runs started at once
// made one pass of 1,000 model requests, and no socket could connect or send until
// the last request was built: in the scale bench every turn-1 request went out in a
// 20-50 ms window 450-700 ms into the batch, and every answer came back at once.
// Between two requests taken here the loop connects and writes the sockets of the
// ones before (docs/performance.md, "Scale").

const waiting: (() => void)[] = [];
let draining = false;

/** Resolves in a later turn of the event loop, after every caller before this one, one caller per turn. */
export function takeLoopTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!draining) {
      draining = true;
      setImmediate(takeNext);
    }
  });
}

function takeNext(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(takeNext);
  else draining = false;
}
