import type { Transaction } from '@ledger-api/ledger';
import { CORE_TYPE_GROUP } from './context';
import type { DemoAction, DemoContext } from './context';

const TRANSFER = 0;
const OVERSIZED_AMOUNT_CHANCE = 0.005;
const VENDOR_FIELD_CHANCE = 0.2;
const VENDOR_FIELDS = ['coffee', 'rent share', 'thanks for the trade!', 'invoice 2021-044', 'payout', 'gift 🎁'];

/** Plain coin transfers between wallets: most of a real chain's traffic, and what reveals many public keys. */
export function paymentActions(): DemoAction[] {
  return [{ weight: () => 18, run: pay }];
}

function pay(ctx: DemoContext): Transaction {
  const sender = ctx.random.pick(ctx.wallets.traders);
  const recipient = ctx.random.pick(ctx.wallets.all.filter((wallet) => wallet !== sender));
  const amount = ctx.random.chance(OVERSIZED_AMOUNT_CHANCE) ? ctx.oversizedAmount() : BigInt(ctx.random.int(1, 2_000_000)) * 100_000n;
  return ctx.transaction({
    sender: sender.index,
    typeGroup: CORE_TYPE_GROUP,
    type: TRANSFER,
    amount,
    recipientId: recipient.address,
    ...(ctx.random.chance(VENDOR_FIELD_CHANCE) && { vendorField: ctx.random.pick(VENDOR_FIELDS) }),
  });
}
