// A LazyAbort that counts how often its AbortSignal is asked for: tests check that a lazy
// cancellation is followed without making its signal.
import { LazyAbort } from "../../src/internal.js";

export class CountingAbort extends LazyAbort {
  reads = 0;

  override get signal(): AbortSignal {
    this.reads++;
    return super.signal;
  }
}
