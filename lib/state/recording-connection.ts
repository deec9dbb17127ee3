import { describeConnection } from '../recording/connection';
import type { ConnectionMeta } from '../recording/schema';
import type { ConnectionConfig, ConnectionSlice } from './connection-slice';
import { absoluteUrl, configHeaders } from './connection-transport';

/**
 * The header of the inspector's recording: where the session went and how, without secret
 * values. A stdio session names its command line and says `stdio`: resolved as a URL it became
 * `http://<page origin>/node%20server.mjs`, a target that never existed, and replay then took the
 * stdio transport's placeholder HTTP heads for real ones.
 */
export function recordingConnection(config: ConnectionConfig, server: ConnectionSlice['connection']['server']): ConnectionMeta {
  const stdio = config.mode === 'stdio';
  return describeConnection({
    target: stdio ? config.url.trim() : absoluteUrl(config.url),
    transport: stdio ? 'stdio' : config.mode === 'proxy' ? 'proxy' : 'http',
    era: server?.era ?? config.era,
    ...(server?.protocolVersion ? { protocolVersion: server.protocolVersion } : {}),
    clientInfo: { name: 'mcp-loupe', version: '0.1.0' },
    ...(server?.info ? { serverInfo: { ...server.info } } : {}),
    ...(stdio ? {} : { headers: configHeaders(config) }),
  });
}
