import { slowTrackerContract } from '../contracts/slow-tracker.js';
import { MemorySlowTracker } from './slow-tracker.js';

slowTrackerContract('memory', async () => new MemorySlowTracker());
