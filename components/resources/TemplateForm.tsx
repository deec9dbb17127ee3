'use client';

import { useState } from 'react';
import { expandTemplate, templateVariables, type ResourceTemplate } from '@/lib/client/resources';
import { ArgumentInputs } from './ArgumentInputs';

/** A resource template's variables (with completion), the URI they expand to, and Read. */
export function TemplateForm({ template, onRead }: { template: ResourceTemplate; onRead(uri: string): void }) {
  const names = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = expandTemplate(template.uriTemplate, values);
  const complete = names.every((n) => (values[n] ?? '') !== '');
  return (
    <form
      data-testid="template-form"
      data-template={template.uriTemplate}
      className="space-y-2 rounded-md border border-border p-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (complete) onRead(uri);
      }}
    >
      <ArgumentInputs names={names} values={values} onChange={setValues} completionRef={{ type: 'ref/resource', uri: template.uriTemplate }} />
      <p className="font-mono text-xs break-all" data-testid="expanded-uri">
        {uri}
      </p>
      <button type="submit" data-testid="read-template" disabled={!complete} className="text-xs text-accent hover:underline disabled:opacity-50">
        Read
      </button>
    </form>
  );
}
