import { isNode, visit, type Document } from 'yaml';
import type { ScenarioIssue } from './issues';
import type { Locator } from './yaml-locator';

/**
 * Explicit YAML tags. A scenario is JSON data, but the yaml package resolves YAML 1.1 tags even
 * under the core schema: `!!binary` became a Buffer (served as {"type":"Buffer",...}, or failing
 * every call once the result was frozen), `!!set` and `!!omap` a Set and a Map (served as `{}`),
 * and an unknown `!foo` only a warning. Tags that name a plain JSON type (`!!str 5`) are kept
 * where they fit their value; every other one is an error where it is written.
 */

const YAML_TAG = 'tag:yaml.org,2002:';
const JSON_TYPES = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `${YAML_TAG}${t}`));

/** What to write instead, for the YAML 1.1 types an author may reach for. */
const INSTEAD: Record<string, string> = {
  binary: 'give binary data as a base64 string',
  set: 'write a list',
  omap: 'write a mapping',
  pairs: 'write a mapping or a list',
  timestamp: 'write the time as a string',
};

/** A tag as an author writes it: `!!binary` rather than `tag:yaml.org,2002:binary`. */
const shownTag = (tag: string) => (tag.startsWith(YAML_TAG) ? `!!${tag.slice(YAML_TAG.length)}` : tag);

/**
 * Every explicit tag in `doc` that is not a plain JSON type, at the tag, and every JSON type tag
 * its value does not fit (`!!int abc`, which the yaml package keeps as a string with a warning).
 */
export function tagIssues(doc: Document, text: string, source: string, locator: Locator): ScenarioIssue[] {
  const issues: ScenarioIssue[] = [];
  for (const warning of doc.warnings) {
    const tag = warning.code === 'TAG_RESOLVE_FAILED' ? /^Unresolved tag: (\S+)/.exec(warning.message)?.[1] : undefined;
    if (tag === undefined || !JSON_TYPES.has(tag)) continue; // any other tag is reported below
    issues.push({
      source,
      ...locator.position(warning.pos[0]),
      path: '',
      message: `The YAML tag ${shownTag(tag)} does not fit its value: write the value in that type, or remove the tag`,
    });
  }
  visit(doc, {
    Node(_, node) {
      const tag = isNode(node) ? node.tag : undefined;
      if (tag === undefined || JSON_TYPES.has(tag)) return;
      const shown = shownTag(tag);
      const instead = INSTEAD[tag.slice(YAML_TAG.length)] ?? 'remove the tag';
      const start = node.range?.[0] ?? 0;
      const at = locator.position(tagStart(text, start) ?? start);
      issues.push({
        source,
        ...at,
        path: '',
        message: `The YAML tag ${shown} is not allowed: a scenario is JSON data, so only !!str, !!int, !!float, !!bool, !!null, !!map and !!seq may be written; ${instead}`,
      });
    },
  });
  return issues;
}

/**
 * Where the tag of a node starting at `valueStart` is written: the node's range begins after its
 * properties (`!!binary &a aGVs`), so the tag is the last `!…` token before it.
 */
function tagStart(text: string, valueStart: number): number | undefined {
  const from = Math.max(0, valueStart - 512);
  const before = text.slice(from, valueStart);
  const match = /!(?:<[^>]*>|[^\s,[\]{}]*)(?:\s+&[^\s,[\]{}]+)?\s*$/.exec(before);
  return match ? from + match.index : undefined;
}
