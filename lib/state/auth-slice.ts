import type { AuthGate, AuthStepPreview } from '../client/auth/trace';
import type { Frame } from '../client/frames';
import type { SliceGet, SliceSet } from './slice';
import { failureFix } from './auth-steps';

/**
 * The inspector's OAuth: what the person typed for it (client id, secret, scope: in memory only,
 * never in the URL or localStorage), whether the connection authorizes, the guided mode's step
 * waiting for Continue, a link when the popup was blocked, and how the last flow ended ("why did
 * this fail": the step, the failed check, the fix). The tokens live in lib/client/auth's fetch
 * wrapper, which the connection drops on Disconnect.
 */

/** What the Authorize form holds. */
interface AuthSettings {
  clientId: string;
  clientSecret: string;
  scope: string;
  /** Pause before each step until the person continues. */
  guided: boolean;
}

/** How the last flow ended. */
interface AuthOutcome {
  ok: boolean;
  /** The step that failed (or the last one, on success). */
  step: string;
  /** Success: the scopes granted; failure: what the flow said. */
  message: string;
  /** The check that failed, and its detail. */
  check?: string;
  fix?: string;
}

interface AuthState {
  settings: AuthSettings;
  /** Connections authorize (the person pressed Authorize) until Disconnect. */
  enabled: boolean;
  /** The step about to be sent, in guided mode. */
  pending?: AuthStepPreview;
  /** The popup was blocked: the authorize URL to open with a click. */
  blockedUrl?: string;
  outcome?: AuthOutcome;
  setSettings(patch: Partial<AuthSettings>): void;
  setEnabled(on: boolean): void;
  /** Guided mode: send the step shown. */
  continueStep(): void;
  /** Guided mode: stop the flow before the step shown. */
  cancelStep(): void;
  /** The gate the flow waits on before each step. */
  gate: AuthGate;
  setBlockedUrl(url: string | undefined): void;
  /** An auth-lane frame went by: a failed check is remembered for the summary, an issued token ends the flow well. */
  observe(frame: Pick<Frame, 'auth'>): void;
  /** The flow stopped (lib/client/auth's notice "authorization failed at <step>: <why>"). */
  failed(text: string): void;
}

/** The auth part of the inspector state. */
export interface AuthSlice {
  auth: AuthState;
}

const DEFAULT_SETTINGS: AuthSettings = { clientId: '', clientSecret: '', scope: '', guided: false };

/** The slice; the waiting step's resolvers live beside the state, not in it. */
export function createAuthSlice(set: SliceSet<AuthSlice>, get: SliceGet<AuthSlice>): AuthSlice {
  let waiting: { resolve: () => void; reject: (e: Error) => void } | undefined;
  let lastFailed: { step: string; name: string; detail?: string } | undefined;
  let scopes = '';
  const update = (patch: Partial<AuthState>) => set((s) => ({ auth: { ...s.auth, ...patch } }));

  const release = (how: 'continue' | 'cancel') => {
    const w = waiting;
    const step = get().auth.pending?.step;
    waiting = undefined;
    update({ pending: undefined });
    if (how === 'continue') w?.resolve();
    else w?.reject(new Error(`cancelled before the ${step ?? 'next'} step`));
  };

  const gate: AuthGate = (preview) => {
    if (preview.step === 'authorization' || preview.step === 'resource-metadata') lastFailed = undefined;
    if (!get().auth.settings.guided) return Promise.resolve();
    // A flow left waiting (a reconnect) is stopped first: one card at a time.
    if (waiting) release('cancel');
    return new Promise<void>((resolve, reject) => {
      waiting = { resolve, reject };
      update({ pending: preview, outcome: undefined });
    });
  };

  return {
    auth: {
      settings: DEFAULT_SETTINGS,
      enabled: false,
      setSettings: (patch) => update({ settings: { ...get().auth.settings, ...patch } }),
      setEnabled(on) {
        if (!on && waiting) release('cancel');
        update({ enabled: on, outcome: undefined, blockedUrl: undefined });
      },
      continueStep: () => release('continue'),
      cancelStep: () => release('cancel'),
      gate,
      setBlockedUrl: (url) => update({ blockedUrl: url }),
      observe(frame) {
        const a = frame.auth;
        if (!a) return;
        const bad = a.checks?.find((c) => !c.ok);
        if (bad) lastFailed = { step: a.step, name: bad.name, ...(bad.detail ? { detail: bad.detail } : {}) };
        const chosen = a.step === 'authorization' ? a.checks?.find((c) => c.name.startsWith('scope: ')) : undefined;
        if (chosen) scopes = chosen.name.slice('scope: '.length);
        if ((a.step === 'token' || a.step === 'refresh') && a.checks?.some((c) => c.name === 'access token issued' && c.ok))
          update({ outcome: { ok: true, step: a.step, message: `Authorized with scope ${scopes || '(none asked)'}` } });
      },
      failed(text) {
        const m = /^authorization failed at ([\w-]+): ([\s\S]*)$/.exec(text);
        const step = m?.[1] ?? lastFailed?.step ?? 'authorization';
        const check = lastFailed ? `${lastFailed.name}${lastFailed.detail ? ` (${lastFailed.detail})` : ''}` : undefined;
        update({
          pending: undefined,
          outcome: { ok: false, step, message: m?.[2] ?? text, ...(check ? { check } : {}), fix: failureFix(step, m?.[2] ?? text) },
        });
      },
    },
  };
}
