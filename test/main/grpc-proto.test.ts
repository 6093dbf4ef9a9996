// The gRPC contract, checked without a server:
// - wire compatibility: every message, field, enum value and method of proto/ exists in the
//   descriptors @qdrant/js-client-grpc is built from (Qdrant's own protos), with the same name,
//   number, type, cardinality, oneof and presence; and every method of Qdrant's Qdrant,
//   Collections and Points services exists in proto/;
// - the committed TypeScript types in src/shared/grpc/generated are what `npm run proto:types`
//   generates from proto/ today;
// - the gRPC status numbers in src/shared/errors.ts are @grpc/grpc-js's.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { status } from '@grpc/grpc-js';
import { file_qdrant } from '@qdrant/js-client-grpc';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, GRPC_STATUS, GrpcCode } from '../../src/shared/errors.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const PROTO_DIR = join(ROOT, 'proto');

// ---- Qdrant's descriptors, as the official client ships them ---------------------------------

type QFile = typeof file_qdrant;
type QMessage = QFile['messages'][number];
type QField = QMessage['fields'][number];
type QEnum = QFile['enums'][number];
type QService = QFile['services'][number];

// FieldDescriptorProto.Type numbers, which @bufbuild/protobuf's ScalarType uses.
const SCALARS: Record<number, string> = {
  1: 'double', 2: 'float', 3: 'int64', 4: 'uint64', 5: 'int32', 6: 'fixed64', 7: 'fixed32', 8: 'bool',
  9: 'string', 12: 'bytes', 13: 'uint32', 15: 'sfixed32', 16: 'sfixed64', 17: 'sint32', 18: 'sint64',
};

const qMessages = new Map<string, QMessage>();
const qEnums = new Map<string, QEnum>();
const qServices = new Map<string, QService>();
(function walk(files: readonly QFile[], seen: Set<string>): void {
  for (const f of files) {
    if (seen.has(f.name)) continue;
    seen.add(f.name);
    const addMessage = (m: QMessage): void => {
      qMessages.set(m.typeName, m);
      m.nestedMessages.forEach(addMessage);
      for (const e of m.nestedEnums) qEnums.set(e.typeName, e);
    };
    f.messages.forEach(addMessage);
    for (const e of f.enums) qEnums.set(e.typeName, e);
    for (const s of f.services) qServices.set(s.typeName, s);
    walk(f.dependencies as QFile[], seen);
  }
})([file_qdrant], new Set());

/** A field's shape in one comparable line: cardinality, value type, real oneof, presence. */
function qShape(f: QField): string {
  const one = f.oneof !== undefined ? ` oneof ${f.oneof.name}` : '';
  const presence = f.fieldKind === 'scalar' || f.fieldKind === 'enum' ? (f.proto.proto3Optional ? ' optional' : '') : '';
  switch (f.fieldKind) {
    case 'scalar':
      return `${SCALARS[f.scalar]}${one}${presence}`;
    case 'enum':
      return `${f.enum.typeName}${one}${presence}`;
    case 'message':
      return `${f.message.typeName}${one}`;
    case 'list':
      return `repeated ${f.listKind === 'scalar' ? SCALARS[f.scalar] : f.listKind === 'enum' ? f.enum.typeName : f.message.typeName}`;
    case 'map':
      return `map<${SCALARS[f.mapKey]}, ${f.mapKind === 'scalar' ? SCALARS[f.scalar] : f.mapKind === 'enum' ? f.enum.typeName : f.message.typeName}>`;
  }
}

// ---- Quiver's protos, as protobufjs (which @grpc/proto-loader uses) reads them ---------------

function loadOurs(): protobuf.Root {
  const root = new protobuf.Root();
  // Imports name files relative to proto/ (as protoc -I proto); google/ ones are protobufjs's own.
  root.resolvePath = (_origin, target) => (target.startsWith('google/') || target.startsWith('/') ? target : join(PROTO_DIR, target));
  root.loadSync('qdrant.proto', { keepCase: true });
  root.resolveAll();
  return root;
}

const ours = loadOurs();
const ourTypes: protobuf.Type[] = [];
const ourEnums: protobuf.Enum[] = [];
const ourServices: protobuf.Service[] = [];
(function walk(ns: protobuf.NamespaceBase): void {
  for (const obj of ns.nestedArray) {
    if (obj instanceof protobuf.Type) ourTypes.push(obj);
    else if (obj instanceof protobuf.Enum) ourEnums.push(obj);
    else if (obj instanceof protobuf.Service) ourServices.push(obj);
    if (obj instanceof protobuf.Namespace) walk(obj);
  }
})(ours.lookup('qdrant') as protobuf.Namespace);

const strip = (name: string): string => name.replace(/^\./, '');

function ourShape(f: protobuf.Field): string {
  const valueType = (): string => (f.resolvedType ? strip(f.resolvedType.fullName) : f.type);
  if (f instanceof protobuf.MapField) return `map<${f.keyType}, ${valueType()}>`;
  if (f.repeated) return `repeated ${valueType()}`;
  const synthetic = f.partOf !== null && f.partOf.name === `_${f.name}`;
  const one = f.partOf !== null && !synthetic ? ` oneof ${f.partOf.name}` : '';
  const isMessage = f.resolvedType instanceof protobuf.Type;
  const presence = !isMessage && synthetic ? ' optional' : '';
  return `${valueType()}${one}${presence}`;
}

