/** Bytes one PDF may have pdf.js allocate while it is read; see installDecodeBudget. */
export interface DecodeBudget {
  /** Starts counting afresh for the next attachment. */
  start(): void;
  /** The last attachment went past the budget (pdf.js may have swallowed the error). */
  readonly exceeded: boolean;
}

export class DecodeBudgetExceeded extends RangeError {
  override name = 'DecodeBudgetExceeded';
}

/**
 * Counts the bytes this thread decodes and throws past `maxBytes` per attachment. For reader
 * workers only: it replaces two globals of the thread it runs in.
 *
 * pdf.js has no limit of its own on decoded size: a 200 KB FlateDecode stream inflates to 200 MB.
 * It inflates with the platform's DecompressionStream, collecting every chunk before it looks at
 * the size: a stream that counts its chunks and fails past the budget stops the inflating. pdf.js
 * then inflates with its own JS decoder, which, like its others (LZW, run-length, ASCII85), grows
 * one Uint8Array by doubling: counting Uint8Array allocations sees them all, at their
 * second-largest buffer, before the memory is taken. ArrayBuffers live outside the V8 heap, where
 * the worker's resourceLimits do not reach.
 */
export function installDecodeBudget(maxBytes: number): DecodeBudget {
  let spent = 0;
  let exceeded = false;
  const spend = (bytes: number) => {
    if (bytes === 0) return;
    spent += bytes;
    if (spent <= maxBytes) return;
    exceeded = true;
    throw new DecodeBudgetExceeded(`more than ${maxBytes} bytes decoded`);
  };

  const NativeArray = globalThis.Uint8Array;
  // A proxy rather than a subclass: `x instanceof Uint8Array` stays true of arrays made elsewhere (Buffers).
  globalThis.Uint8Array = new Proxy(NativeArray, {
    construct(target, args: unknown[], newTarget) {
      spend(allocatedBy(args[0]));
      return Reflect.construct(target, args, newTarget) as Uint8Array;
    },
  });

  const NativeDecompression = globalThis.DecompressionStream;
  globalThis.DecompressionStream = class CountedDecompressionStream {
    readonly writable: DecompressionStream["writable"];
    readonly readable: DecompressionStream["readable"];
    constructor(format: ConstructorParameters<typeof DecompressionStream>[0]) {
      const inner = new NativeDecompression(format);
      this.writable = inner.writable;
      // Erroring cancels the inner stream, which stops inflating: what is held stays under the budget.
      this.readable = inner.readable.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            spend(chunk.byteLength);
            controller.enqueue(chunk);
          },
        }),
      );
    }
  } as typeof DecompressionStream;

  return {
    start() {
      spent = 0;
      exceeded = false;
    },
    get exceeded() {
      return exceeded;
    },
  };
}

/** Bytes `new Uint8Array(arg)` allocates: none for a view on an existing buffer. */
function allocatedBy(arg: unknown): number {
  if (typeof arg === 'number') return arg;
  if (arg instanceof ArrayBuffer || arg instanceof SharedArrayBuffer) return 0;
  if (arg !== null && typeof arg === 'object' && typeof (arg as { length?: unknown }).length === 'number') return (arg as { length: number }).length;
  return 0;
}
