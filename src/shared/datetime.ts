// RFC 3339 datetimes as Qdrant reads them: a date, optionally a time, optionally a zone; without
// a zone UTC is assumed (never the server's local zone). Anything else is not a datetime.

const RE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** Milliseconds since the epoch, or NaN when `s` is not such a datetime. */
export function parseDatetime(s: string): number {
  const m = RE.exec(s.trim());
  if (m === null) return Number.NaN;
  const [, date, time, zone] = m;
  let z = zone ?? 'Z';
  if (/^[+-]\d{2}$/.test(z)) z = `${z}:00`;
  else if (/^[+-]\d{4}$/.test(z)) z = `${z.slice(0, 3)}:${z.slice(3)}`;
  return Date.parse(`${date}T${time ?? '00:00:00'}${z.toUpperCase()}`);
}
