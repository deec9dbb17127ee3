import type { HTMLAttributes } from 'react';

/** Status pills: one palette, so a state reads the same in the inspector and the control room. */

const TONE = {
  neutral: 'bg-surface-muted text-muted',
  accent: 'bg-accent/15 text-accent',
  success: 'bg-success/15 text-success',
  warning: 'bg-amber-500/15 text-warning',
  danger: 'bg-danger/15 text-danger',
} as const;

const SIZE = {
  /** Inside rows and cards. */
  sm: 'px-2 py-0.5',
  /** The status of a whole page (connection, live feed). */
  md: 'px-2.5 py-0.5 text-xs font-medium',
} as const;

/** A colour of the palette. */
export type Tone = keyof typeof TONE;

interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: Tone;
  size?: keyof typeof SIZE;
  'data-testid'?: string;
  'data-state'?: string;
}

/** A rounded pill in a tone of the palette; extra classes (width, text size) come through `className`. */
export function Badge({ tone = 'neutral', size = 'sm', className = '', ...rest }: BadgeProps) {
  return <span className={`rounded-full ${SIZE[size]} ${TONE[tone]} ${className}`} {...rest} />;
}
