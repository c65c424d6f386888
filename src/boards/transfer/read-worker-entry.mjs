// The board-file reader's entry. Node 20 does not apply `--import tsx` (hooks) to a worker's own entry
// module, so this plain module registers tsx itself (as the attachment readers' entry does).
import { register } from 'tsx/esm/api';

register();
await import('./read-worker.ts');
