import { describe, expect, it } from 'vitest';
import { GRPC_ACCESS, REST_ACCESS, formatPermission, grpcAccess, parsePermission, restAccess, routeKey } from '../../../src/main/auth/permissions.js';

describe('permission strings (docs/interface.md section 2.2, docs/decisions.md section 3)', () => {
  it('parses every set of names in any order to the bitmask', () => {
    expect(parsePermission('read')).toBe(1);
    expect(parsePermission('write')).toBe(2);
    expect(parsePermission('admin')).toBe(4);
    expect(parsePermission('read,admin')).toBe(5);
    expect(parsePermission('admin,read')).toBe(5);
    expect(parsePermission('write,admin')).toBe(6);
    expect(parsePermission('admin,write,read')).toBe(7);
    expect(parsePermission('read,write,admin')).toBe(7);
  });

  it('refuses duplicates, unknown names, spaces, case variants and empty names', () => {
    for (const bad of ['', 'read,read', 'Read', 'READ', 'read, write', ' read', 'read,', ',read', 'read,,write', 'root', 'manage', 'read;write', 'toString', '__proto__', 'constructor']) {
      expect(parsePermission(bad), bad).toBeNull();
    }
  });

  it('formats in the canonical order read, write, admin', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(formatPermission)).toEqual(['read', 'write', 'read,write', 'admin', 'read,admin', 'write,admin', 'read,write,admin']);
    for (let m = 1; m <= 7; m++) expect(parsePermission(formatPermission(m))).toBe(m);
  });
});

describe('the route table', () => {
  it('matches routes whatever their parameter names', () => {
    expect(routeKey('get', '/collections/:collection_name')).toBe('GET /collections/:');
    expect(restAccess('PUT', '/collections/:name/points')).toBe('write');
    expect(restAccess('POST', '/collections/:collection_name/points/search')).toBe('read');
    expect(restAccess('DELETE', '/collections/:c/snapshots/:snap')).toBe('manage');
    expect(restAccess('DELETE', '/collections/:c/points/delete')).toBe(undefined);
    expect(restAccess('POST', '/collections/:c/points/delete')).toBe('write');
    expect(restAccess('PUT', '/collections/:c/index')).toBe('manage');
  });

  it('gives HEAD the rule of its GET', () => {
    expect(restAccess('HEAD', '/collections')).toBe('list');
    expect(restAccess('HEAD', '/collections/:c')).toBe('read');
    expect(restAccess('HEAD', '/auth/api_keys')).toBe('token_admin');
    expect(restAccess('HEAD', '/healthz')).toBe('public');
  });

  it('has no rule for what it does not list (so it is refused)', () => {
    expect(restAccess('POST', '/collections/:c/points/teleport')).toBeUndefined();
    expect(restAccess('GET', '/debug')).toBeUndefined();
    expect(restAccess('PUT', '/auth/enabled')).toBeUndefined();
    expect(grpcAccess('/qdrant.Points/Teleport')).toBeUndefined();
    expect(grpcAccess('toString')).toBeUndefined();
  });

  it('keeps the fixed rules of docs/decisions.md section 3', () => {
    expect(REST_ACCESS['PATCH /auth/enabled']).toBe('admin_jwt');
    expect(REST_ACCESS['POST /auth/login']).toBe('public');
    expect(REST_ACCESS['POST /auth/admin']).toBe('admin_bootstrap');
    expect(REST_ACCESS['POST /auth/admin/reset-password']).toBe('admin');
    for (const k of ['POST /auth/api_key', 'GET /auth/api_keys', 'DELETE /auth/api_key/:token_id', 'POST /auth/api_key/:token_id/rotate']) {
      expect(REST_ACCESS[k], k).toBe('token_admin');
    }
    for (const k of ['GET /', 'GET /healthz', 'GET /livez', 'GET /readyz']) expect(REST_ACCESS[k], k).toBe('public');
    expect(GRPC_ACCESS['/qdrant.Qdrant/HealthCheck']).toBe('public');
  });

  it('has one key per route after parameter names are ignored', () => {
    const keys = Object.keys(REST_ACCESS).map((k) => routeKey(k.split(' ')[0]!, k.split(' ')[1]!));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
