import { LEGACY_VERSIONS, META, UnsupportedVersionDataSchema, type ClientCapabilities, type Implementation } from '../protocol';
import type { Connection } from './connection-types';

/**
 * What the connection core reads out of the server's handshake answers: the version to retry
 * with after a -32022, the 2025-era version a dual-era server points at, and the server facts a
 * server/discover result carries. Pure, so the connection keeps only the sequencing.
 */

/** Whether `version` is one of the 2025-era versions (spoken through the initialize handshake). */
export const isLegacyVersion = (version: string) => (LEGACY_VERSIONS as readonly string[]).includes(version);

/** The first of our `supported` versions that a -32022's data names, or undefined when there is none. */
export function negotiatedVersion(data: unknown, supported: readonly string[]): string | undefined {
  const d = UnsupportedVersionDataSchema.safeParse(data);
  if (!d.success) return undefined;
  return supported.find((v) => d.data.supported.includes(v));
}

/** A -32022 naming only 2025-era versions is a dual-era answer pointing at the handshake: the version to initialize with. */
export function dualEraLegacyVersion(data: unknown, supported: readonly string[]): string | undefined {
  const d = UnsupportedVersionDataSchema.safeParse(data);
  if (!d.success || d.data.supported.some((v) => !isLegacyVersion(v))) return undefined;
  return supported.find((v) => d.data.supported.includes(v));
}

/** Capabilities as the 2025-era initialize carries them (no `extensions`). */
export function legacyCapabilities(caps: ClientCapabilities): Record<string, unknown> {
  const { extensions: _e, ...rest } = caps;
  return rest;
}

/** The server facts in a server/discover result. */
export function serverFromDiscover(result: Record<string, unknown>): Connection['server'] {
  const r = result as {
    supportedVersions?: string[];
    capabilities?: Record<string, unknown>;
    instructions?: string;
    _meta?: Record<string, unknown>;
    serverInfo?: Implementation;
  };
  // serverInfo moved to the result's _meta; some servers still put it in the body.
  const info = (r._meta?.[META.serverInfo] as Implementation | undefined) ?? r.serverInfo;
  return { info, capabilities: r.capabilities, supportedVersions: r.supportedVersions, instructions: r.instructions };
}
