import { act, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';

/**
 * A tiny DOM test kit for component tests under happy-dom (no @testing-library): render into a
 * real root inside `act`, and fire the events React listens to the way a browser would
 * (native value setters so React's value tracking sees the change).
 *
 *   // @vitest-environment happy-dom
 *   const view = render(<ElicitationForm ... />);
 *   await type(view.get('input[name="email"]'), 'ada@example.com');
 *   await click(view.get('button[data-action="accept"]'));
 *   afterEach(cleanup);
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mounted = new Set<{ root: Root; container: HTMLElement }>();

/** A rendered element and the queries over its container. */
export interface Rendered {
  container: HTMLElement;
  /** First match or throw (with the selector in the message). */
  get<T extends Element = HTMLElement>(selector: string): T;
  query<T extends Element = HTMLElement>(selector: string): T | null;
  all<T extends Element = HTMLElement>(selector: string): T[];
  /** Visible text of the container (or of the first match). */
  text(selector?: string): string;
  rerender(element: ReactElement): void;
  unmount(): void;
}

/** Render `element` into a fresh container attached to the document. */
export function render(element: ReactElement): Rendered {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  const entry = { root, container };
  mounted.add(entry);
  act(() => root.render(element));
  const get = <T extends Element>(selector: string): T => {
    const el = container.querySelector<T>(selector);
    if (!el) throw new Error(`Failed to find ${selector} in: ${container.innerHTML.slice(0, 2000)}`);
    return el;
  };
  return {
    container,
    get,
    query: (selector) => container.querySelector(selector),
    all: (selector) => [...container.querySelectorAll(selector)] as never,
    text: (selector) => (selector ? get(selector) : container).textContent ?? '',
    rerender: (next) => act(() => root.render(next)),
    unmount() {
      act(() => root.unmount());
      container.remove();
      mounted.delete(entry);
    },
  };
}

/** Unmount everything rendered so far (call in afterEach). */
export function cleanup(): void {
  for (const { root, container } of [...mounted]) {
    act(() => root.unmount());
    container.remove();
  }
  mounted.clear();
}

/** Click an element (buttons, checkboxes, radios). */
export async function click(el: Element): Promise<void> {
  await act(async () => {
    (el as HTMLElement).click();
  });
}

/** Replace the value of a text input or textarea as typing would, then fire input. */
export async function type(el: Element, value: string): Promise<void> {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Choose an option of a select. */
export async function choose(el: Element, value: string): Promise<void> {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** Leave a field (React's onBlur listens to focusout). */
export async function blur(el: Element): Promise<void> {
  await act(async () => {
    el.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  });
}
