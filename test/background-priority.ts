import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * The unit files' setup: their worker runs at the lowest CPU priority (nice 19). They share their
 * group with the fault files that measure lateness, whose stacks then get the cores first; the unit
 * files take what is left. Linux keeps a nice per thread: every thread of the worker is set (V8's
 * GC and compiler threads, libuv's pool), and threads made later inherit it from the main one. (A
 * nice can only go up without privileges: set once, it stays.)
 */
if (getPriority() < 19) {
  let threads: string[];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    threads = []; // not Linux: the process's priority alone
  }
  setPriority(19);
  for (const thread of threads) {
    try {
      setPriority(Number(thread), 19);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}
