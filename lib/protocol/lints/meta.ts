import { META } from '../constants';
import { ClientCapabilitiesSchema, ImplementationSchema, LoggingLevelSchema, isReservedMetaKey } from '../meta';
import { show, type Report, type View } from './model';
import { asRecord } from '../../shared/records';

/** Per-request `_meta` of 2026-07-28: the required keys, their types and reserved prefixes. */

const KNOWN_KEYS = new Set<string>(Object.values(META));
const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'];
const metaPath = (key: string) => `request.body.params._meta["${key}"]`;

/** Returns true when a required key is missing or unusable (the server must answer 400/-32602). */
export function checkRequestMeta(v: View, report: Report): boolean {
  if (!v.modern || !v.isRequest) return false;
  const meta = v.meta;
  let broken = false;
  const version = meta?.[META.protocolVersion];
  if (version === undefined) {
    report('meta-required-missing', `_meta["${META.protocolVersion}"] is required on every request (there is no handshake)`, metaPath(META.protocolVersion));
    broken = true;
  } else if (typeof version !== 'string') {
    report('meta-invalid', `_meta["${META.protocolVersion}"] must be a string, got ${show(version)}`, metaPath(META.protocolVersion));
    broken = true;
  }
  const caps = meta?.[META.clientCapabilities];
  if (caps === undefined) {
    report('meta-required-missing', `_meta["${META.clientCapabilities}"] is required on every request ({} declares none)`, metaPath(META.clientCapabilities));
    broken = true;
  } else if (!ClientCapabilitiesSchema.safeParse(caps).success) {
    report('meta-invalid', `_meta["${META.clientCapabilities}"] is not a ClientCapabilities object`, metaPath(META.clientCapabilities));
    broken = true;
  } else {
    checkCapabilityFields(asRecord(caps)!, report);
  }
  const info = meta?.[META.clientInfo];
  // Without any _meta the missing required keys say enough.
  if (info === undefined) {
    if (meta) report('meta-client-info-missing', `_meta["${META.clientInfo}"] should identify the client (name and version)`, metaPath(META.clientInfo));
  } else if (!ImplementationSchema.safeParse(info).success)
    report('meta-invalid', `_meta["${META.clientInfo}"] needs string name and version`, metaPath(META.clientInfo));
  const level = meta?.[META.logLevel];
  if (level !== undefined && !LoggingLevelSchema.safeParse(level).success)
    report('meta-invalid', `_meta["${META.logLevel}"] ${show(level)} is not a logging level`, metaPath(META.logLevel));
  const token = meta?.progressToken;
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'number')
    report('meta-invalid', 'progressToken must be a string or a number', 'request.body.params._meta.progressToken');
  for (const key of TRACE_KEYS)
    if (meta?.[key] !== undefined && typeof meta[key] !== 'string') report('meta-invalid', `${key} must be a string`, `request.body.params._meta.${key}`);
  for (const key of Object.keys(meta ?? {})) {
    if (isReservedMetaKey(key) && !KNOWN_KEYS.has(key))
      report('meta-reserved-key-unknown', `_meta key "${key}" uses a reserved prefix but is not defined by the spec`, metaPath(key));
  }
  return broken;
}

function checkCapabilityFields(caps: Record<string, unknown>, report: Report): void {
  const base = `request.body.params._meta["${META.clientCapabilities}"]`;
  const roots = asRecord(caps.roots);
  if (roots && 'listChanged' in roots)
    report('capability-removed-field', 'roots.listChanged was removed with notifications/roots/list_changed', `${base}.roots.listChanged`);
  if ('tasks' in caps) {
    report(
      'capability-removed-field',
      'capabilities.tasks is the 2025-11-25 capability; under 2026-07-28 the client counts as not declaring tasks (declare extensions["io.modelcontextprotocol/tasks"])',
      `${base}.tasks`,
    );
  }
}
