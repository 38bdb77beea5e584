import { calendarStoreContract } from '../contracts/calendar-store.js';
import { MemoryCalendarStore } from './calendar-store.js';

calendarStoreContract('memory', async () => new MemoryCalendarStore());
