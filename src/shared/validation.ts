// Request checking against the TypeBox schemas, with Qdrant's two kinds of failure:
// - a value that cannot be read into the request type (wrong type, missing or unknown field,
//   unknown enum variant, a negative number for an unsigned field) is a format error, 400;
// - a value that reads but breaks a rule on its value (a minimum, a maximum, a length) is a
//   validation error, 422, worded as Qdrant's validator words it:
//   `Validation error in JSON body: [hnsw_config.ef_construct: value 0 invalid, must be 4 or larger]`.
// The schema stays the one source of truth: at compile time a second, "structural" copy is made
// without the value rules. A value that fails the full schema but passes the structural one broke
// value rules only. REST (the fastify validator compiler) and gRPC (schemaCheck) both come here.

import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { Value } from 'typebox/value';
import { QuiverError } from './errors.js';
import { PARSE_BOUND } from './schemas/common.js';

/** One complaint of a schema validator (fastify's Ajv or a compiled TypeBox check). */
export interface SchemaIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: { allowedValue?: unknown };
}

const URL_PARTS: Record<string, string> = { querystring: 'query parameters', params: 'path parameters' };

const PREFERENCE: Record<string, number> = { const: 3, enum: 3, required: 2, additionalProperties: 2 };

/**
 * A schema failure as one readable line. Unions report every branch's complaint; the deepest
 * path is the one the caller got wrong, and a set of `const` complaints is an enum.
 */
export function describeValidation(issues: readonly SchemaIssue[], part: string): string {
  const real = issues.filter((i) => i.keyword !== 'anyOf' && i.keyword !== 'oneOf');
  const pool = real.length > 0 ? real : issues;
  const depth = (i: SchemaIssue): number => (i.instancePath ?? '').split('/').length;
  const maxDepth = Math.max(...pool.map(depth));
  const deepest = pool.filter((i) => depth(i) === maxDepth);
  const best = deepest.reduce((a, b) => ((PREFERENCE[b.keyword ?? ''] ?? 0) > (PREFERENCE[a.keyword ?? ''] ?? 0) ? b : a));
  const path = (best.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  // Qdrant: "Format error in JSON body: ..." for a body, "Deserialize error in query parameters:
  // ..." (and path parameters) for the URL's parts.
  const url = URL_PARTS[part];
  const head = url === undefined ? `Format error in JSON ${part}: ${path === '' ? part : `${part}.${path}`}` : `Deserialize error in ${url}: ${path === '' ? 'value' : path}`;
  if (best.keyword === 'const') {
    const allowed = deepest.filter((i) => i.keyword === 'const' && i.instancePath === best.instancePath).map((i) => JSON.stringify(i.params?.allowedValue));
    return `${head}: unknown variant, expected one of ${allowed.join(', ')}`;
  }
  return `${head}: ${best.message ?? 'is invalid'}`;
}

/** Keywords that constrain a value of an already readable type. */
const VALUE_RULES = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems']);

/** The largest u32: a maximum at or above it bounds the integer type, as serde reads it. */
const U32_MAX = 4_294_967_295;

/** Keys whose value is a map of names to schemas (a property may well be called `minimum`). */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);
/** Keys whose value is data, not a schema. */
const DATA_KEYS = new Set(['const', 'enum', 'default', 'examples']);

/**
 * Whether `key` of `schema` bounds the type itself rather than the value: `minimum: 0` is what
 * makes an integer unsigned and a u32-or-wider maximum is the type's range, so breaking either
 * is a failure to read (serde: "invalid value: integer `-1`, expected u32"). Floats have no such
 * bound. A schema marked PARSE_BOUND (a NonZeroU32, a JSON path) has all its bounds read as part
 * of its type.
 */
function typeBound(schema: Record<string | symbol, unknown>, key: string): boolean {
  if (schema[PARSE_BOUND] === true) return true;
  if (schema['type'] !== 'integer') return false;
  if (key === 'minimum') return schema[key] === 0;
  if (key === 'maximum') return typeof schema[key] === 'number' && schema[key] >= U32_MAX;
  return false;
}

/** A deep copy of a TypeBox schema without its value rules (TypeBox's own hidden keys kept). */
function structural(node: unknown, isMap = false): unknown {
  if (Array.isArray(node)) return node.map((n) => structural(n));
  if (typeof node !== 'object' || node === null) return node;
  const src = node as Record<string | symbol, unknown>;
  const out: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(src)) {
    const desc = Object.getOwnPropertyDescriptor(src, key);
    if (desc === undefined) continue;
    if (!isMap && typeof key === 'string' && VALUE_RULES.has(key) && !typeBound(src, key)) {
      // An integer with a positive minimum is still unsigned: -1 does not read (400), 0 breaks the rule (422).
      if (key === 'minimum' && src['type'] === 'integer' && typeof src[key] === 'number' && src[key] > 0) {
        Object.defineProperty(out, key, { value: 0, enumerable: true, writable: true, configurable: true });
      }
      continue;
    }
    if ('value' in desc && !(typeof key === 'string' && DATA_KEYS.has(key) && !isMap)) {
      desc.value = isMap ? structural(desc.value) : structural(desc.value, typeof key === 'string' && SCHEMA_MAPS.has(key));
    }
    Object.defineProperty(out, key, desc);
  }
  return out;
}

