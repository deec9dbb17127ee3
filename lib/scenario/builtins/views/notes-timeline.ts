import { App, type McpUiHostCapabilities, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';

/**
 * The view of the demo's `notes_timeline` tool (`ui://notes/timeline.html`), built on the
 * ext-apps `App` class. scripts/build-apps.mjs bundles it into notes-timeline.html at build
 * time, so the resource is one self-contained document: it needs no CSP domain at all.
 *
 * It draws the notes of the tool result's structuredContent on a timeline, and opening a note
 * calls the app-only `notes_detail` tool back through the host. It also exercises the rest of
 * the bridge a host should support: model context, logging, display mode and open-link.
 *
 * Each of those is optional for a host: the view only calls what `ui/initialize` declared in
 * `hostCapabilities` (and offers fullscreen only when `hostContext.availableDisplayModes` lists
 * it), so a host without, say, `updateModelContext` never sees a request it must refuse.
 */

interface NoteRef {
  id: string;
  title: string;
  createdAt: string;
}

const app = new App({ name: 'loupe-notes-timeline', version: '0.1.0' }, { availableDisplayModes: ['inline', 'fullscreen'] }, { autoResize: true });
const el = (id: string) => document.getElementById(id) as HTMLElement;
const SVG = 'http://www.w3.org/2000/svg';
let notes: NoteRef[] = [];
let selected: string | undefined;
let displayMode = 'inline';

/** What the host declared; empty until `ui/initialize` answered. */
const caps = (): McpUiHostCapabilities => app.getHostCapabilities() ?? {};

/** Show the optional controls the host can serve, hide the rest. */
function showControls(ctx: McpUiHostContext | undefined): void {
  el('fullscreen').hidden = !ctx?.availableDisplayModes?.includes('fullscreen');
  el('spec').hidden = !caps().openLinks;
}

function status(text: string, error = false): void {
  const s = el('status');
  s.textContent = text;
  s.className = error ? 'error' : '';
}

function applyTheme(theme: unknown): void {
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
}

function isNoteRef(n: unknown): n is NoteRef {
  const r = n as Partial<NoteRef> | null;
  return !!r && typeof r.id === 'string' && typeof r.title === 'string' && typeof r.createdAt === 'string';
}

function setAttributes(node: Element, attributes: Record<string, string>): void {
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
}

function drawTimeline(): void {
  const svg = el('timeline');
  svg.replaceChildren();
  const width = 600;
  svg.setAttribute('viewBox', `0 0 ${width} 96`);
  const axis = document.createElementNS(SVG, 'line');
  setAttributes(axis, { x1: '20', x2: String(width - 20), y1: '48', y2: '48', class: 'axis' });
  svg.append(axis);
  const times = notes.map((n) => Date.parse(n.createdAt)).filter(Number.isFinite);
  const min = Math.min(...times);
  const span = Math.max(Math.max(...times) - min, 1);
  notes.forEach((n, i) => {
    const x = 20 + ((Date.parse(n.createdAt) - min) / span) * (width - 40);
    const dot = document.createElementNS(SVG, 'circle');
    setAttributes(dot, { cx: String(x), cy: '48', r: '8', class: 'dot', 'data-dot': n.id, tabindex: '0', 'aria-pressed': String(n.id === selected) });
    dot.addEventListener('click', () => void openNote(n.id));
    const title = document.createElementNS(SVG, 'title');
    title.textContent = `${n.title} (${n.createdAt.slice(0, 10)})`;
    dot.append(title);
    const label = document.createElementNS(SVG, 'text');
    setAttributes(label, { x: String(x), y: i % 2 ? '80' : '26', 'text-anchor': 'middle' });
    label.textContent = n.createdAt.slice(5, 10);
    svg.append(dot, label);
  });
}

function drawList(): void {
  const list = el('notes');
  list.replaceChildren(
    ...notes.map((n) => {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.note = n.id;
      button.setAttribute('aria-pressed', String(n.id === selected));
      const time = document.createElement('time');
      time.dateTime = n.createdAt;
      time.textContent = n.createdAt.slice(0, 10);
      button.append(time, n.title);
      button.addEventListener('click', () => void openNote(n.id));
      li.append(button);
      return li;
    }),
  );
}

function render(): void {
  drawTimeline();
  drawList();
}

/** Ask the host to call the app-only notes_detail tool and show what comes back. */
async function openNote(id: string): Promise<void> {
  selected = id;
  render();
  const detail = el('detail');
  detail.hidden = false;
  detail.textContent = `Loading ${id}…`;
  if (!caps().serverTools) {
    detail.textContent = 'This host does not call server tools for apps, so the note cannot be loaded.';
    return;
  }
  try {
    const result = await app.callServerTool({ name: 'notes_detail', arguments: { noteId: id } });
    const note = (result.structuredContent as { note?: { title?: string; body?: string } } | undefined)?.note;
    const text = result.content?.find((c) => c.type === 'text') as { text?: string } | undefined;
    detail.replaceChildren();
    const h = document.createElement('strong');
    h.textContent = note?.title ?? id;
    const p = document.createElement('p');
    p.dataset.testid = 'detail-body';
    p.textContent = note?.body ?? text?.text ?? '(no text)';
    if (result.isError) p.className = 'error';
    detail.append(h, p);
  } catch (error) {
    detail.textContent = `The host refused or failed: ${error instanceof Error ? error.message : String(error)}`;
    detail.className = 'error';
    return;
  }
  await tellHost(id);
}

/** Optional extras after a note opened: each only when the host declared it, and never in the way of the note. */
async function tellHost(id: string): Promise<void> {
  const c = caps();
  if (c.updateModelContext?.text) {
    await app.updateModelContext({ content: [{ type: 'text', text: `The user opened note ${id} on the timeline.` }] }).catch((error: unknown) => {
      status(`The host refused the model context: ${error instanceof Error ? error.message : String(error)}`, true);
    });
  }
  if (c.logging) await app.sendLog({ level: 'info', logger: 'notes-timeline', data: `opened ${id}` }).catch(() => undefined);
}

app.ontoolinputpartial = () => status('Receiving the arguments…');
app.ontoolinput = (p) => {
  const query = (p.arguments as { query?: unknown } | undefined)?.query;
  status(typeof query === 'string' && query ? `Loading notes matching “${query}”…` : 'Loading notes…');
};
app.ontoolresult = (r) => {
  const sc = r.structuredContent as { notes?: unknown[] } | undefined;
  if (r.isError || !Array.isArray(sc?.notes)) {
    status(r.isError ? 'The tool failed.' : 'The result has no notes to draw.', true);
    return;
  }
  notes = sc.notes.filter(isNoteRef).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  status(`${notes.length} note${notes.length === 1 ? '' : 's'}`);
  render();
};
app.ontoolcancelled = (p) => status(`Cancelled${p.reason ? `: ${p.reason}` : ''}`, true);
app.onhostcontextchanged = (ctx) => {
  applyTheme(ctx.theme);
  if (ctx.displayMode) displayMode = ctx.displayMode;
  if (ctx.availableDisplayModes) showControls(ctx);
};
app.onteardown = async () => ({});

el('fullscreen').addEventListener('click', async () => {
  const want = displayMode === 'fullscreen' ? 'inline' : 'fullscreen';
  const r = await app.requestDisplayMode({ mode: want });
  displayMode = r.mode;
  el('fullscreen').textContent = displayMode === 'fullscreen' ? 'Exit fullscreen' : 'Fullscreen';
});
el('spec').addEventListener('click', () => {
  if (caps().openLinks) void app.openLink({ url: 'https://modelcontextprotocol.io/extensions/apps/overview' });
});

app.connect().then(
  () => {
    applyTheme(app.getHostContext()?.theme);
    showControls(app.getHostContext());
    if (el('status').textContent === 'Waiting for the host…') status('Connected; waiting for the tool result…');
  },
  (error: unknown) => status(`Could not connect to the host: ${error instanceof Error ? error.message : String(error)}`, true),
);
