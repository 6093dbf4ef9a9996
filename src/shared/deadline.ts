// Bounding a wait: every call to an engine, a peer or a closing connection that could hang on a
// frozen or unreachable process goes through `within`, so each wait in the code has one visible
// bound and no timer outlives it.

/**
 * `work`'s outcome, or `late()`'s once `ms` passed first: a value it returns, or an error it
 * throws. `work` itself is not cancelled; it ends when it ends and its outcome is then dropped.
 */
export function within<T>(work: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (err) {
        reject(err);
      }
    }, ms);
  });
  return Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
}

/**
 * `attempt()` again every `pauseMs` while it fails with an error `retry` accepts, until `ms` have
 * passed since the first try; then its last error is thrown (as is at once one `retry` refuses).
 */
export async function retryFor<T>(ms: number, pauseMs: number, attempt: () => Promise<T>, retry: (err: unknown) => boolean = () => true): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!retry(err) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  }
}

/** Waits for `work` to settle, but no longer than `ms`: for closing things that may hang. */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  await within(
    work.then(
      () => undefined,
      () => undefined,
    ),
    ms,
    () => undefined,
  );
}
