'use client';

import type { AppCsp } from '@/lib/protocol';
import { grantedPermissions, type UiResourceMeta } from '@/lib/protocol';
import type { AppResource } from '@/lib/client/app-resource';

/**
 * What the host applied to a view, for the person checking it: the resource's identity
 * (URI, size, SHA-256, cache hit), the CSP header the sandbox page carries, CSP entries that
 * were dropped as unsafe, external origins the resource asked for, and granted permissions.
 */

function externalDomains(meta: UiResourceMeta): string[] {
  const csp = meta.csp ?? {};
  return [...(csp.connectDomains ?? []), ...(csp.resourceDomains ?? []), ...(csp.frameDomains ?? []), ...(csp.baseUriDomains ?? [])];
}

/** The facts of one app view (see above), folded under a summary. */
export function AppFacts({ resource, csp, cacheHit, sandboxOrigin }: { resource: AppResource; csp: AppCsp; cacheHit: boolean; sandboxOrigin: string }) {
  const permissions = grantedPermissions(resource.meta.permissions);
  const external = externalDomains(resource.meta).filter((d) => !csp.rejected.some((r) => r.entry === d));
  return (
    <details className="text-xs" data-testid="app-facts">
      <summary className="cursor-pointer text-muted">
        <span className="font-mono">{resource.uri}</span> · {(resource.html.length / 1024).toFixed(1)} KiB · sha256 {resource.digest.slice(0, 12)} ·{' '}
        <span data-testid="app-cache">{cacheHit ? 'from cache' : 'read'}</span>
        {csp.rejected.length ? (
          <span className="ml-2 font-medium text-danger">
            {csp.rejected.length} unsafe CSP entr{csp.rejected.length === 1 ? 'y' : 'ies'} dropped
          </span>
        ) : null}
        {external.length ? (
          <span className="ml-2 font-medium text-accent">
            asks for {external.length} external origin{external.length === 1 ? '' : 's'}
          </span>
        ) : null}
      </summary>
      <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted">Sandbox</dt>
        <dd className="font-mono">{sandboxOrigin} (inner frame: sandbox=&quot;allow-scripts&quot;, opaque origin)</dd>
        <dt className="text-muted">CSP</dt>
        <dd className="break-all font-mono" data-testid="app-csp">
          {csp.header}
        </dd>
        {csp.rejected.length ? (
          <>
            <dt className="text-danger">Dropped</dt>
            <dd className="font-mono text-danger" data-testid="app-csp-rejected">
              {csp.rejected.map((r) => `${r.list}: ${JSON.stringify(r.entry)}`).join(', ')}
            </dd>
          </>
        ) : null}
        <dt className="text-muted">Permissions</dt>
        <dd className="font-mono">{permissions.length ? permissions.join(', ') : 'none'}</dd>
        <dt className="text-muted">Cache</dt>
        <dd className="font-mono">
          {resource.cacheScope}, ttl {resource.ttlMs} ms
        </dd>
      </dl>
    </details>
  );
}
