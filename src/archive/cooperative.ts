// Synchronous file system calls are several times faster than their promise
// forms for thousands of small files (no thread-pool round trip per call), but
// they block the event loop. Long loops call `tick` and yield to the event loop
// every few MiB or few hundred operations, so a host running many agents stays
// responsive (a pause lasts a few milliseconds) while a large tree is read.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

const BYTES_PER_SLICE = 8 * 1024 * 1024;
const OPERATIONS_PER_SLICE = 256;

export class CooperativeSlicer {
  private bytes = 0;
  private operations = 0;

  /** Records work done; returns a promise to await when the slice is used up, else undefined. */
  tick(bytes = 0): Promise<void> | undefined {
    this.bytes += bytes;
    this.operations++;
    if (this.bytes < BYTES_PER_SLICE && this.operations < OPERATIONS_PER_SLICE) return undefined;
    this.bytes = 0;
    this.operations = 0;
    return yieldToEventLoop();
  }
}
