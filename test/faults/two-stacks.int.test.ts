import { twoStacksScenario } from './two-stacks.scenario.js';

// Fault (f): two stacks on one database file, one killed hard while dispatching.
twoStacksScenario();
