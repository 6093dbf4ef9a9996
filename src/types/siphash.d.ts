// Types of the CommonJS SipHash package behind the slice filter condition (it ships none).

declare module 'siphash' {
  const siphash: {
    /** SipHash-2-4 of `message` under a 128-bit key given as four 32-bit words: the 64-bit result's halves. */
    hash(key: readonly number[], message: Uint8Array | string): { h: number; l: number };
  };
  export default siphash;
}
