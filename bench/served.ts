import type autocannon from 'autocannon';

/**
 * Answers served per second: 2xx answers over the run's duration. Not autocannon's `requests.average`, which counts
 * every answer: a request shed with a fast 503 (the server's overload guard) would count as served, and a server that
 * sheds would look faster than one that serves every request (bench/RESULTS.md, 2026-12-07).
 */
export function servedPerSecond(result: autocannon.Result): number {
  return result['2xx'] / result.duration;
}
