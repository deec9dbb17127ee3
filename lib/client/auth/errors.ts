import type { AuthStepName } from './trace';

/** An authorization flow that stopped: the step and why, for the user and the "why did this fail" summary. */
export class AuthError extends Error {
  constructor(
    readonly step: AuthStepName,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}
