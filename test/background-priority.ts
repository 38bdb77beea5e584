import { getPriority, setPriority } from 'node:os';

/**
 * The unit files' setup: their worker runs at the lowest CPU priority (nice 19). They share their
 * group with the fault files that measure lateness, whose stacks then get the cores first; the unit
 * files take what is left. (A nice can only go up without privileges: set once, it stays.)
 */
if (getPriority() < 19) setPriority(19);
