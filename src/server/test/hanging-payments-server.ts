import { loadEnv } from "#server/env";
import { startServer } from "#server/main";
import { mockPaymentProvider } from "#server/modules/orders/payments";

/**
 * The real server (`startServer` of main.ts) whose payment provider never answers every other charge:
 * those checkouts stay between their order's insert and its payment until the process is killed. The
 * crash test runs it as a child process.
 */
let charges = 0;
await startServer(loadEnv(), {
  payments: {
    name: "hangs every other charge",
    charge: (charge) => (++charges % 2 === 0 ? new Promise(() => {}) : mockPaymentProvider.charge(charge)),
  },
});
