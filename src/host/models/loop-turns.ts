// Model requests are taken in order, across every run of the process, for at most
// about TURN_BUDGET_MS of each turn of the event loop (the rest wait for the next).
// One pass of the loop delivers every port's messages, those that arrive while it
// runs included, so 1,000 runs started at once
// made one pass of 1,000 model requests, and no socket could connect or send until
// the last request was built: in the scale bench every turn-1 request went out in a
// 20-50 ms window 450-700 ms into the batch, and every answer came back at once.
// Between two turns' requests the loop connects and writes the sockets of the ones
// before (docs/performance.md, "Scale"). A budget, not one request per turn: a
// loop with much else to do each turn would otherwise cap the requests a second.

/** How long one turn of the loop goes on taking requests; past it, the rest wait for the next turn. */
const TURN_BUDGET_MS = 1;
const waiting: (() => void)[] = [];
let draining = false;
let turnStarted = 0;

/** Resolves in a later turn of the event loop, after every caller before this one: as many callers per turn as fit in TURN_BUDGET_MS. */
export function takeLoopTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!draining) {
      draining = true;
      setImmediate(startTurn);
    }
  });
}

function startTurn(): void {
  turnStarted = performance.now();
  takeNext();
}

// Runs again as a microtask once the caller resumed before it has done its synchronous work.
function takeNext(): void {
  if (performance.now() - turnStarted >= TURN_BUDGET_MS) {
    setImmediate(startTurn);
    return;
  }
  waiting.shift()?.();
  if (waiting.length === 0) draining = false;
  else queueMicrotask(takeNext);
}
