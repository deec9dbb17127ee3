'use client';

import { useState } from 'react';
import { fingerprint } from '@/lib/shared/fingerprint';

/** Headers whose values are bearer secrets (task ids travel in Mcp-Name); masked until revealed. */
const SECRET = new Set(['authorization', 'mcp-name', 'cookie']);

/**
 * A masked value: the start of a credential (enough to tell schemes apart), but only the
 * fingerprint of an Mcp-Name, whose value may be a task id.
 */
function mask(name: string, value: string): string {
  if (value.length <= 8) return '••••';
  return name.toLowerCase() === 'mcp-name' ? `${fingerprint(value)}…` : `${value.slice(0, 8)}…`;
}

/** Request headers of a journal entry, secrets masked unless the operator reveals them. */
export function HeaderTable({ headers }: { headers: Record<string, string> }) {
  const [revealed, setRevealed] = useState(false);
  const rows = Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const hasSecret = rows.some(([n]) => SECRET.has(n.toLowerCase()));
  return (
    <div className="min-w-0 space-y-1">
      <div className="flex items-center justify-between">
        <h4 className="text-[11px] font-semibold uppercase tracking-wide text-muted">Request headers</h4>
        {hasSecret ? (
          <button type="button" className="text-[11px] text-accent hover:underline" onClick={() => setRevealed(!revealed)}>
            {revealed ? 'Mask secrets' : 'Reveal secrets'}
          </button>
        ) : null}
      </div>
      <table data-testid="journal-headers" className="w-full table-fixed text-xs">
        <tbody>
          {rows.map(([name, value]) => (
            <tr key={name} className="border-t border-border align-top">
              <th scope="row" className="w-44 py-0.5 pr-2 text-left font-mono font-normal text-muted">
                {name}
              </th>
              <td className="py-0.5 font-mono break-all">{SECRET.has(name.toLowerCase()) && !revealed ? mask(name, value) : value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
