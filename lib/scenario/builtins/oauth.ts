import type { ScenarioInput } from '../schema';
import { objectSchema } from './schema-helpers';

/**
 * `oauth`: an MCP server behind OAuth 2.1 with its own authorization server on the mock's
 * origin. The 401 names the metadata and the base scope; `whoami` works with `notes:read`,
 * `write_note` needs `notes:write` too (step-up: 403 insufficient_scope, then re-authorize with
 * the union). Clients register by DCR, by a Client ID Metadata Document, or as the
 * pre-registered `loupe-demo-client`. The report card grades the flow.
 */
export const oauthScenario: ScenarioInput = {
  id: 'oauth',
  name: 'OAuth-protected server',
  description:
    'OAuth 2.1 in full: 401 with WWW-Authenticate (resource_metadata, scope), protected resource metadata, RFC 8414 metadata, DCR or CIMD or a pre-registered client, ' +
    'PKCE S256, signed JWT access tokens bound to the resource, refresh tokens. whoami needs notes:read; write_note needs notes:write as well (step-up). The report card grades the client.',
  server: {
    name: 'loupe-oauth',
    version: '1.0.0',
    title: 'Notes behind OAuth',
    instructions:
      'Every request needs a bearer token from the authorization server named in the protected resource metadata. write_note needs the notes:write scope.',
  },
  supportedVersions: ['2026-07-28', '2025-11-25'],
  tools: [
    {
      name: 'whoami',
      title: 'Who am I',
      description: 'Says that the token was accepted. Needs notes:read.',
      annotations: { readOnlyHint: true },
      result: { content: [{ type: 'text', text: 'Authorized: your token carries notes:read.' }] },
    },
    {
      name: 'write_note',
      title: 'Write a note',
      description: 'Stores a note. Needs notes:write (a step-up from the base scope).',
      inputSchema: objectSchema({ text: { type: 'string', description: 'The note' } }, { required: ['text'] }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
      result: { content: [{ type: 'text', text: 'Saved: {{args.text}}' }] },
    },
  ],
  auth: {
    resource: {
      metadata: 'path',
      inChallenge: true,
      scopesSupported: ['notes:read'],
      challengeScope: ['notes:read'],
      requiredScopes: ['notes:read'],
      toolScopes: { write_note: ['notes:write'] },
    },
    server: {
      metadata: 'oauth',
      scopesSupported: ['notes:read', 'notes:write', 'offline_access'],
      cimd: true,
      clients: [{ clientId: 'loupe-demo-client', clientSecret: 'loupe-demo-secret' }],
      grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
      refreshTokens: 'always',
    },
  },
};
