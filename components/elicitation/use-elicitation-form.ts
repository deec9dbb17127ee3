'use client';

import { useMemo, useState } from 'react';
import { describeForm, initialValues, submitForm, validateForm, type FieldValue, type FormErrors } from '@/lib/client/elicitation-form';
import type { ElicitResult } from '@/lib/protocol';

/**
 * State of a generated elicitation form: values pre-filled from defaults, errors shown once a
 * field is left (or after a submit attempt) so typing is not interrupted, and `submit` that
 * returns the accept result only when everything validates.
 */
export function useElicitationForm(requestedSchema: unknown) {
  const { fields, problems } = useMemo(() => describeForm(requestedSchema), [requestedSchema]);
  const [values, setValues] = useState(() => initialValues(fields));
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [attempted, setAttempted] = useState(false);
  const allErrors = useMemo(() => validateForm(fields, values), [fields, values]);
  const errors: FormErrors = {};
  for (const [key, message] of Object.entries(allErrors)) if (attempted || touched[key]) errors[key] = message;

  return {
    fields,
    problems,
    values,
    errors,
    setValue(key: string, value: FieldValue) {
      setValues((prev) => ({ ...prev, [key]: value }));
    },
    touch(key: string) {
      setTouched((prev) => (prev[key] ? prev : { ...prev, [key]: true }));
    },
    /** The accept result, or undefined when validation blocks it (errors become visible). */
    submit(): ElicitResult | undefined {
      setAttempted(true);
      const outcome = submitForm(fields, values);
      return outcome.ok ? outcome.result : undefined;
    },
  };
}
