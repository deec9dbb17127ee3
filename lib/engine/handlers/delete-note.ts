import { ERROR, REPLAY_STORE_FULL } from '../../protocol';
import type { InputRequestSpec } from '../../scenario/behavior-schema';
import { fail, ok, type EngineCore, type Outcome, type RequestContext } from '../context';
import { canAsk, capabilityFor, checkResponse, requestDigest } from '../mrtr';
import type { StatePayload } from '../request-state';
import type { Handler } from './index';
import { notesOf, setNotes } from './list-notes';
import { toolError, toolResult } from './result';

/**
 * `delete_note`: a destructive tool confirmed through MRTR with a one-time nonce carried in the
 * integrity-protected requestState:
 *
 * | answer  | server action              | nonce                 | retry later       | result           |
 * | accept  | validate content, delete   | consumed with delete  | no                | deleted: true    |
 * | decline | complete refusal result    | consumed, no delete   | no                | deleted: false   |
 * | cancel  | stop safely                | not consumed          | yes, until expiry | deleted: false   |
 *
 * Accept with `confirm: false` is a refusal and is handled like decline. A retry that carries
 * the requestState but no answer is asked again with the very same requestState (same nonce,
 * same expiry), so asking again can never extend a confirmation's lifetime.
 */

const KEY = 'confirm_delete';

function confirmRequest(title: string): InputRequestSpec {
  return {
    method: 'elicitation/create',
    params: {
      mode: 'form',
      message: `Delete note "${title}"? This cannot be undone.`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Delete it' } }, required: ['confirm'] },
    },
  };
}

function askAgain(request: InputRequestSpec, requestState: string): Outcome {
  return ok({ resultType: 'input_required', inputRequests: { [KEY]: request }, requestState });
}

const replayRefused = () => fail(ERROR.invalidParams, 'Invalid requestState: requestState already used (replay refused)');

/**
 * One caller may hold at most a tenth of the replay store (at least 10 entries): the store is shared, and without a
 * quota one principal declining in a loop would fill it and block everyone's confirmations until
 * its entries expire. Counted per engine (a fleet sharing one database gives each instance its own
 * count, so a caller may hold up to a tenth per instance).
 */
const QUOTA_SHARE = 10;
const spentBy = new WeakMap<EngineCore, Map<string, number[]>>();

/** The unexpired nonces `principal` spent in this engine (expiry times), pruned. */
function spentNonces(core: EngineCore, principal: string, now: number, limit: number): number[] {
  const byPrincipal = spentBy.get(core) ?? new Map<string, number[]>();
  spentBy.set(core, byPrincipal);
  // Callers who never come back: sweep them once there are more than the store could hold.
  if (byPrincipal.size > limit) for (const [p, expiries] of byPrincipal) if (expiries.every((e) => e <= now)) byPrincipal.delete(p);
  const live = (byPrincipal.get(principal) ?? []).filter((e) => e > now);
  if (live.length) byPrincipal.set(principal, live);
  else byPrincipal.delete(principal);
  return live;
}

/**
 * Spend the nonce: the scenario's own bound is checked first because a SQLite store is shared by
 * every scenario of the process and may be configured with a larger bound.
 */
async function consumeNonce(core: EngineCore, payload: StatePayload, principal: string, now: number): Promise<Outcome | undefined> {
  const scope = core.scenario.id;
  const limit = Math.min(core.scenario.settings.replayStoreMaxEntries, core.stores.replay.maxEntries);
  // A tenth, but never fewer than 10: a store that small is a test bench, not a shared service.
  const quota = Math.max(Math.ceil(limit / QUOTA_SHARE), Math.min(limit, 10));
  const spent = spentNonces(core, principal, now, limit);
  if (spent.length >= quota)
    return fail(
      REPLAY_STORE_FULL,
      `Too many confirmations spent by this caller: ${quota} (its share of the replay store's ${limit}) are still unexpired; retry after the oldest expire (${core.scenario.settings.requestStateTtlSeconds} s after they were issued)`,
      { maxEntries: limit, perPrincipal: quota },
    );
  const full = () =>
    fail(
      REPLAY_STORE_FULL,
      `Replay store is full (max ${limit} entries): no confirmation can be spent now; retry after the oldest entries expire (${core.scenario.settings.requestStateTtlSeconds} s after they were issued)`,
      {
        maxEntries: limit,
      },
    );
  if ((await core.stores.replay.size(now)) >= core.scenario.settings.replayStoreMaxEntries) return full();
  // consume() is the atomic check-and-spend (one transaction, or INSERT … ON CONFLICT): of two racing requests only one gets 'ok'.
  const verdict = await core.stores.replay.consume(scope, payload.n!, payload.e, now);
  if (verdict === 'replayed') return replayRefused();
  if (verdict === 'full') return full();
  spent.push(payload.e);
  spentBy.get(core)?.set(principal, spent);
  return undefined;
}

