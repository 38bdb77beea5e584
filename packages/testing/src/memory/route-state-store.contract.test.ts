import { routeStateStoreContract } from '../contracts/route-state-store.js';
import { MemoryRouteStateStore } from './route-state-store.js';

routeStateStoreContract('memory', async () => new MemoryRouteStateStore());
