import { describe, expect, it } from 'vitest';
import { bearerChallenge } from '../../../../lib/client/auth/challenge';
import { authServerMetadataUrls, resourceMatches, resourceMetadataUrls } from '../../../../lib/client/auth/discovery';
import { pickAuthMethod } from '../../../../lib/client/auth/registration';
import { initialScopes, unionScopes, withOfflineAccess } from '../../../../lib/client/auth/scopes';

/** The pure rules of the OAuth client: challenge parsing, discovery order, resource match, scopes, auth method. */

describe('WWW-Authenticate', () => {
  it('reads the Bearer challenge among several, with quoted commas and escapes', () => {
    const c = bearerChallenge(
      'Basic realm="x, y", Bearer error="insufficient_scope", scope="mcp:basic mcp:write", resource_metadata="https://ex.com/.well-known/oauth-protected-resource/mcp", error_description="needs \\"write\\""',
    );
    expect(c).toEqual({
      error: 'insufficient_scope',
      scope: 'mcp:basic mcp:write',
      resourceMetadata: 'https://ex.com/.well-known/oauth-protected-resource/mcp',
      errorDescription: 'needs "write"',
    });
    expect(bearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(bearerChallenge('bearer scope=mcp:read')).toEqual({ scope: 'mcp:read' });
  });
});

describe('discovery order', () => {
  it('tries the path-inserted PRM before the root', () => {
    expect(resourceMetadataUrls('https://ex.com/public/mcp')).toEqual([
      'https://ex.com/.well-known/oauth-protected-resource/public/mcp',
      'https://ex.com/.well-known/oauth-protected-resource',
    ]);
  });
  it('builds the AS metadata URLs in the spec order, never the root for an issuer with a path', () => {
    expect(authServerMetadataUrls('https://auth.ex.com/tenant1')).toEqual([
      'https://auth.ex.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.ex.com/.well-known/openid-configuration/tenant1',
      'https://auth.ex.com/tenant1/.well-known/openid-configuration',
    ]);
    expect(authServerMetadataUrls('https://auth.ex.com')).toEqual([
      'https://auth.ex.com/.well-known/oauth-authorization-server',
      'https://auth.ex.com/.well-known/openid-configuration',
    ]);
  });
  it('accepts a PRM resource of the same origin whose path is a prefix, refuses another origin', () => {
    expect(resourceMatches('http://localhost:3000/mcp', 'http://localhost:3000/mcp')).toBe(true);
    expect(resourceMatches('http://localhost:3000', 'http://localhost:3000/mcp')).toBe(true);
    expect(resourceMatches('https://evil.example.com/mcp', 'http://localhost:3000/mcp')).toBe(false);
    expect(resourceMatches('http://localhost:3000/mc', 'http://localhost:3000/mcp')).toBe(false);
    expect(resourceMatches('http://localhost:3000/mcp#x', 'http://localhost:3000/mcp')).toBe(false);
  });
});

describe('scopes', () => {
  it('takes the challenge, else all of scopes_supported, else omits the parameter', () => {
    expect(initialScopes({ challenge: 'mcp:basic', prmScopes: ['a', 'b'] }).scopes).toEqual(['mcp:basic']);
    expect(initialScopes({ prmScopes: ['a', 'b'] })).toEqual({ scopes: ['a', 'b'], reason: 'scopes_supported' });
    expect(initialScopes({})).toEqual({ scopes: [], reason: 'omitted' });
    expect(initialScopes({ configured: 'x y', challenge: 'z' }).scopes).toEqual(['x', 'y']);
  });
  it('steps up with the union, and adds offline_access only when the AS lists it', () => {
    expect(unionScopes(['mcp:basic'], 'mcp:write mcp:basic')).toEqual(['mcp:basic', 'mcp:write']);
    expect(withOfflineAccess(['a'], ['a', 'offline_access'])).toEqual(['a', 'offline_access']);
    expect(withOfflineAccess(['a'], ['a'])).toEqual(['a']);
    expect(withOfflineAccess(['a'], undefined)).toEqual(['a']);
  });
});

describe('token endpoint auth method', () => {
  const as = (methods?: string[]) => ({ issuer: 'https://as', token_endpoint: 'https://as/token', token_endpoint_auth_methods_supported: methods });
  it('uses basic when supported or unspecified, post when only post, none without a secret', () => {
    expect(pickAuthMethod(as(), true)).toBe('client_secret_basic');
    expect(pickAuthMethod(as(['client_secret_post']), true)).toBe('client_secret_post');
    expect(pickAuthMethod(as(['client_secret_basic', 'client_secret_post']), true)).toBe('client_secret_basic');
    expect(pickAuthMethod(as(['client_secret_basic']), false)).toBe('none');
  });
});