export interface CheckIssue {
  instancePath: string;
  keyword: string;
  schemaPath: string;
  message: string;
  params: Record<string, unknown>;
}

/** Where a request part's errors say they are, in Qdrant's words. */
export type Surface = 'body' | 'querystring' | 'params' | 'grpc';
const LABEL: Record<Surface, string> = {
  body: 'JSON body',
  querystring: 'query parameters',
  params: 'path parameters',
  grpc: 'body',
};
/** REST path parameters as Qdrant names them (`/collections/{name}`). */
const PATH_NAMES: Record<string, string> = { collection_name: 'name' };

function unescape(seg: string): string {
  return seg.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The field as Qdrant's validator names it (`points[0].vector`, `hnsw_config.ef_construct`),
 * and the value found there.
 */
function locate(value: unknown, pointer: string, surface: Surface): { field: string; found: unknown } {
  let field = '';
  let at: unknown = value;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = unescape(raw);
    if (Array.isArray(at)) {
      field += `[${seg}]`;
      at = at[Number(seg)];
    } else {
      const name = field === '' && surface === 'params' ? (PATH_NAMES[seg] ?? seg) : seg;
      field += field === '' ? name : `.${name}`;
      at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[seg] : undefined;
    }
  }
  return { field, found: at };
}

/** The schema node a `#/a/b` schema path points at, if it can be followed. */
function schemaAt(root: TSchema, schemaPath: string): Record<string, unknown> | undefined {
  let at: unknown = root;
  for (const raw of schemaPath.replace(/^#\/?/, '').split('/')) {
    if (raw === '') continue;
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[unescape(raw)];
  }
  return typeof at === 'object' && at !== null ? (at as Record<string, unknown>) : undefined;
}

/** A number as serde_json prints it: a float field's whole numbers keep their `.0`. */
function numberText(n: unknown, float = false): string {
  if (typeof n !== 'number') return JSON.stringify(n);
  return float && Number.isInteger(n) ? `${n}.0` : String(n);
}

/** One value rule broken, as Qdrant's `describe_error` says it for `range` and `length`. */
function describeRule(issue: CheckIssue, root: TSchema, found: unknown): string {
  const node = schemaAt(root, issue.schemaPath) ?? {};
  const limit = issue.params['limit'];
  const float = node['type'] === 'number';
  let rule: string;
  switch (issue.keyword) {
    case 'minimum':
    case 'maximum': {
      const min = typeof node['minimum'] === 'number' && !typeBound(node, 'minimum') ? node['minimum'] : undefined;
      const max = typeof node['maximum'] === 'number' && !typeBound(node, 'maximum') ? node['maximum'] : undefined;
      if (min !== undefined && max !== undefined) rule = `must be from ${numberText(min, float)} to ${numberText(max, float)}`;
      else if (issue.keyword === 'minimum') rule = `must be ${numberText(limit, float)} or larger`;
      else rule = `must be ${numberText(limit, float)} or smaller`;
      break;
    }
    case 'exclusiveMinimum':
      rule = `must be greater than ${numberText(limit, float)}`;
      break;
    case 'exclusiveMaximum':
      rule = `must be less than ${numberText(limit, float)}`;
      break;
    default: {
      // Lengths: Qdrant counts characters for strings; Quiver says items for arrays.
      const unit = Array.isArray(found) ? 'items' : 'characters';
      const [minKey, maxKey] = Array.isArray(found) ? ['minItems', 'maxItems'] : ['minLength', 'maxLength'];
      const min = node[minKey];
      const max = node[maxKey];
      if (typeof min === 'number' && typeof max === 'number') rule = min === max ? `must be exactly ${min} ${unit}` : `must be from ${min} to ${max} ${unit}`;
      else if (issue.keyword === minKey) rule = `must be at least ${numberText(limit)} ${unit}`;
      else rule = `must be at most ${numberText(limit)} ${unit}`;
    }
  }
  // Arrays can be long (a vector, a batch): their value is left out of the message.
  const shown = typeof found === 'number' ? numberText(found, float) : JSON.stringify(found);
  return Array.isArray(found) || found === undefined ? rule : `value ${shown} invalid, ${rule}`;
}

/** The 422 message for value rules broken, one entry per field, in the order found. */
export function describeRules(issues: readonly CheckIssue[], root: TSchema, value: unknown, surface: Surface): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const issue of issues) {
    if (!VALUE_RULES.has(issue.keyword)) continue;
    const { field, found } = locate(value, issue.instancePath, surface);
    if (seen.has(field)) continue;
    seen.add(field);
    parts.push(`${field === '' ? 'value' : field}: ${describeRule(issue, root, found)}`);
  }
  return `Validation error in ${LABEL[surface]}: [${parts.join('; ')}]`;
}

