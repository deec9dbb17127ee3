import { PrimitiveSchemaDefinitionSchema } from '../mrtr';
import { show, type Obj, type Report } from './model';
import { asRecord } from '../../shared/records';

/**
 * Elicitation requests: form schemas must be flat primitives and must not ask for secrets;
 * URL mode needs a URL a browser can open. The secret heuristic is shared with the UI.
 */

/** Phrases (as lowercase word sequences) that name credentials or payment data. */
const SECRET_PHRASES: string[][] = [
  ['password'],
  ['passwd'],
  ['passphrase'],
  ['passcode'],
  ['pwd'],
  ['secret'],
  ['token'],
  ['apikey'],
  ['api', 'key'],
  ['access', 'key'],
  ['private', 'key'],
  ['privatekey'],
  ['credential'],
  ['credentials'],
  ['bearer'],
  ['otp'],
  ['one', 'time', 'code'],
  ['verification', 'code'],
  ['mfa', 'code'],
  ['pin'],
  ['mnemonic'],
  ['seed', 'phrase'],
  ['recovery', 'phrase'],
  ['card', 'number'],
  ['cardnumber'],
  ['ccnumber'],
  ['credit', 'card'],
  ['creditcard'],
  ['debit', 'card'],
  ['cvc'],
  ['cvv'],
  ['cvv2'],
  ['cvc2'],
  ['security', 'code'],
  ['iban'],
  ['routing', 'number'],
  ['bank', 'account'],
  ['sort', 'code'],
  ['ssn'],
  ['social', 'security'],
];

/** Split an identifier or sentence into lowercase words (camelCase, snake_case, kebab-case, spaces). */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function findPhrase(ws: string[]): string | undefined {
  for (const phrase of SECRET_PHRASES) {
    for (let i = 0; i + phrase.length <= ws.length; i++) if (phrase.every((p, j) => ws[i + j] === p)) return phrase.join(' ');
  }
  return undefined;
}

/**
 * Why a form field looks like a secret (the matched phrase and where), or undefined. Looks at
 * the property name, title, description and format.
 */
export function secretHint(name: string, prop: unknown): string | undefined {
  const p = asRecord(prop) ?? {};
  if (typeof p.format === 'string' && /password|secret/i.test(p.format)) return `format "${p.format}"`;
  if (p.writeOnly === true) return 'writeOnly';
  const fields: [string, unknown][] = [
    ['name', name],
    ['title', p.title],
    ['description', p.description],
  ];
  for (const [where, text] of fields) {
    if (typeof text !== 'string') continue;
    const hit = findPhrase(words(text));
    if (hit) return `"${hit}" in the ${where}`;
  }
  return undefined;
}

function checkDefault(key: string, prop: Obj, path: string, report: Report): void {
  if (!('default' in prop)) return;
  const d = prop.default;
  const options = Array.isArray(prop.enum) ? prop.enum : Array.isArray(prop.oneOf) ? prop.oneOf.map((o) => asRecord(o)?.const) : undefined;
  if (options && !options.includes(d)) report('elicitation-schema-invalid', `default ${show(d)} of "${key}" is not one of its options`, `${path}.default`);
  const items = asRecord(prop.items);
  const itemOptions = Array.isArray(items?.enum) ? items.enum : Array.isArray(items?.anyOf) ? items.anyOf.map((o) => asRecord(o)?.const) : undefined;
  if (prop.type === 'array' && Array.isArray(d) && itemOptions && d.some((x) => !itemOptions.includes(x))) {
    report('elicitation-schema-invalid', `default ${show(d)} of "${key}" lists values outside its items`, `${path}.default`);
  }
}

/** Form-mode `requestedSchema`. */
function checkForm(params: Obj, path: string, report: Report): void {
  const schema = asRecord(params.requestedSchema);
  const base = `${path}.requestedSchema`;
  if (schema?.type !== 'object' || !asRecord(schema.properties)) {
    report('elicitation-schema-invalid', 'requestedSchema must be {type: "object", properties: {...}}', base);
    return;
  }
  const props = asRecord(schema.properties)!;
  for (const [key, prop] of Object.entries(props)) {
    const at = `${base}.properties.${key}`;
    const hint = secretHint(key, prop);
    if (hint)
      report(
        'elicitation-secret',
        `Form field "${key}" looks like a secret (${hint}); servers must not ask for passwords, tokens, API keys or payment data in form mode (use URL mode)`,
        at,
      );
    const parsed = PrimitiveSchemaDefinitionSchema.safeParse(prop);
    if (!parsed.success) {
      report(
        'elicitation-schema-invalid',
        `"${key}" is not a primitive property (string, number, integer, boolean, enum or multi-select of strings): ${show(prop)}`,
        at,
      );
      continue;
    }
    const p = asRecord(prop)!;
    checkDefault(key, p, at, report);
    if (Array.isArray(p.enumNames)) report('elicitation-enum-names-deprecated', `"${key}" uses enumNames; use oneOf: [{const, title}]`, `${at}.enumNames`);
  }
  const required = schema.required;
  if (required !== undefined) {
    if (!Array.isArray(required)) report('elicitation-schema-invalid', 'required must be an array of property names', `${base}.required`);
    else
      for (const name of required)
        if (typeof name !== 'string' || !(name in props))
          report('elicitation-schema-invalid', `required names ${show(name)}, which is not a property`, `${base}.required`);
  }
}

/** URL mode: a real http(s) URL, no `elicitationId`. */
function checkUrl(params: Obj, path: string, report: Report): void {
  if ('elicitationId' in params)
    report(
      'elicitation-legacy-field',
      'elicitationId and notifications/elicitation/complete are gone; completion is learned by retrying',
      `${path}.elicitationId`,
    );
  const raw = params.url;
  let url: URL | undefined;
  try {
    url = typeof raw === 'string' ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  if (!url) {
    report('elicitation-url-invalid', `url ${show(raw)} is not a valid absolute URL`, `${path}.url`);
    return;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    report('elicitation-url-invalid', `url scheme "${url.protocol}" cannot be opened safely in a browser; use https`, `${path}.url`);
  if (url.username || url.password)
    report('elicitation-url-invalid', 'url embeds credentials (user:password@), which hides the real host from the user', `${path}.url`);
}

/** Check the params of one `elicitation/create` input request. */
export function checkElicitation(params: Obj, path: string, report: Report): void {
  if (params.mode === 'url') checkUrl(params, path, report);
  else if (params.mode === undefined || params.mode === 'form') checkForm(params, path, report);
}
