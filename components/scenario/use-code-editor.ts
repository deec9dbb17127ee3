'use client';

import { useEffect, useRef } from 'react';
import { basicSetup } from 'codemirror';
import { EditorSelection, EditorState, type Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { parseScenario, type ScenarioIssue } from '@/lib/scenario/loader';
import { schemaAssist } from './schema-assist';

/**
 * A CodeMirror 6 editor for scenario YAML. Its lint source runs the same parser the server
 * uses (`parseScenario`, pure TypeScript) a moment after typing stops, so every error shows at
 * its line as the author types; the issues are also reported to the page for its list. The
 * scenario's JSON Schema completes keys and values and explains keys on hover (schema-assist.ts).
 */

interface CodeEditorOptions {
  /** Initial text; a new `revision` replaces the document with it. */
  text: string;
  revision: number;
  readOnly: boolean;
  /** File name used in issues (`demo-copy.yaml`). */
  sourceName: string;
  onChange: (text: string) => void;
  onIssues: (issues: { errors: ScenarioIssue[]; warnings: ScenarioIssue[] }) => void;
}

/** Pause after the last keystroke before validating again. */
const LINT_DELAY_MS = 250;

/** Issues as CodeMirror diagnostics: from the issue's column to the end of its line. */
export function toDiagnostics(doc: Text, issues: ScenarioIssue[], severity: Diagnostic['severity']): Diagnostic[] {
  return issues.map((issue) => {
    const line = doc.line(Math.min(Math.max(1, issue.line), doc.lines));
    const from = line.from + Math.min(Math.max(0, issue.column - 1), line.length);
    return { from, to: Math.max(from, line.to), severity, source: issue.path || undefined, message: issue.message };
  });
}

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--surface)', color: 'var(--foreground)', fontSize: '13px', height: '100%' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)' },
  '.cm-gutters': { backgroundColor: 'var(--surface-muted)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent) 8%, transparent)' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--foreground)' },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--foreground)', border: '1px solid var(--border)' },
  '.cm-schema-doc': { maxWidth: '28rem', padding: '4px 8px', fontFamily: 'var(--font-sans)', fontSize: '12px' },
  '.cm-completionInfo': { maxWidth: '24rem' },
});

/** Token colours for both colour schemes (`light-dark()` follows the page's color-scheme). */
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'light-dark(#1d4ed8, #93c5fd)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'light-dark(#047857, #6ee7b7)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'light-dark(#b45309, #fcd34d)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'light-dark(#5b6a80, #94a3b8)', fontStyle: 'italic' },
  { tag: [tags.meta, tags.typeName, tags.labelName], color: 'light-dark(#7c3aed, #c4b5fd)' },
  { tag: [tags.punctuation, tags.separator, tags.squareBracket, tags.brace], color: 'light-dark(#475569, #cbd5e1)' },
  { tag: tags.invalid, color: 'light-dark(#b91c1c, #f87171)' },
]);

/** Mounts the editor into the returned ref; `goToLine` moves the cursor there. */
export function useCodeEditor(options: CodeEditorOptions) {
  const ref = useRef<HTMLDivElement | null>(null);
  const view = useRef<EditorView | null>(null);
  const callbacks = useRef(options);
  callbacks.current = options;
  const { text, revision, readOnly, sourceName } = options;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new `revision` is what replaces the document with `text`; `text` alone must not, or every keystroke would rebuild the editor
  useEffect(() => {
    if (!ref.current) return;
    const lint = linter(
      (v) => {
        const parsed = parseScenario(v.state.doc.toString(), sourceName);
        const errors = parsed.ok ? [] : parsed.errors;
        const warnings = parsed.ok ? parsed.warnings : [];
        callbacks.current.onIssues({ errors, warnings });
        return [...toDiagnostics(v.state.doc, errors, 'error'), ...toDiagnostics(v.state.doc, warnings, 'warning')];
      },
      { delay: LINT_DELAY_MS },
    );
    const created = new EditorView({
      parent: ref.current,
      state: EditorState.create({
        doc: text,
        extensions: [
          basicSetup,
          yaml(),
          syntaxHighlighting(highlight),
          lintGutter(),
          lint,
          schemaAssist(),
          theme,
          // Long lines (descriptions, templates) wrap instead of scrolling sideways.
          EditorView.lineWrapping,
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': `${sourceName} (scenario YAML)`, 'data-testid': 'scenario-editor-content' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) callbacks.current.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    // A read-only editor has no focusable content: the scroller takes focus so keys can scroll it.
    if (readOnly) created.scrollDOM.tabIndex = 0;
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // The editor owns the text between revisions: `onChange` reports each keystroke upward.
  }, [revision, readOnly, sourceName]);

  function goToLine(line: number, column = 1): void {
    const v = view.current;
    if (!v) return;
    const l = v.state.doc.line(Math.min(Math.max(1, line), v.state.doc.lines));
    const pos = l.from + Math.min(Math.max(0, column - 1), l.length);
    v.dispatch({ selection: EditorSelection.cursor(pos), effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
    v.focus();
  }

  return { ref, goToLine };
}
