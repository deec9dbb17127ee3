import { scopeList } from './challenge';

/**
 * Scope selection (MCP 2026-07-28 §Scope Selection Strategy, §Scope Challenge Handling):
 * the challenge's `scope` first, else every scope of the PRM's `scopes_supported`, else none
 * (the parameter is left out); a step-up asks for the union of what was asked before and what
 * the 403 names (SEP-2350); `offline_access` only when the authorization server lists it
 * (SEP-2207).
 */

type ScopeReason = 'configured' | 'challenge' | 'scopes_supported' | 'omitted' | 'union';

export function initialScopes(o: { configured?: string; challenge?: string; prmScopes?: string[] }): { scopes: string[]; reason: ScopeReason } {
  if (o.configured) return { scopes: scopeList(o.configured), reason: 'configured' };
  if (o.challenge !== undefined && scopeList(o.challenge).length) return { scopes: scopeList(o.challenge), reason: 'challenge' };
  if (o.prmScopes?.length) return { scopes: [...new Set(o.prmScopes)], reason: 'scopes_supported' };
  return { scopes: [], reason: 'omitted' };
}

/** The scopes of a step-up: everything asked before, plus the challenged ones. */
export function unionScopes(previous: string[], challenged: string | undefined): string[] {
  return [...new Set([...previous, ...scopeList(challenged)])];
}

/** Add `offline_access` when the AS lists it and the client wants refresh tokens. */
export function withOfflineAccess(scopes: string[], asScopes: string[] | undefined): string[] {
  return asScopes?.includes('offline_access') && !scopes.includes('offline_access') ? [...scopes, 'offline_access'] : scopes;
}
