import { CACHEABLE_METHODS, RESULT_TYPE } from '../constants';
import { resultTypeOf } from '../results';
import { show, type Report, type View } from './model';

/** `ttlMs` and `cacheScope` on the complete results of discover and the list/read methods. */

/** Whether the method's `complete` results must carry cache hints. */
function isCacheable(method: string): boolean {
  return (CACHEABLE_METHODS as readonly string[]).includes(method);
}

/** Cache hints on cacheable complete results; none on input_required. */
export function checkCaching(v: View, report: Report): void {
  const r = v.result;
  if (!v.modern || !r) return;
  const type = resultTypeOf(r);
  const base = 'response.body.result';
  if (type === RESULT_TYPE.inputRequired) {
    if ('ttlMs' in r || 'cacheScope' in r) report('cache-hints-uncacheable', 'input_required results are not cacheable and carry no ttlMs/cacheScope', base);
    return;
  }
  if (type !== RESULT_TYPE.complete || !isCacheable(v.method)) return;
  if (!('ttlMs' in r)) report('cache-hints-missing', `${v.method} results must carry ttlMs (integer ms, 0 = immediately stale)`, `${base}.ttlMs`);
  else if (typeof r.ttlMs !== 'number' || !Number.isInteger(r.ttlMs) || r.ttlMs < 0)
    report('cache-hints-invalid', `ttlMs must be an integer >= 0, got ${show(r.ttlMs)}`, `${base}.ttlMs`);
  if (!('cacheScope' in r)) report('cache-hints-missing', `${v.method} results must carry cacheScope ("public" or "private")`, `${base}.cacheScope`);
  else if (r.cacheScope !== 'public' && r.cacheScope !== 'private')
    report('cache-hints-invalid', `cacheScope must be "public" or "private", got ${show(r.cacheScope)}`, `${base}.cacheScope`);
}
