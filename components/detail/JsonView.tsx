'use client';

import { useMemo, useState } from 'react';
import { LongText } from '@/components/ui/LongText';
import { copyText, jsonPath, type PathStep, valueAt } from './json-path';

/**
 * A JSON body as a foldable, highlighted tree (objects deeper than two levels start folded, long
 * arrays show their first items): click a key to select it, then copy its value or its JSONPath.
 * "Raw" shows the text as it came (a truncated payload, which does not parse, shows only raw).
 */

const OPEN_DEPTH = 2;
/** Single-key wrappers open on their own down to here; deeper ones wait for a click (10,000 nested levels would recurse 10,000 components). */
const SINGLE_OPEN_DEPTH = 8;
const FIRST_ITEMS = 50;

type Select = (steps: PathStep[]) => void;

/** Characters of one string value put on the page; a server's 50 MB string would freeze layout. */
const SHOWN_CHARS = 10_000;

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string' && value.length > SHOWN_CHARS)
    return (
      <span className="break-all text-success">
        {JSON.stringify(value.slice(0, SHOWN_CHARS))}
        <span className="text-warning"> … {(value.length - SHOWN_CHARS).toLocaleString('en')} more characters (Copy value copies them all)</span>
      </span>
    );
  if (typeof value === 'string') return <span className="break-all text-success">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="text-warning">{String(value)}</span>;
  return <span className="text-accent">{String(value)}</span>;
}

function Key({ name, steps, selected, onSelect }: { name?: PathStep; steps: PathStep[]; selected: boolean; onSelect: Select }) {
  if (name === undefined) return null;
  return (
    <>
      <button
        type="button"
        data-path={jsonPath(steps)}
        onClick={() => onSelect(steps)}
        className={`rounded-sm text-foreground hover:bg-accent/10 ${selected ? 'bg-accent/15 ring-1 ring-accent/40' : ''}`}
      >
        {typeof name === 'number' ? name : JSON.stringify(name)}
      </button>
      <span className="text-muted">: </span>
    </>
  );
}

interface NodeProps {
  name?: PathStep;
  value: unknown;
  steps: PathStep[];
  selected: string;
  onSelect: Select;
}

function Node({ name, value, steps, selected, onSelect }: NodeProps) {
  const isArray = Array.isArray(value);
  const entries: [PathStep, unknown][] =
    value !== null && typeof value === 'object' ? (isArray ? value.map((v, i) => [i, v] as [number, unknown]) : Object.entries(value)) : [];
  const [open, setOpen] = useState(steps.length < OPEN_DEPTH || (entries.length <= 1 && steps.length < SINGLE_OPEN_DEPTH));
  const [shown, setShown] = useState(FIRST_ITEMS);
  const path = jsonPath(steps);
  const key = <Key name={name} steps={steps} selected={selected === path} onSelect={onSelect} />;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="pl-4" data-json-node={path}>
        {key}
        <Scalar value={value} />
      </div>
    );
  }
  const [lb, rb] = isArray ? ['[', ']'] : ['{', '}'];
  return (
    <div data-json-node={path} data-open={open || undefined}>
      <button
        type="button"
        aria-expanded={open}
        aria-label={`${open ? 'Fold' : 'Unfold'} ${path}`}
        onClick={() => setOpen(!open)}
        className="w-4 text-muted hover:text-foreground"
      >
        {open ? '▾' : '▸'}
      </button>
      {key}
      <span className="text-muted">{lb}</span>
      {open ? (
        <div className="ml-2 border-l border-border/70">
          {entries.slice(0, shown).map(([k, v]) => (
            <Node key={k} name={k} value={v} steps={[...steps, k]} selected={selected} onSelect={onSelect} />
          ))}
          {entries.length > shown ? (
            <button type="button" className="pl-4 text-accent hover:underline" onClick={() => setShown(shown + FIRST_ITEMS * 4)}>
              {entries.length - shown} more…
            </button>
          ) : null}
        </div>
      ) : (
        <span className="text-muted"> {isArray ? `${entries.length} items` : `${entries.length} keys`} </span>
      )}
      <span className="text-muted">{rb}</span>
    </div>
  );
}

/** The JSON of an entry: tree or raw, with copy of the selected value or its path. */
export function JsonView({ text }: { text: string }) {
  const parsed = useMemo((): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false };
    }
  }, [text]);
  const [raw, setRaw] = useState(false);
  const [steps, setSteps] = useState<PathStep[]>([]);
  const [copied, setCopied] = useState('');
  const path = jsonPath(steps);
  const copy = async (what: 'value' | 'path') => {
    const value = parsed.ok ? valueAt(parsed.value, steps) : undefined;
    const out = what === 'path' ? path : typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    setCopied((await copyText(out ?? '')) ? `Copied the ${what} of ${path}` : 'The browser did not allow copying');
  };
  const button = 'rounded border border-border px-1.5 py-0.5 hover:bg-surface';
  const tree = parsed.ok && !raw;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-1" data-testid="json-view">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        {parsed.ok ? (
          <button type="button" className={button} onClick={() => setRaw(!raw)} data-testid="json-raw-toggle" aria-pressed={raw}>
            {raw ? 'Tree' : 'Raw'}
          </button>
        ) : null}
        {tree ? (
          <>
            <code className="max-w-full truncate rounded bg-surface-muted px-1 font-mono" data-testid="json-selected-path" title="The selected node's JSONPath">
              {path}
            </code>
            <button type="button" className={button} onClick={() => void copy('value')} data-testid="json-copy-value">
              Copy value
            </button>
            <button type="button" className={button} onClick={() => void copy('path')} data-testid="json-copy-path">
              Copy path
            </button>
          </>
        ) : null}
        <span role="status" className="text-muted" data-testid="json-copied">
          {copied}
        </span>
      </div>
      {tree ? (
        <div
          data-testid="detail-json-tree"
          className="min-h-0 flex-1 overflow-auto rounded-md border border-border bg-surface-muted p-2 font-mono text-xs leading-5"
        >
          <Node value={parsed.value} steps={[]} selected={path} onSelect={setSteps} />
        </div>
      ) : (
        <LongText
          as="pre"
          text={text || '(no payload)'}
          testId="detail-json"
          fileName="payload.json"
          className="min-h-0 flex-1 overflow-auto rounded-md border border-border bg-surface-muted p-2 font-mono text-xs whitespace-pre-wrap break-all"
        />
      )}
    </div>
  );
}
