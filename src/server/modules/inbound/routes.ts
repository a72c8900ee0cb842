import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { contactSubjects } from "#domain/inbound";
import { route } from "#server/http/route";
import { contactMail, partnerApplicationMail } from "#server/mail/forms-mail";
import { insertContactMessage, insertPartnerApplication } from "#server/modules/inbound/repository";

const FORM_RATE_LIMIT = { max: 5, timeWindow: "10 minutes" };

/** The contact and partner forms: stored first, then mailed; a mail failure is logged, the form is not lost. */
export const inboundRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "POST /contact",
    {
      tags: ["forms"],
      summary: "Send a message to the Stackbay team",
      config: { rateLimit: FORM_RATE_LIMIT },
    },
    async (request) => {
      const { website, ...form } = request.body;
      // A filled honeypot is a bot: answer as usual so it learns nothing, store nothing.
      if (website) {
        request.log.warn("contact form honeypot filled; message dropped");
        return { received: true as const };
      }
      const id = await insertContactMessage(db, form);
      const subjectLabel = contactSubjects.find((s) => s.value === form.subject)?.label ?? form.subject;
      try {
        await app.mailer.send({
          to: app.env.SUPPORT_EMAIL,
          replyTo: form.email,
          ...contactMail({
            reference: String(id),
            name: form.name,
            email: form.email,
            subject: subjectLabel,
            message: form.message,
          }),
        });
      } catch (error) {
        request.log.error({ err: error, contactMessageId: id }, "contact notification could not be sent");
      }
      return { received: true as const };
    },
  );

  route(
    app,
    "POST /partner-applications",
    {
      tags: ["forms"],
      summary: "Apply to sell on Stackbay",
      config: { rateLimit: FORM_RATE_LIMIT },
    },
    async (request) => {
      const { nickname, ...form } = request.body;
      if (nickname) {
        request.log.warn("partner form honeypot filled; application dropped");
        return { received: true as const };
      }
      const id = await insertPartnerApplication(db, form);
      try {
        await app.mailer.send({
          to: form.email,
          ...partnerApplicationMail({
            reference: String(id),
            contactPerson: form.contactPerson,
            companyName: form.companyName,
          }),
        });
      } catch (error) {
        request.log.error({ err: error, applicationId: id }, "partner acknowledgement could not be sent");
      }
      return { received: true as const };
    },
  );
};
