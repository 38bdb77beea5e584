#!/usr/bin/env node
import { processIo } from './io.js';
import { main } from './program.js';

// `tickring runs ls | head -3`: the reader left, which is no error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const code = await main(process.argv.slice(2), processIo());
// Ctrl-C: leave at once (a poll still in flight is not waited for); otherwise end once output is written.
if (code === 130) process.exit(code);
process.exitCode = code;
