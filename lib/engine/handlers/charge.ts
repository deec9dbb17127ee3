import { ERROR } from '../../protocol';
import { fail, type Outcome } from '../context';
import type { Handler } from './index';
import { toolResult } from './result';

/**
 * `charge`: a side-effecting tool made safe to retry by a durable idempotency key. The mutation
 * ledger runs the charge once per (principal, idempotencyKey) and hands every retry the stored
 * receipt, whatever its JSON-RPC id. The key is bound to the caller, so two principals using the
 * same key never see each other's receipt. Without a key every call charges again (each one is
 * still recorded in the ledger) and the result says a retry would charge twice.
 */

/** The receipt stored in the ledger and returned to every retry. */
interface Receipt {
  receiptId: string;
  account: string;
  amountCents: number;
  idempotencyKey: string | null;
  chargedAt: string;
}

function isReceipt(value: unknown): value is Receipt {
  const r = value as Partial<Receipt> | null;
  return !!r && typeof r === 'object' && typeof r.receiptId === 'string' && typeof r.account === 'string' && typeof r.amountCents === 'number';
}

function describe(receipt: Receipt): string {
  return `${(receipt.amountCents / 100).toFixed(2)} charged to ${receipt.account} (receipt ${receipt.receiptId})`;
}

/** `charge` handler. */
export const charge: Handler = async (core, ctx, _tool, args): Promise<Outcome> => {
  const { account, amountCents, idempotencyKey } = args;
  if (typeof account !== 'string' || !account.trim()) return fail(ERROR.invalidParams, 'Invalid params for charge: account must be a non-empty string');
  if (typeof amountCents !== 'number' || !Number.isSafeInteger(amountCents) || amountCents < 1) {
    return fail(ERROR.invalidParams, 'Invalid params for charge: amountCents must be an integer of at least 1');
  }
  if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !idempotencyKey)) {
    return fail(ERROR.invalidParams, 'Invalid params for charge: idempotencyKey must be a non-empty string when present');
  }
  const now = core.clock.now();
  const scope = core.scenario.id;
  const key = idempotencyKey === undefined ? `${ctx.principal}|unkeyed:${core.ids.nonce()}` : `${ctx.principal}|${idempotencyKey}`;
  const execute = (): Receipt => ({
    receiptId: `rcpt_${core.ids.nonce()}`,
    account,
    amountCents,
    idempotencyKey: idempotencyKey ?? null,
    chargedAt: new Date(now).toISOString(),
  });
  // The ledger claims the key before executing: no other request, here or on another instance sharing the store, can execute it too.
  const outcome = await core.stores.ledger.runOnce(scope, key, execute, now);
  const receipt = outcome.value;
  if (!isReceipt(receipt)) return fail(ERROR.internalError, `Failed to charge: the ledger holds no receipt for key "${String(idempotencyKey)}"`);
  if (!outcome.executed && (receipt.account !== account || receipt.amountCents !== amountCents)) {
    return fail(
      ERROR.invalidParams,
      `Invalid params for charge: idempotencyKey "${String(idempotencyKey)}" was already used for a different charge (${describe(receipt)}); use a new key for a new charge`,
      { idempotencyKey, receiptId: receipt.receiptId },
    );
  }
  if (outcome.executed) core.emit('ledger:executed', { scenarioId: scope, receiptId: receipt.receiptId, keyed: idempotencyKey !== undefined });
  const replayed = !outcome.executed;
  const text =
    idempotencyKey === undefined
      ? `Charged: ${describe(receipt)}. No idempotencyKey was given, so this charge is not safe to retry: a retry would charge again. Send an idempotencyKey to make retries safe.`
      : replayed
        ? `Already charged: ${describe(receipt)}. This retry returned the original receipt; nothing was charged again.`
        : `Charged: ${describe(receipt)}. Retrying with idempotencyKey "${idempotencyKey}" returns this receipt without charging again.`;
  return toolResult(text, { receipt, replayed });
};