function issuesOf(errors: Iterable<{ instancePath: string; keyword: string; schemaPath: string; message: string; params: object }>): CheckIssue[] {
  return [...errors].map((e) => ({
    instancePath: e.instancePath,
    keyword: e.keyword,
    schemaPath: e.schemaPath,
    message: e.message,
    params: e.params as Record<string, unknown>,
  }));
}

export interface RequestCheck {
  /** The value as checked (query strings and path parameters converted to the schema's types). */
  check(value: unknown): { value: unknown; error?: QuiverError };
}

/** The checks made but not yet compiled (each compiles at its first use). */
const uncompiled = new Set<() => void>();

/**
 * Compiles now every check made so far that has not been used yet (both of its validators), and
 * answers how many there were: a bad schema throws here, as it would at that check's first use.
 */
export function compilePending(): number {
  const all = [...uncompiled];
  for (const compile of all) compile();
  return all.length;
}

/**
 * Compiles `schema` once (with its structural twin) into a check that gives the value or the
 * QuiverError Qdrant's answer maps to: BadInput (400) for a format error, Unprocessable (422)
 * for broken value rules. Query strings and path parameters arrive as text and are converted to
 * the schema's types first, as the fastify TypeBox compiler does.
 */
export function compileCheck(schema: TSchema, surface: Surface, opts: { qdrant422?: boolean } = {}): RequestCheck {
  const convert = surface === 'querystring' || surface === 'params';
  const formatPart = surface === 'grpc' ? 'body' : surface;
  const formatError = (issues: CheckIssue[]): QuiverError => QuiverError.badInput(describeValidation(issues, formatPart));
  // Compiled at the first check, not here: compiling every REST route's schemas cost the main
  // thread's start ~100 ms of CPU on the way to /readyz, for routes most servers never call.
  // test/main/http/schemas-compile.test.ts compiles them all (compilePending), so a bad schema
  // still fails a test.
  let full: Validator | undefined;
  // Quiver's own endpoints (/auth/*, docs/interface.md section 4.1-4.6) answer 400 for every bad body: no twin needed.
  // The twin is needed only to tell a failure's kind, so it is compiled at the first failure.
  let shape: Validator | undefined;
  const twin = (): Validator | undefined => (opts.qdrant422 === false ? undefined : (shape ??= Compile(structural(schema) as TSchema)));
  const compile = (): Validator => {
    if (full !== undefined) return full;
    full = Compile(schema);
    uncompiled.delete(compileBoth);
    return full;
  };
  const compileBoth = (): void => {
    compile();
    twin();
  };
  uncompiled.add(compileBoth);
  return {
    check(input) {
      const value = convert ? Value.Convert(schema, input) : input;
      const full = compile();
      if (full.Check(value)) return { value };
      const shape = twin();
      if (shape === undefined) return { value, error: formatError(issuesOf(full.Errors(value))) };
      if (!shape.Check(value)) return { value, error: formatError(issuesOf(shape.Errors(value))) };
      const issues = issuesOf(full.Errors(value));
      // Only value rules are left out of the structural twin; anything else stays a format error.
      if (!issues.some((i) => VALUE_RULES.has(i.keyword))) return { value, error: formatError(issues) };
      return { value, error: QuiverError.unprocessable(describeRules(issues, schema, value, surface)) };
    },
  };
}

/** Characters a new collection's name may not hold, in the order Qdrant looks for them. */
const NAME_FORBIDDEN = ['<', '>', ':', '"', '/', '\\', '|', '?', '*', '\0', '\u001f'];

/**
 * The 422 for a new collection's name holding a character Qdrant refuses (a file name on some
 * system), or undefined. Length is the schema's (255); this applies at creation only, as in
 * Qdrant, so collections created under looser rules stay reachable.
 */
export function collectionNameError(name: string, surface: 'params' | 'grpc'): QuiverError | undefined {
  const bad = NAME_FORBIDDEN.find((c) => name.includes(c));
  if (bad === undefined) return undefined;
  const field = surface === 'params' ? 'name' : 'collection_name';
  return QuiverError.unprocessable(`Validation error in ${LABEL[surface]}: [${field}: collection name cannot contain "${bad}" char]`);
}

/** A fastify validator compiler over compileCheck: the QuiverError goes to the error handler as is. */
export function validatorCompiler(opts: { qdrant422?: boolean } = {}) {
  return ({ schema, httpPart }: { schema: unknown; httpPart?: string }) => {
    const surface: Surface = httpPart === 'params' ? 'params' : httpPart === 'body' ? 'body' : 'querystring';
    const check = compileCheck(schema as TSchema, surface, opts);
    return (data: unknown): { value: unknown } | { error: QuiverError } => {
      const r = check.check(data);
      return r.error === undefined ? { value: r.value } : { error: r.error };
    };
  };
}
