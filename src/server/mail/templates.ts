import { escapeHtml } from "#server/web/head";

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
