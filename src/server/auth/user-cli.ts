import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { accountEmail, PASSWORD_MAX, PASSWORD_MIN, type Role } from "#domain/accounts";
import { createOrGrantAccount } from "#server/auth/users";
import { openDatabase } from "#server/db/client";
import { loadEnv } from "#server/env";

const roles: Record<string, Role> = {
  buyer: "buyer",
  seller: "seller",
  reseller: "reseller",
  admin: "admin",
  "super-admin": "superAdmin",
};

const usage = `Usage: npm run user:create -- --email ADDRESS [--role ROLE] [--first-name NAME] [--last-name NAME]
  --role        buyer (default), seller, reseller, admin or super-admin; repeat to give several
  The password is read from STACKBAY_USER_PASSWORD, or asked for when run in a terminal.
  An existing account keeps its password and gains the roles.`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(1);
}

/** Reads a line without echoing it (a password typed at the terminal). */
async function askHidden(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const output = rl as unknown as { _writeToOutput: (text: string) => void };
  const write = output._writeToOutput.bind(rl);
  let asked = false;
  output._writeToOutput = (text) => {
    if (!asked) {
      asked = true;
      write(text);
    }
  };
  try {
    return await rl.question(question);
  } finally {
    rl.close();
    process.stdout.write("\n");
  }
}

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    role: { type: "string", multiple: true },
    "first-name": { type: "string" },
    "last-name": { type: "string" },
    help: { type: "boolean" },
  },
});
if (values.help) {
  console.info(usage);
  process.exit(0);
}
const email = accountEmail.safeParse(values.email ?? "");
if (!email.success) fail(`--email: ${email.error.issues[0]?.message}`);
const chosen = (values.role ?? ["buyer"]).map(
  (name) => roles[name] ?? fail(`--role: unknown role "${name}"`),
);

let password = process.env.STACKBAY_USER_PASSWORD ?? "";
if (!password && process.stdin.isTTY) password = await askHidden("Password: ");
if (!password) fail("No password: set STACKBAY_USER_PASSWORD or run in a terminal.");
if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
  fail(`The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`);
}

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await database.migrate();
  const result = await createOrGrantAccount(database.db, {
    email: email.data,
    password,
    firstName: values["first-name"] ?? "",
    lastName: values["last-name"] ?? "",
    roles: chosen,
  });
  console.info(
    result.created
      ? `Created ${email.data} (${chosen.join(", ")}), e-mail verified. It can log in now.`
      : `${email.data} already existed: granted ${chosen.join(", ")}; its password is unchanged.`,
  );
} finally {
  await database.close();
}
