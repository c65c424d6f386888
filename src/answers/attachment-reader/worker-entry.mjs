// The reader worker's entry. Node 20 does not apply `--import tsx` (hooks) to a worker's own entry
// module, whether inherited or given in execArgv, so this plain module registers tsx itself.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
