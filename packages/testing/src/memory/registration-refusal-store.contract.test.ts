import { registrationRefusalStoreContract } from '../contracts/registration-refusal-store.js';
import { MemoryRegistrationRefusalStore } from './registration-refusal-store.js';

registrationRefusalStoreContract('memory', async () => new MemoryRegistrationRefusalStore());
