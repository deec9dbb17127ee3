import { writeFileSync } from 'node:fs';
import type { CDPSession, Page } from 'playwright-core';

/**
 * Opt-in CPU profile of the page (`LOUPE_E2E_PROFILE=1`): where the main thread's long tasks
 * went. Used to find what makes the hostile-flood probe miss its 200 ms; off by default (a
 * profile slows the page it measures).
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  parent?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const mode = process.env.LOUPE_E2E_PROFILE;

/** The trace's categories; `LOUPE_E2E_TRACE_MORE=cat1,cat2` adds more (GC, mojo, blink) when a task shows nothing inside. */
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'v8', 'blink.user_timing', '__metadata'];

/** A trace of the page's main thread, for `LOUPE_E2E_PROFILE=trace`. */
interface Tracing {
  page: Page;
}
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { functionName?: string; url?: string; lineNumber?: number; columnNumber?: number; type?: string } };
}

/** Start sampling (every 200 µs) or tracing; a no-op unless profiling. */
export async function startProfile(page: Page): Promise<CDPSession | Tracing | undefined> {
  if (mode === 'trace') {
    await page
      .context()
      .browser()
      ?.startTracing(page, { categories: [...TRACE_CATEGORIES, ...(process.env.LOUPE_E2E_TRACE_MORE ? process.env.LOUPE_E2E_TRACE_MORE.split(',') : [])] });
    return { page };
  }
  if (mode !== '1') return undefined;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return cdp;
}

const nameOf = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop() ?? ''}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;

/** Stop and print each busy stretch over `longMs` with its heaviest functions (self and inclusive time). */
export async function stopProfile(cdp: CDPSession | Tracing | undefined, label: string, longMs = 50): Promise<void> {
  if (!cdp) return;
  if ('page' in cdp) return stopTrace(cdp.page, label, longMs);
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  await cdp.detach();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) (byId.get(c) as ProfileNode).parent = n.id;
  const stack = (id: number) => {
    const out: ProfileNode[] = [];
    for (let n = byId.get(id); n; n = n.parent === undefined ? undefined : byId.get(n.parent)) out.push(n);
    return out;
  };
  const lines: string[] = [];
  let run: { start: number; end: number; samples: [number, number][] } | undefined;
  let t = 0;
  const flush = () => {
    if (!run || run.end - run.start < longMs * 1000) return;
    const self = new Map<string, number>();
    const incl = new Map<string, number>();
    for (const [id, dt] of run.samples) {
      const s = stack(id);
      const top = s[0];
      if (top) self.set(nameOf(top), (self.get(nameOf(top)) ?? 0) + dt);
      for (const name of new Set(s.map(nameOf))) incl.set(name, (incl.get(name) ?? 0) + dt);
    }
    lines.push(
      `  task ${((run.end - run.start) / 1000).toFixed(0)} ms at +${(run.start / 1000).toFixed(0)} ms`,
      '    self:',
      ...heaviest(self, 12),
      '    inclusive:',
      ...heaviest(incl, 25),
    );
  };
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i + 1] ?? 0;
    t += profile.timeDeltas[i] ?? 0;
    const idle = byId.get(id)?.callFrame.functionName === '(idle)';
    if (idle) {
      flush();
      run = undefined;
    } else {
      run ??= { start: t, end: t, samples: [] };
      run.end = t + dt;
      run.samples.push([id, dt]);
    }
  });
  flush();
  // The whole run's heaviest functions (inclusive), wherever their time fell.
  const all = new Map<string, number>();
  const selfAll = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    selfAll.set(nameOf(node), (selfAll.get(nameOf(node)) ?? 0) + dt);
    for (const name of new Set(stack(id).map(nameOf))) all.set(name, (all.get(name) ?? 0) + dt);
  });
  lines.push('  whole run, self:', ...heaviest(selfAll, 30), '  whole run, inclusive:', ...heaviest(all, 60));
  console.log(`profile ${label}: ${lines.length ? '\n' : 'no task over '}${lines.length ? lines.join('\n') : `${longMs} ms`}`);
}

/** The `n` names with the most time (µs), heaviest first, one line each in ms. */
function heaviest(times: Map<string, number>, n: number): string[] {
  const top = [...times].sort((a, b) => b[1] - a[1]).slice(0, n);
  return top.map(([name, us]) => `      ${(us / 1000).toFixed(1)} ms  ${name}`);
}

/** Each main-thread task over `longMs`: wall and thread time (a loaded machine shows as wall ≫ thread), and what ran inside. */
async function stopTrace(page: Page, label: string, longMs: number): Promise<void> {
  const buf = await page.context().browser()?.stopTracing();
  if (!buf) return;
  // `LOUPE_E2E_TRACE_DIR=dir` keeps each trace (trace-<label>.json) for chrome://tracing or Perfetto.
  if (process.env.LOUPE_E2E_TRACE_DIR) writeFileSync(`${process.env.LOUPE_E2E_TRACE_DIR}/trace-${label}.json`, buf);
  const events = (JSON.parse(buf.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  // The page's own main thread: the one running Loupe's chunks (an app's sandbox frames may have their own renderer).
  const ours = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (mains.has(key) && e.args?.data?.url?.includes('/_next/')) ours.set(key, (ours.get(key) ?? 0) + 1);
  }
  const main = [...ours].sort((a, b) => b[1] - a[1])[0]?.[0];
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined);
  const tasks = onMain.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
  const lines: string[] = [];
  const t0 = tasks[0]?.ts ?? 0;
  // Ranked by thread time: on a loaded machine wall time is mostly waiting for a core.
  const worst = tasks
    .filter((t) => (t.dur ?? 0) >= longMs * 1000)
    .sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))
    .slice(0, 10);
  for (const task of worst) {
    const end = task.ts + (task.dur ?? 0);
    const inside = new Map<string, number>();
    for (const e of onMain) {
      if (e === task || e.ts < task.ts || e.ts >= end || e.pid !== task.pid || e.tid !== task.tid) continue;
      const d = e.args?.data;
      const key =
        d?.functionName || d?.url
          ? `${e.name} ${d.functionName ?? ''} ${(d.url ?? '').split('/').pop()}:${d.lineNumber ?? ''}:${d.columnNumber ?? ''}`
          : d?.type
            ? `${e.name} ${d.type}`
            : e.name;
      inside.set(key, (inside.get(key) ?? 0) + (e.tdur ?? e.dur ?? 0));
    }
    lines.push(
      `  task ${((task.dur ?? 0) / 1000).toFixed(0)} ms (thread ${((task.tdur ?? 0) / 1000).toFixed(0)} ms) at +${((task.ts - t0) / 1000).toFixed(0)} ms`,
      ...heaviest(inside, 10),
    );
  }
  console.log(
    `trace ${label}: ${tasks.length} tasks, thread time ${(tasks.reduce((n, t) => n + (t.tdur ?? 0), 0) / 1000).toFixed(0)} ms, ${lines.length ? `the 10 longest in thread time of those over ${longMs} ms wall:\n${lines.join('\n')}` : `none over ${longMs} ms`}`,
  );
}
