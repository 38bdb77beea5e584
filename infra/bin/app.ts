#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { stackPropsFromContext } from '../stacks/context.js';
import { TickringStack } from '../stacks/tickring-stack.js';

// `cdk synth|deploy|destroy` runs this (cdk.json "app"); the context comes from cdk.json and `-c`.
const app = new App();
const { stackName, props } = stackPropsFromContext(app.node);
new TickringStack(app, stackName, props);
app.synth();
