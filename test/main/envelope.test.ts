import { describe, expect, it } from 'vitest';
import { failure, ok, toFailure } from '../../src/shared/envelope.js';
import { describeValidation } from '../../src/shared/validation.js';
import { ERROR_CODES, HTTP_STATUS, QuiverError } from '../../src/shared/errors.js';

/** A fastify-style error: an Error with extra fields. */
function fastifyError(fields: Record<string, unknown>, message = 'fastify says no'): Error {
  return Object.assign(new Error(message), fields);
}

describe('describeValidation', () => {
  it('reports the deepest path, in dotted form under the request part', () => {
    const msg = describeValidation(
      [
        { instancePath: '/points', keyword: 'type', message: 'must be array' },
        { instancePath: '/points/0/vector', keyword: 'type', message: 'must be array' },
        { instancePath: '/points/0/vector/2', keyword: 'type', message: 'must be number' },
      ],
      'body',
    );
    expect(msg).toBe('Format error in JSON body: body.points.0.vector.2: must be number');
  });

  it('ignores anyOf/oneOf summaries when real complaints exist', () => {
    const msg = describeValidation(
      [
        { instancePath: '/vectors/size/deeper', keyword: 'anyOf', message: 'must match a schema in anyOf' },
        { instancePath: '/vectors/size', keyword: 'minimum', message: 'must be >= 1' },
      ],
      'body',
    );
    expect(msg).toBe('Format error in JSON body: body.vectors.size: must be >= 1');
  });

  it('falls back to anyOf/oneOf when they are all there is', () => {
    expect(describeValidation([{ instancePath: '/x', keyword: 'oneOf', message: 'must match exactly one schema in oneOf' }], 'body')).toBe(
      'Format error in JSON body: body.x: must match exactly one schema in oneOf',
    );
  });

  it('turns a set of const complaints at one path into "expected one of"', () => {
    const msg = describeValidation(
      [
        { instancePath: '/vectors/distance', keyword: 'const', message: 'must be equal to constant', params: { allowedValue: 'Cosine' } },
        { instancePath: '/vectors/distance', keyword: 'const', message: 'must be equal to constant', params: { allowedValue: 'Dot' } },
        { instancePath: '/vectors/distance', keyword: 'const', message: 'must be equal to constant', params: { allowedValue: 'Euclid' } },
        { instancePath: '/vectors/distance', keyword: 'const', message: 'must be equal to constant', params: { allowedValue: 'Manhattan' } },
        { instancePath: '/vectors/distance', keyword: 'anyOf', message: 'must match a schema in anyOf' },
        { instancePath: '/vectors', keyword: 'type', message: 'must be object' },
      ],
      'body',
    );
    expect(msg).toBe('Format error in JSON body: body.vectors.distance: unknown variant, expected one of "Cosine", "Dot", "Euclid", "Manhattan"');
  });

  it('lists only the const values at the chosen path', () => {
    const msg = describeValidation(
      [
        { instancePath: '/a/kind', keyword: 'const', params: { allowedValue: 'x' } },
        { instancePath: '/b/kind', keyword: 'const', params: { allowedValue: 'nope' } },
        { instancePath: '/a/kind', keyword: 'const', params: { allowedValue: 'y' } },
      ],
      'body',
    );
    expect(msg).toBe('Format error in JSON body: body.a.kind: unknown variant, expected one of "x", "y"');
  });

  it('at equal depth prefers const/enum over required/additionalProperties over the rest', () => {
    expect(
      describeValidation(
        [
          { instancePath: '/a', keyword: 'type', message: 'must be string' },
          { instancePath: '/b', keyword: 'additionalProperties', message: 'must NOT have additional properties' },
        ],
        'body',
      ),
    ).toBe('Format error in JSON body: body.b: must NOT have additional properties');
    expect(
      describeValidation(
        [
          { instancePath: '/a', keyword: 'required', message: "must have required property 'size'" },
          { instancePath: '/a', keyword: 'enum', message: 'must be equal to one of the allowed values' },
        ],
        'body',
      ),
    ).toBe('Format error in JSON body: body.a: must be equal to one of the allowed values');
  });

  it('uses the part name alone at the root, and any part name given', () => {
    expect(describeValidation([{ instancePath: '', keyword: 'required', message: "must have required property 'points'" }], 'body')).toBe(
      "Format error in JSON body: body: must have required property 'points'",
    );
    expect(describeValidation([{ keyword: 'type', message: 'must be integer' }], 'querystring')).toBe(
      'Deserialize error in query parameters: value: must be integer',
    );
    expect(describeValidation([{ instancePath: '/wait', keyword: 'type', message: 'must be boolean' }], 'querystring')).toBe(
      'Deserialize error in query parameters: wait: must be boolean',
    );
  });

  it('says "is invalid" when the complaint has no message', () => {
    expect(describeValidation([{ instancePath: '/x', keyword: 'format' }], 'params')).toBe('Deserialize error in path parameters: x: is invalid');
  });
});