/** The first round: check the note, then ask for confirmation with a fresh nonce. */
async function firstRound(core: EngineCore, ctx: RequestContext, noteId: string, now: number): Promise<Outcome> {
  const note = notesOf(core).find((n) => n.id === noteId);
  if (!note) return toolError(`No note with id "${noteId}".`, { deleted: false, noteId, reason: 'not_found' });
  const request = confirmRequest(note.title);
  if (!canAsk(request, ctx.caps)) {
    return fail(
      ERROR.missingRequiredClientCapability,
      'Missing required client capability: delete_note asks for confirmation with a form elicitation; declare elicitation form mode',
      {
        requiredCapabilities: capabilityFor(request),
      },
    );
  }
  const requestState = await core.codec.sign({
    p: ctx.principal,
    m: ctx.method,
    d: await requestDigest(ctx),
    e: now + core.scenario.settings.requestStateTtlSeconds * 1000,
    r: 0,
    a: {},
    n: core.ids.nonce(),
    x: { noteId },
  });
  return askAgain(request, requestState);
}

/** `delete_note` handler. */
export const deleteNote: Handler = async (core, ctx, _tool, args): Promise<Outcome> => {
  const noteId = args.noteId;
  if (typeof noteId !== 'string' || !noteId) return fail(ERROR.invalidParams, 'Invalid params for delete_note: noteId must be a non-empty string');
  const now = core.clock.now();
  const rawState = ctx.params.requestState;
  if (rawState === undefined) return firstRound(core, ctx, noteId, now);

  const verified = await core.codec.verify(rawState, { principal: ctx.principal, method: ctx.method, digest: await requestDigest(ctx), now });
  if (!verified.ok) return fail(ERROR.invalidParams, `Invalid requestState: ${verified.reason}`);
  const payload = verified.payload;
  if (typeof payload.n !== 'string' || payload.x?.noteId !== noteId)
    return fail(ERROR.invalidParams, 'Invalid requestState: it was not issued by delete_note for this note');
  // An early refusal only; the nonce is spent atomically by consumeNonce, and nothing awaits between that and the delete.
  if (await core.stores.replay.has(core.scenario.id, payload.n, now)) return replayRefused();

  const note = notesOf(core).find((n) => n.id === noteId);
  const request = confirmRequest(note?.title ?? noteId);
  const responses = ctx.params.inputResponses;
  if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses))) {
    return fail(ERROR.invalidParams, 'Invalid params: inputResponses must be an object keyed by input request');
  }
  const answer = (responses as Record<string, unknown> | undefined)?.[KEY];
  if (answer === undefined) {
    if (!note) return toolError(`No note with id "${noteId}": it no longer exists.`, { deleted: false, noteId, reason: 'not_found' });
    return askAgain(request, rawState as string);
  }
  const problem = checkResponse(KEY, request, answer, true);
  if (problem) return fail(ERROR.invalidParams, `Invalid params: ${problem}`);

  const { action, content } = answer as { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
  if (action === 'cancel') {
    // Dismissed without a choice: stop safely and keep the nonce, so this requestState still works until it expires.
    return toolResult(
      `Nothing was deleted: the confirmation was dismissed. The same confirmation can be answered again until ${new Date(payload.e).toISOString()}.`,
      {
        deleted: false,
        noteId,
        reason: 'cancelled',
        retryUntil: new Date(payload.e).toISOString(),
      },
    );
  }
  const refusal = await consumeNonce(core, payload, ctx.principal, now);
  if (refusal) return refusal;
  if (action === 'decline' || content?.confirm !== true) {
    return toolResult(`Note "${noteId}" was not deleted: the user declined.`, { deleted: false, noteId, reason: 'declined' });
  }
  if (!note) return toolError(`No note with id "${noteId}": it no longer exists.`, { deleted: false, noteId, reason: 'not_found' });
  setNotes(
    core,
    notesOf(core).filter((n) => n.id !== noteId),
  );
  core.emit('note:deleted', { scenarioId: core.scenario.id, noteId });
  return toolResult(`Deleted note "${note.title}" (${noteId}).`, { deleted: true, noteId });
};
