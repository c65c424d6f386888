/**
 * Everything the chaos run starts (server processes, the private PostgreSQL cluster, temporary
 * directories) registers a synchronous undo here, so that a normal end, an error, Ctrl-C or
 * SIGTERM all leave nothing behind. Steps run last-registered first.
 */
const steps: { name: string; run: () => void }[] = [];

/** Registers an undo step; the returned function runs it now (once) and forgets it. */
export function onCleanup(name: string, run: () => void): () => void {
  const step = { name, run };
  steps.push(step);
  return () => {
    const i = steps.indexOf(step);
    if (i < 0) return;
    steps.splice(i, 1);
    runStep(step);
  };
}

function runStep(step: { name: string; run: () => void }) {
  try {
    step.run();
  } catch (error) {
    console.error(`cleanup: ${step.name}: ${(error as Error).message}`);
  }
}

/** Runs every registered step (synchronously: it also runs from the 'exit' handler). */
export function cleanupAll() {
  for (let step = steps.pop(); step; step = steps.pop()) runStep(step);
}

/** Ctrl-C and SIGTERM clean up and exit 130/143; a normal or failed exit cleans up too. */
export function installCleanupHandlers() {
  const onSignal = (signal: NodeJS.Signals, code: number) => {
    console.error(`\n${signal}: stopping processes and removing temporary directories`);
    cleanupAll();
    process.exit(code);
  };
  process.once('SIGINT', () => onSignal('SIGINT', 130));
  process.once('SIGTERM', () => onSignal('SIGTERM', 143));
  process.once('exit', cleanupAll);
}
