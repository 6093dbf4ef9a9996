// Early statuses wait for the request body.
//
// Why: Node's HTTP/2 client (under @qdrant/js-client-grpc and @grpc/grpc-js clients) counts the
// request body it has not sent yet against its session memory, 10 MB by default, and resets a
// stream with ENHANCE_YOUR_CALM when response headers arrive while it is over that budget. A
// server that answers before reading the body (grpc-js refuses an oversized message on its length
// prefix; the admission interceptor refuses a call on its metadata) therefore reaches a client
// that sends more than 10 MB uncompressed as a broken stream, not as RESOURCE_EXHAUSTED,
// UNAUTHENTICATED or PERMISSION_DENIED. So a trailers-only response is held until the request
// body has ended; grpc-js discards that body unread once the call has a status, so holding costs
// bandwidth but no memory. Responses with data (success) are never held.
//
// grpc-js has no public hook on its HTTP/2 streams: this reads its private `http2Servers` map
// once after binding. The message-size tests in test/main/grpc-errors.workers.test.ts fail if a
// grpc-js upgrade moves it, and startup logs a warning.

import type { Http2Server, OutgoingHttpHeaders, ServerHttp2Stream, ServerStreamResponseOptions } from 'node:http2';
import type * as grpc from '@grpc/grpc-js';

/** The longest a status waits for the body; a client still uploading after that gets it anyway. */
export const MAX_HOLD_MS = 30_000;

function http2ServersOf(server: grpc.Server): Http2Server[] {
  const servers: unknown = Reflect.get(server, 'http2Servers');
  if (!(servers instanceof Map)) return [];
  return [...servers.keys()].filter((s): s is Http2Server => typeof (s as Partial<Http2Server>).prependListener === 'function');
}

/**
 * The `respond` every stream of a server gets: one function per server rather than a bound copy
 * and a closure per stream, since it runs on every call and holds only the rare trailers-only one.
 */
function holdingRespond(maxHoldMs: number) {
  return function respond(this: ServerHttp2Stream, headers?: OutgoingHttpHeaders, options?: ServerStreamResponseOptions): void {
    // The class's own respond, under this instance's patch.
    const original = (Object.getPrototypeOf(this) as ServerHttp2Stream).respond;
    if (options?.endStream !== true || this.readableEnded || this.destroyed) {
      original.call(this, headers, options);
      return;
    }
    const stream = this;
    let timer: NodeJS.Timeout | undefined;
    const release = (): void => {
      clearTimeout(timer);
      stream.off('end', release);
      stream.off('close', release);
      // A client that reset the stream (even with NO_ERROR, which closes it before destroying
      // it) gets nothing; respond() would throw on a closed stream, inside an 'end' event.
      if (stream.destroyed || stream.closed || stream.headersSent) return;
      try {
        original.call(stream, headers, options);
      } catch {
        // the stream went away between the check and the call: nothing to answer
      }
    };
    timer = setTimeout(release, maxHoldMs);
    stream.once('end', release);
    stream.once('close', release);
    // The status is final, so the body is read only to be dropped (grpc-js reads none for a
    // method it does not serve).
    stream.resume();
  };
}

/**
 * Makes every trailers-only response of `server`'s bound ports wait until the request body has
 * ended (at most `maxHoldMs`). Call after binding; returns how many HTTP/2 servers it reached.
 */
export function holdEarlyStatuses(server: grpc.Server, maxHoldMs = MAX_HOLD_MS): number {
  const servers = http2ServersOf(server);
  const respond = holdingRespond(maxHoldMs);
  for (const s of servers) {
    s.prependListener('stream', (stream: ServerHttp2Stream) => {
      stream.respond = respond;
    });
  }
  return servers.length;
}