describe('proto/ is wire-compatible with Qdrant (the descriptors of @qdrant/js-client-grpc)', () => {
  it('finds Qdrant descriptors to compare with', () => {
    expect(qMessages.size).toBeGreaterThan(100);
    expect(ourTypes.length).toBeGreaterThan(100);
  });

  it('declares package qdrant with the services Qdrant, Collections and Points', () => {
    expect(ourServices.map((s) => strip(s.fullName)).sort()).toEqual(['qdrant.Collections', 'qdrant.Points', 'qdrant.Qdrant']);
  });

  it('gives every field of every message the name, number, type, oneof and presence Qdrant gives it', () => {
    const problems: string[] = [];
    for (const t of ourTypes) {
      const name = strip(t.fullName);
      const q = qMessages.get(name);
      if (q === undefined) {
        problems.push(`${name}: no such message in Qdrant's protos`);
        continue;
      }
      for (const f of t.fieldsArray) {
        const qf = q.fields.find((x) => x.number === f.id);
        if (qf === undefined) problems.push(`${name}.${f.name} = ${f.id}: Qdrant has no field ${f.id}`);
        else if (qf.name !== f.name) problems.push(`${name} field ${f.id}: named ${f.name}, Qdrant names it ${qf.name}`);
        else if (qShape(qf) !== ourShape(f)) problems.push(`${name}.${f.name} = ${f.id}: '${ourShape(f)}', Qdrant has '${qShape(qf)}'`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every enum value the number Qdrant gives it', () => {
    const problems: string[] = [];
    for (const e of ourEnums) {
      const name = strip(e.fullName);
      const q = qEnums.get(name);
      if (q === undefined) {
        problems.push(`${name}: no such enum in Qdrant's protos`);
        continue;
      }
      for (const [value, n] of Object.entries(e.values)) {
        const qv = q.values.find((v) => v.name === value);
        if (qv?.number !== n) problems.push(`${name}.${value} = ${n}: Qdrant has ${qv === undefined ? 'no such value' : qv.number}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('serves every method of Qdrant, Collections and Points with Qdrant request and reply types', () => {
    const problems: string[] = [];
    for (const s of ourServices) {
      const q = qServices.get(strip(s.fullName))!;
      for (const qm of q.methods) {
        const m = s.methods[qm.name];
        if (m === undefined) problems.push(`${q.typeName}/${qm.name}: missing`);
        else if (strip(m.resolvedRequestType!.fullName) !== qm.input.typeName || strip(m.resolvedResponseType!.fullName) !== qm.output.typeName) {
          problems.push(`${q.typeName}/${qm.name}: ${m.requestType} -> ${m.responseType}, Qdrant has ${qm.input.typeName} -> ${qm.output.typeName}`);
        }
      }
      for (const name of Object.keys(s.methods)) {
        if (!q.methods.some((qm) => qm.name === name)) problems.push(`${q.typeName}/${name}: not a Qdrant method`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('generated handler types', () => {
  function files(dir: string): Map<string, string> {
    const out = new Map<string, string>();
    (function walk(d: string): void {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else out.set(relative(dir, p), readFileSync(p, 'utf8'));
      }
    })(dir);
    return out;
  }

  it('src/shared/grpc/generated is what `npm run proto:types` makes of proto/ today', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const [bin, ...args] = pkg.scripts['proto:types']!.split(/\s+/);
    const committed = 'src/shared/grpc/generated';
    expect(args).toContain(committed);
    const out = mkdtempSync(join(tmpdir(), 'quiver-proto-types-'));
    try {
      execFileSync(join(ROOT, 'node_modules', '.bin', bin!), args.map((a) => (a === committed ? out : a)), { cwd: ROOT, stdio: 'pipe' });
      const fresh = files(out);
      const kept = files(join(ROOT, committed));
      expect([...kept.keys()].sort()).toEqual([...fresh.keys()].sort());
      const stale = [...fresh].filter(([p, text]) => kept.get(p) !== text).map(([p]) => p);
      expect(stale, 'run `npm run proto:types` and commit the result').toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('GRPC_STATUS', () => {
  it('uses the status numbers of @grpc/grpc-js', () => {
    for (const [name, n] of Object.entries(GrpcCode)) expect(status[name as keyof typeof status], name).toBe(n);
  });

  it('maps every error code, as the spec lists them', () => {
    expect(Object.keys(GRPC_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    expect(GRPC_STATUS.BadInput).toBe(status.INVALID_ARGUMENT);
    expect(GRPC_STATUS.NotFound).toBe(status.NOT_FOUND);
    expect(GRPC_STATUS.AlreadyExists).toBe(status.ALREADY_EXISTS);
    expect(GRPC_STATUS.PreconditionFailed).toBe(status.FAILED_PRECONDITION);
    expect(GRPC_STATUS.Unauthorized).toBe(status.UNAUTHENTICATED);
    expect(GRPC_STATUS.Forbidden).toBe(status.PERMISSION_DENIED);
    expect(GRPC_STATUS.NotImplemented).toBe(status.UNIMPLEMENTED);
    expect(GRPC_STATUS.Internal).toBe(status.INTERNAL);
  });
});