describe('toFailure', () => {
  it.each(ERROR_CODES.map((code) => [code, HTTP_STATUS[code]] as const))('QuiverError %s -> %i', (code, status) => {
    const r = toFailure(new QuiverError(code, `message for ${code}`));
    expect(r).toEqual({ status, message: `message for ${code}`, internal: status >= 500 && status !== 501 });
  });

  it('a QuiverError rebuilt from the wire keeps its status', () => {
    const r = toFailure(QuiverError.fromWire({ code: 'NotFound', message: 'Collection not found: c' }));
    expect(r.status).toBe(404);
    expect(r.message).toBe('Collection not found: c');
  });

  it('the statuses of the most used codes are the HTTP ones', () => {
    expect(toFailure(QuiverError.badInput('x')).status).toBe(400);
    expect(toFailure(QuiverError.collectionNotFound('c')).status).toBe(404);
    expect(toFailure(QuiverError.alreadyExists('x')).status).toBe(409);
    expect(toFailure(QuiverError.internal('x'))).toMatchObject({ status: 500, internal: true });
    expect(toFailure(new QuiverError('ShardUnavailable', 'x'))).toMatchObject({ status: 503, internal: true });
    // 501 is an expected answer (a feature Quiver does not offer): logged at info, without a stack.
    expect(toFailure(QuiverError.notImplemented('x'))).toMatchObject({ status: 501, internal: false });
  });

  it('body too large -> 413', () => {
    const r = toFailure(fastifyError({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }, 'Request body is too large'));
    expect(r.status).toBe(413);
    expect(r.internal).toBe(false);
    expect(r.message).toMatch(/too large/i);
  });

  it('unsupported media type -> 415', () => {
    const r = toFailure(fastifyError({ code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }, "Unsupported Media Type: text/plain"));
    expect(r.status).toBe(415);
    expect(r.internal).toBe(false);
    expect(r.message).toContain('application/json');
  });

  it('empty or invalid JSON bodies -> 400 format errors', () => {
    expect(toFailure(fastifyError({ code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }))).toMatchObject({ status: 400, internal: false });
    const r = toFailure(fastifyError({ code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }, 'Unexpected token } in JSON'));
    expect(r).toEqual({ status: 400, message: 'Format error in JSON body: Unexpected token } in JSON', internal: false });
  });

  it('a SyntaxError from JSON parsing -> 400', () => {
    let e: unknown;
    try {
      JSON.parse('{');
    } catch (err) {
      e = err;
    }
    const r = toFailure(e);
    expect(r.status).toBe(400);
    expect(r.internal).toBe(false);
    expect(r.message).toMatch(/^Format error in JSON body: /);
  });

  it('schema validation errors -> 400 with the described path, in the right part', () => {
    const r = toFailure(
      fastifyError({
        code: 'FST_ERR_VALIDATION',
        statusCode: 400,
        validation: [{ instancePath: '/limit', keyword: 'minimum', message: 'must be >= 1' }],
        validationContext: 'body',
      }),
    );
    expect(r).toEqual({ status: 400, message: 'Format error in JSON body: body.limit: must be >= 1', internal: false });
    const q = toFailure(
      fastifyError({ validation: [{ instancePath: '/wait', keyword: 'type', message: 'must be boolean' }], validationContext: 'querystring' }),
    );
    expect(q.message).toBe('Deserialize error in query parameters: wait: must be boolean');
    // Without a context the body is assumed.
    expect(toFailure(fastifyError({ validation: [{ instancePath: '/x', keyword: 'type', message: 'm' }] })).message).toBe(
      'Format error in JSON body: body.x: m',
    );
  });

  it('other 4xx errors keep their status and message', () => {
    expect(toFailure(fastifyError({ statusCode: 404, code: 'FST_ERR_NOT_FOUND' }, 'Route GET:/nope not found'))).toEqual({
      status: 404,
      message: 'Route GET:/nope not found',
      internal: false,
    });
  });

  it('an unknown Error -> 500 internal, with its message', () => {
    expect(toFailure(new Error('boom'))).toEqual({ status: 500, message: 'Service internal error: boom', internal: true });
    expect(toFailure(new TypeError('x is undefined'))).toMatchObject({ status: 500, internal: true });
    expect(toFailure(fastifyError({ statusCode: 500 }, 'kaput'))).toMatchObject({ status: 500, internal: true });
  });

  it('a thrown non-Error -> 500 internal', () => {
    expect(toFailure('oops')).toEqual({ status: 500, message: 'Service internal error: oops', internal: true });
    expect(toFailure(42)).toMatchObject({ status: 500, internal: true });
  });

  // BUG (reported, minor): the error mapper itself throws for `throw null` / `throw undefined`
  // (it reads `.validation` off the value), so an error handler using it would crash instead of
  // answering 500.
  it('never throws, even for a thrown null or undefined', () => {
    expect(toFailure(null)).toMatchObject({ status: 500, internal: true });
    expect(toFailure(undefined)).toMatchObject({ status: 500, internal: true });
  });
});

describe('ok / failure envelopes', () => {
  it('ok wraps a result with status ok, usage null and elapsed seconds', () => {
    const t0 = performance.now() - 1500;
    const e = ok({ a: 1 }, t0);
    expect(e.status).toBe('ok');
    expect(e.usage).toBeNull();
    expect(e.result).toEqual({ a: 1 });
    expect(e.time).toBeGreaterThanOrEqual(1.5);
    expect(e.time).toBeLessThan(60);
  });

  it('failure wraps the message in status.error', () => {
    const e = failure('nope', performance.now());
    expect(e.status).toEqual({ error: 'nope' });
    expect(e.time).toBeGreaterThanOrEqual(0);
    expect(e.time).toBeLessThan(60);
  });
});
