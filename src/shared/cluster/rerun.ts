// A task that is run again, not concurrently: a kick while it runs asks for exactly one more run
// once it ends (however many kicks came), so the last change a kick announced is always seen.
// The controller's loop and the node's follow loop are both driven this way.

export class Rerun {
  readonly #task: () => Promise<void>;
  readonly #onError: (err: unknown) => void;
  /** Whether another run is still wanted (false once the owner has stopped). */
  readonly #live: () => boolean;
  #running = false;
  #again = false;

  constructor(task: () => Promise<void>, onError: (err: unknown) => void, live: () => boolean) {
    this.#task = task;
    this.#onError = onError;
    this.#live = live;
  }

  /** Runs the task now, or once more after the run in progress. */
  kick(): void {
    if (!this.#live()) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void (async () => {
      do {
        this.#again = false;
        try {
          await this.#task();
        } catch (err) {
          this.#onError(err);
        }
      } while (this.#again && this.#live());
      this.#running = false;
    })();
  }

  /** From inside a run: run once more after this one (a write lost a race). */
  again(): void {
    this.#again = true;
  }
}
