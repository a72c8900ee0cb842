import { escapeHtml } from "#server/lib/escape-html";

/** Plain text and matching simple HTML for one message; every interpolated value is escaped. */
export function message(paragraphs: string[], action?: { label: string; url: string }) {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), "", "Stackbay"].join(
    "\n\n",
  );
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;line-height:1.5;color:#111">
${paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll("\n", "<br>")}</p>`).join("\n")}
${action ? `<p><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>` : ""}
<p style="color:#666">Stackbay · Dubai Silicon Oasis, UAE</p></body></html>`;
  return { text, html };
}

/** The first line of a personal e-mail: by first name when the account has one. */
export const greeting = (firstName: string | null | undefined) => (firstName ? `Hi ${firstName},` : "Hi,");

/** The e-mail with a 6-digit code: address verification at sign-up, or a password reset. */
export function codeMail(purpose: "verify" | "reset", firstName: string, code: string) {
  const greeting = firstName ? `Hi ${firstName},` : "Hi,";
  if (purpose === "verify") {
    return {
      subject: "Verify your email for Stackbay",
      ...message([
        greeting,
        "Welcome to Stackbay. Enter this code on the verification page to confirm your e-mail address:",
        code,
        "The code expires in 10 minutes. If you did not create a Stackbay account, you can ignore this e-mail.",
      ]),
    };
  }
  return {
    subject: "Your Stackbay password reset code",
    ...message([
      greeting,
      "Someone asked to reset the password of your Stackbay account. Enter this code to choose a new password:",
      code,
      "The code expires in 10 minutes. If it wasn't you, ignore this e-mail: your password stays as it is.",
    ]),
  };
}

/** Sent instead of a code when someone signs up with an address that already has a verified account. */
export function accountExistsMail(firstName: string, loginUrl: string) {
  return {
    subject: "You already have a Stackbay account",
    ...message(
      [
        firstName ? `Hi ${firstName},` : "Hi,",
        "Someone, maybe you, just tried to create a Stackbay account with this e-mail address. You already have one, so nothing was changed.",
        "Log in with your password, or use 'Forgot password?' on the login page if you don't remember it. If it wasn't you, you can ignore this e-mail.",
      ],
      { label: "Log in to Stackbay", url: loginUrl },
    ),
  };
}

export function passwordChangedMail(firstName: string) {
  return {
    subject: "Your Stackbay password was changed",
    ...message([
      firstName ? `Hi ${firstName},` : "Hi,",
      "The password of your Stackbay account was just changed, and every other session was signed out.",
      "If you didn't do this, reset your password from the login page at once and contact support.",
    ]),
  };
}

/**
 * Sent when someone signs up again with an address whose account is still waiting for verification.
 * The account stays exactly as first signed up; the code is the one already waiting (or, if that one
 * expired, a new code for the same account).
 */
export function pendingSignUpMail(firstName: string, code: string, minutesLeft: number) {
  return {
    subject: "Verify your email for Stackbay",
    ...message([
      firstName ? `Hi ${firstName},` : "Hi,",
      "Someone, probably you, signed up again with this e-mail address. Your account is already waiting for you, so nothing was changed. Enter this code on the verification page to confirm your address:",
      code,
      `The code expires in ${minutesLeft} minute${minutesLeft === 1 ? "" : "s"}. Log in with the password you chose the first time. Forgot it? Verify first, then use 'Forgot password?' on the login page to choose a new one.`,
    ]),
  };
}

/** A code was asked for an address that needs none: it is already verified. */
export function alreadyVerifiedMail(firstName: string, loginUrl: string) {
  return {
    subject: "Your Stackbay email is already verified",
    ...message(
      [
        firstName ? `Hi ${firstName},` : "Hi,",
        "Someone, maybe you, asked for a verification code for this e-mail address. It is already verified, so there is nothing left to do: just log in. If you don't remember your password, use 'Forgot password?' on the login page.",
      ],
      { label: "Log in to Stackbay", url: loginUrl },
    ),
  };
}

/**
 * A code was asked for an address with no account. Mailed like a code, so the answer and its timing
 * do not tell which addresses have accounts.
 */
export function noAccountMail(purpose: "verify" | "reset", signUpUrl: string) {
  const asked =
    purpose === "verify"
      ? "Someone, maybe you, asked for a Stackbay verification code for this e-mail address, but no account with this address is waiting to be verified."
      : "Someone, maybe you, asked to reset the password of a Stackbay account with this e-mail address, but there is no account with this address.";
  return {
    subject:
      purpose === "verify" ? "About your Stackbay verification code" : "About your Stackbay password reset",
    ...message(
      [
        "Hi,",
        asked,
        "If you have an account, you may have signed up with another address. If you want one, you can sign up in a minute. If it wasn't you, you can ignore this e-mail.",
      ],
      { label: "Sign up for Stackbay", url: signUpUrl },
    ),
  };
}

/** Sign-in was locked after many wrong passwords in a row (see modules/account/service.ts). */
export function signInLockedMail(firstName: string, lockedMinutes: number | null, resetUrl: string) {
  return {
    subject: "Sign-in to your Stackbay account is paused",
    ...message(
      [
        firstName ? `Hi ${firstName},` : "Hi,",
        lockedMinutes === null
          ? "Someone has entered a wrong password for your Stackbay account too many times in a row, so sign-in is locked until the password is reset."
          : `Someone has entered a wrong password for your Stackbay account many times in a row, so sign-in is paused for ${lockedMinutes} minutes.`,
        "If it was you, reset your password to log in right away. If it wasn't, your account is safe: the password was not guessed. Resetting it, or turning on two-factor authentication, keeps it that way.",
      ],
      { label: "Reset your password", url: resetUrl },
    ),
  };
}
