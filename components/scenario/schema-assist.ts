import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { EditorState, type Extension } from '@codemirror/state';
import { hoverTooltip } from '@codemirror/view';
import { scenarioJsonSchema } from '@/lib/scenario/json-schema';
import { describeKeyAt, hintsAt } from '@/lib/scenario/schema-hints';

/**
 * The scenario schema in the YAML editor: completion of the keys valid at the cursor (with their
 * descriptions) and of a known field's values, and the description of a key on hover. The schema
 * is the published one (lib/scenario/json-schema.ts), built once on first use.
 */

let schema: Record<string, unknown> | undefined;
const published = () => {
  schema ??= scenarioJsonSchema();
  return schema;
};

function linesOf(state: EditorState): string[] {
  return state.doc.toString().split('\n');
}

function complete(context: CompletionContext): CompletionResult | null {
  const line = context.state.doc.lineAt(context.pos);
  const before = line.text.slice(0, context.pos - line.from);
  const found = hintsAt(published(), linesOf(context.state), line.number - 1, before);
  // Offer keys unasked only once a word is started; Ctrl-Space asks anywhere.
  if (!found || (!context.explicit && found.kind === 'key' && found.from === before.length)) return null;
  return {
    from: line.from + found.from,
    options: found.hints.map((h) => ({
      label: h.label,
      type: found.kind === 'key' ? 'property' : 'enum',
      ...(found.kind === 'key' ? { apply: `${h.label}: ` } : {}),
      ...(h.detail ? { info: h.detail } : {}),
    })),
    validFor: /^[\w$.-]*$/,
  };
}

const hover = hoverTooltip((view, pos) => {
  const line = view.state.doc.lineAt(pos);
  const found = describeKeyAt(published(), linesOf(view.state), line.number - 1, pos - line.from);
  if (!found) return null;
  return {
    pos: line.from + found.from,
    end: line.from + found.to,
    above: true,
    create: () => {
      const dom = document.createElement('div');
      dom.className = 'cm-schema-doc';
      dom.dataset.testid = 'schema-hover';
      const key = document.createElement('strong');
      key.textContent = `${found.key}: `;
      dom.append(key, found.text);
      return { dom };
    },
  };
});

/** The completion source (through the language data basicSetup's autocompletion reads) and the hover docs. */
export function schemaAssist(): Extension {
  return [EditorState.languageData.of(() => [{ autocomplete: complete }]), hover];
}
